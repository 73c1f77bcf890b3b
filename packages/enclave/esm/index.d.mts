// Types for the ESM entry. A default import of the CommonJS `export =` declaration is the
// factory itself. TypeScript refuses `export *` from an `export =` module, so the public
// types of its merged namespace are re-exported by name: keep this list equal to that
// namespace (test/exports.test.ts fails, naming what is missing, when they drift).
import enclave from '../index.js';

export default enclave;
export { enclave };
export declare const errorCodes: typeof enclave.errorCodes;
export type {
  EnclaveError,
  EnclaveInstance,
  EnclaveOptions,
  EnclaveReply,
  EnclaveRequest,
  ErrorHandler,
  InjectOptions,
  InjectResponse,
  Logger,
  Plugin,
  PluginOptions,
  RequestHook,
  RouteGeneric,
  RouteHandler,
  RouteOptions,
  RouteShorthandOptions,
  SchemaErrorFormatter,
  SerializerCompiler,
  ValidatorCompiler,
} from '../index.js';
