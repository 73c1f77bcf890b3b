// ESM entry: the same single CommonJS implementation (dist/index.js), re-exported, so that
// `import plugin from '@enclavejs/plugin'` and `require('@enclavejs/plugin')` are one function.
import plugin from '../index.js';

export default plugin;
export { plugin };
