// The public entry. `require('enclave')` returns the factory itself (callable), which also
// carries `default`, `enclave` and `errorCodes` for ESM and named-import users.
import { errorCodes as codes } from './errors.js';
import { createApplication } from './server.js';
import type * as Types from './types.js';

/**
 * Creates an Enclave application.
 *
 * @example
 * const enclave = require('enclave')
 * const app = enclave()
 * app.get('/', async () => ({ hello: 'world' }))
 */
const enclave = createApplication as unknown as Types.EnclaveFactory;
enclave.default = enclave;
enclave.enclave = enclave;
enclave.errorCodes = codes;

declare namespace enclave {
  export type EnclaveInstance = Types.EnclaveInstance;
  export type EnclaveOptions = Types.EnclaveOptions;
  export type EnclaveRequest<G extends Types.RouteGeneric = Types.RouteGeneric> = Types.EnclaveRequest<G>;
  export type EnclaveReply<G extends Types.RouteGeneric = Types.RouteGeneric> = Types.EnclaveReply<G>;
  export type EnclaveError = Types.EnclaveError;
  export type RouteGeneric = Types.RouteGeneric;
  export type RouteOptions<G extends Types.RouteGeneric = Types.RouteGeneric> = Types.RouteOptions<G>;
  export type RouteShorthandOptions<G extends Types.RouteGeneric = Types.RouteGeneric> = Types.RouteShorthandOptions<G>;
  export type RouteHandler<G extends Types.RouteGeneric = Types.RouteGeneric> = Types.RouteHandler<G>;
  export type Plugin<Options extends Types.PluginOptions = Types.PluginOptions> = Types.Plugin<Options>;
  export type PluginOptions = Types.PluginOptions;
  export type RequestHook = Types.RequestHook;
  export type ErrorHandler = Types.ErrorHandler;
  export type InjectOptions = Types.InjectOptions;
  export type InjectResponse = Types.InjectResponse;
  export type Logger = Types.Logger;
  export type ValidatorCompiler = Types.ValidatorCompiler;
  export type SerializerCompiler = Types.SerializerCompiler;
  export type SchemaErrorFormatter = Types.SchemaErrorFormatter;
}

export = enclave;
