// ESM entry: the same single CommonJS implementation (dist/index.js), re-exported, so that
// `import plugin from '@enclave/plugin'` and `require('@enclave/plugin')` are one function.
import plugin from '../index.js';

export default plugin;
export { plugin };
