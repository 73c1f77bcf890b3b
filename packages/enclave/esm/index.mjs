// ESM entry: re-exports the single CommonJS build (dist/index.js), so that
// `import enclave from 'enclavejs'` and `require('enclavejs')` are the same factory and share one
// set of error classes (an `instanceof` or `code` check works whichever way it was loaded).
import enclave from '../index.js';

export default enclave;
export { enclave };
export const LogController = enclave.LogController;
export const fastify = enclave;
export const errorCodes = enclave.errorCodes;
