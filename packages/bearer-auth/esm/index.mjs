// ESM entry: re-exports the CommonJS build (copied next to it as dist/esm/), so that
// `import` and `require` share one implementation.
import bearerAuth from '../index.js';

export default bearerAuth;
export { bearerAuth };
