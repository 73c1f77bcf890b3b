// The public entry. `require('enclavejs')` returns the factory itself (callable), which also
// carries `default`, `enclave` and `errorCodes` for ESM and named-import users.
import type { Server as HttpServer } from 'node:http';
import type { Http2SecureServer, Http2Server } from 'node:http2';
import type { Server as HttpsServer } from 'node:https';
import { errorCodes as codes } from './errors.js';
import { LogController } from './log-controller.js';
import { createApplication } from './server.js';
// A value import, elided from the JavaScript (only the ambient namespace below reads it): an
// `export import` alias cannot name what `import type` brought in (TS1380).
import * as Types from './types.js';

/**
 * Creates an Enclave application.
 *
 * @example
 * const enclave = require('enclavejs')
 * const app = enclave()
 * app.get('/', async () => ({ hello: 'world' }))
 */
// A function declaration (not a const) so that the namespace below, which holds `export import`
// aliases, can merge with it.
// Fastify's overloads and type parameters: the server type follows the `http2` and `https`
// options (`fastify({ http2: true })` is a `FastifyInstance<Http2Server, …>`), the logger's type
// the `loggerInstance` option; each may also be named (`fastify<Server, Request, Reply, Logger>()`).
// A plain call with no type arguments returns `EnclaveInstance`, which users augment. Unlike
// Fastify's, the result's type is not thenable (docs/differences.md): awaiting an instance keeps
// its type, decorators included.
function enclave<
  Server extends Http2SecureServer,
  Request extends Types.RawRequestDefaultExpression<Server> = Types.RawRequestDefaultExpression<Server>,
  Reply extends Types.RawReplyDefaultExpression<Server> = Types.RawReplyDefaultExpression<Server>,
  Logger extends Types.FastifyBaseLogger = Types.FastifyBaseLogger,
  TypeProvider extends Types.FastifyTypeProvider = Types.FastifyTypeProviderDefault,
>(options: Types.FastifyHttp2SecureOptions<Server, Logger>): Types.FastifyInstance<Server, Request, Reply, Logger, TypeProvider>;
function enclave<
  Server extends Http2Server,
  Request extends Types.RawRequestDefaultExpression<Server> = Types.RawRequestDefaultExpression<Server>,
  Reply extends Types.RawReplyDefaultExpression<Server> = Types.RawReplyDefaultExpression<Server>,
  Logger extends Types.FastifyBaseLogger = Types.FastifyBaseLogger,
  TypeProvider extends Types.FastifyTypeProvider = Types.FastifyTypeProviderDefault,
>(options: Types.FastifyHttp2Options<Server, Logger>): Types.FastifyInstance<Server, Request, Reply, Logger, TypeProvider>;
function enclave<
  Server extends HttpsServer,
  Request extends Types.RawRequestDefaultExpression<Server> = Types.RawRequestDefaultExpression<Server>,
  Reply extends Types.RawReplyDefaultExpression<Server> = Types.RawReplyDefaultExpression<Server>,
  Logger extends Types.FastifyBaseLogger = Types.FastifyBaseLogger,
  TypeProvider extends Types.FastifyTypeProvider = Types.FastifyTypeProviderDefault,
>(options: Types.FastifyHttpsOptions<Server, Logger>): Types.FastifyInstance<Server, Request, Reply, Logger, TypeProvider>;
function enclave(options?: Types.FastifyHttpOptions<HttpServer> & { loggerInstance?: undefined }): Types.EnclaveInstance;
function enclave<
  Server extends HttpServer,
  Request extends Types.RawRequestDefaultExpression<Server> = Types.RawRequestDefaultExpression<Server>,
  Reply extends Types.RawReplyDefaultExpression<Server> = Types.RawReplyDefaultExpression<Server>,
  Logger extends Types.FastifyBaseLogger = Types.FastifyBaseLogger,
  TypeProvider extends Types.FastifyTypeProvider = Types.FastifyTypeProviderDefault,
>(options?: Types.FastifyHttpOptions<Server, Logger>): Types.FastifyInstance<Server, Request, Reply, Logger, TypeProvider>;
// any: the implementation signature must fit every overload's instance and options types (their
// callbacks take each server's raw request); callers see only the overloads.
function enclave(options?: any): any {
  return createApplication(options);
}
enclave.default = enclave;
enclave.enclave = enclave;
// Fastify's own named export, so `import { fastify } from 'enclavejs'` is the only change an app needs.
enclave.fastify = enclave;
enclave.errorCodes = codes;
enclave.LogController = LogController;

// The public types ride on a namespace merged with the factory, because `export =` (which makes
// `require('enclavejs')` return the factory itself) allows no other exports. Every name is an
// alias (`export import`) of its declaration in types/, so the interfaces users augment
// (`declare module 'enclavejs' { interface EnclaveInstance { db: Db } }`) merge into that
// declaration, and nothing under types/ imports this file (issue 31: one way, index.ts on top).
// ES modules get these declarations too (the exports map's `import` types are dist/index.d.ts).
declare namespace enclave {
  // Fastify's remaining type names (types/fastify-type-names.ts).
  export import ConstructorAction = Types.ConstructorAction;
  export import FastifyRegister = Types.FastifyRegister;
  export import FastifyRegisterOptions = Types.FastifyRegisterOptions;
  export import FastifyReplyContext = Types.FastifyReplyContext;
  export import FastifyRequestContext = Types.FastifyRequestContext;
  export import PrintRoutesOptions = Types.PrintRoutesOptions;
  export import ProtoAction = Types.ProtoAction;
  export import ValidationResult = Types.ValidationResult;
  export import getDefaultJsonParser = Types.getDefaultJsonParser;
  export import hasContentTypeParser = Types.hasContentTypeParser;
  export import ApplicationHooks = Types.ApplicationHooks;
  export import ChildLoggerFactory = Types.ChildLoggerFactory;
  export import ConnectionError = Types.ConnectionError;
  export import ContextConfigDefault = Types.ContextConfigDefault;
  export import DecoratorAccessors = Types.DecoratorAccessors;
  export import DecoratorsOf = Types.DecoratorsOf;
  export import DoneFuncWithErrOrRes = Types.DoneFuncWithErrOrRes;
  export import EnclaveError = Types.EnclaveError;
  export import EnclaveFactory = Types.EnclaveFactory;
  export import EnclaveInstance = Types.EnclaveInstance;
  export import EnclaveOptions = Types.EnclaveOptions;
  export import EnclaveReply = Types.EnclaveReply;
  export import EnclaveRequest = Types.EnclaveRequest;
  export import ErrorCodes = Types.ErrorCodes;
  export import ErrorHandler = Types.ErrorHandler;
  export import AddContentTypeParser = Types.AddContentTypeParser;
  export import FastifyBaseLogger = Types.FastifyBaseLogger;
  export import FastifyBodyParser = Types.FastifyBodyParser;
  export import FastifyContentTypeParser = Types.FastifyContentTypeParser;
  export import FastifyContextConfig = Types.FastifyContextConfig;
  export import FastifyError = Types.FastifyError;
  export import FastifyErrorCodes = Types.FastifyErrorCodes;
  export import FastifyHttp2Options = Types.FastifyHttp2Options;
  export import FastifyHttp2SecureOptions = Types.FastifyHttp2SecureOptions;
  export import FastifyHttpOptions = Types.FastifyHttpOptions;
  export import FastifyHttpsOptions = Types.FastifyHttpsOptions;
  export import FastifyListenOptions = Types.FastifyListenOptions;
  export import FastifyLogFn = Types.FastifyLogFn;
  export import FastifyLoggerInstance = Types.FastifyLoggerInstance;
  export import FastifyLoggerOptions = Types.FastifyLoggerOptions;
  export import FastifyLoggerStreamDestination = Types.FastifyLoggerStreamDestination;
  export import FastifyRouterOptions = Types.FastifyRouterOptions;
  export import FastifySchemaControllerOptions = Types.FastifySchemaControllerOptions;
  export import FastifySerializerCompiler = Types.FastifySerializerCompiler;
  export import FastifySchemaCompiler = Types.FastifySchemaCompiler;
  export import FastifyServerFactory = Types.FastifyServerFactory;
  export import FastifyServerFactoryHandler = Types.FastifyServerFactoryHandler;
  export import FastifyServerOptions = Types.FastifyServerOptions;
  export import FastifyValidationResult = Types.FastifyValidationResult;
  export import FastifyRouteSchemaDef = Types.FastifyRouteSchemaDef;
  export import FastifySchemaValidationError = Types.FastifySchemaValidationError;
  export import FastifyInstance = Types.FastifyInstance;
  export import FastifyPlugin = Types.FastifyPlugin;
  export import FastifyPluginAsync = Types.FastifyPluginAsync;
  export import FastifyPluginCallback = Types.FastifyPluginCallback;
  export import FastifyPluginOptions = Types.FastifyPluginOptions;
  export import FastifyReply = Types.FastifyReply;
  export import FastifyRequest = Types.FastifyRequest;
  export import FastifySchema = Types.FastifySchema;
  export import FastifyTyped = Types.FastifyTyped;
  export import FastifyTypeProvider = Types.FastifyTypeProvider;
  export import FindMyWayVersion = Types.FindMyWayVersion;
  export import FastifyTypeProviderDefault = Types.FastifyTypeProviderDefault;
  export import HookDone = Types.HookDone;
  export import HookHandlerDoneFunction = Types.HookHandlerDoneFunction;
  export import HTTPMethods = Types.HTTPMethods;
  export import HttpPart = Types.HttpPart;
  export import InjectChain = Types.InjectChain;
  export import InjectOptions = Types.InjectOptions;
  export import InjectResponse = Types.InjectResponse;
  export import LifecycleHooks = Types.LifecycleHooks;
  export import LightMyRequestCallback = Types.LightMyRequestCallback;
  export import LightMyRequestChain = Types.LightMyRequestChain;
  export import LightMyRequestResponse = Types.LightMyRequestResponse;
  export import ListenOptions = Types.ListenOptions;
  export type LogControllerOptions = Types.LogControllerOptions;
  export import Logger = Types.Logger;
  export import LogLevel = Types.LogLevel;
  export import onCloseAsyncHookHandler = Types.onCloseAsyncHookHandler;
  export import onCloseHookHandler = Types.onCloseHookHandler;
  export import onErrorAsyncHookHandler = Types.onErrorAsyncHookHandler;
  export import OnErrorHook = Types.OnErrorHook;
  export import onErrorHookHandler = Types.onErrorHookHandler;
  export import onListenAsyncHookHandler = Types.onListenAsyncHookHandler;
  export import onListenHookHandler = Types.onListenHookHandler;
  export import onReadyAsyncHookHandler = Types.onReadyAsyncHookHandler;
  export import onReadyHookHandler = Types.onReadyHookHandler;
  export import onRegisterHookHandler = Types.onRegisterHookHandler;
  export import onRequestAbortAsyncHookHandler = Types.onRequestAbortAsyncHookHandler;
  export import OnRequestAbortHook = Types.OnRequestAbortHook;
  export import onRequestAbortHookHandler = Types.onRequestAbortHookHandler;
  export import onRequestAsyncHookHandler = Types.onRequestAsyncHookHandler;
  export import onRequestHookHandler = Types.onRequestHookHandler;
  export import onResponseAsyncHookHandler = Types.onResponseAsyncHookHandler;
  export import onResponseHookHandler = Types.onResponseHookHandler;
  export import onRouteHookHandler = Types.onRouteHookHandler;
  export import onSendAsyncHookHandler = Types.onSendAsyncHookHandler;
  export import OnSendHook = Types.OnSendHook;
  export import onSendHookHandler = Types.onSendHookHandler;
  export import onTimeoutAsyncHookHandler = Types.onTimeoutAsyncHookHandler;
  export import onTimeoutHookHandler = Types.onTimeoutHookHandler;
  export import PinoLoggerOptions = Types.PinoLoggerOptions;
  export import Plugin = Types.Plugin;
  export import PluginDone = Types.PluginDone;
  export import PluginFunction = Types.PluginFunction;
  export import PluginModule = Types.PluginModule;
  export import PluginOptions = Types.PluginOptions;
  export import preCloseAsyncHookHandler = Types.preCloseAsyncHookHandler;
  export import preCloseHookHandler = Types.preCloseHookHandler;
  export import preHandlerAsyncHookHandler = Types.preHandlerAsyncHookHandler;
  export import preHandlerHookHandler = Types.preHandlerHookHandler;
  export import preParsingAsyncHookHandler = Types.preParsingAsyncHookHandler;
  export import PreParsingHook = Types.PreParsingHook;
  export import preParsingHookHandler = Types.preParsingHookHandler;
  export import preSerializationAsyncHookHandler = Types.preSerializationAsyncHookHandler;
  export import PreSerializationHook = Types.PreSerializationHook;
  export import preSerializationHookHandler = Types.preSerializationHookHandler;
  export import preValidationAsyncHookHandler = Types.preValidationAsyncHookHandler;
  export import preValidationHookHandler = Types.preValidationHookHandler;
  export import RawReplyDefaultExpression = Types.RawReplyDefaultExpression;
  export import RawRequestDefaultExpression = Types.RawRequestDefaultExpression;
  export import RawServerBase = Types.RawServerBase;
  export import RawServerDefault = Types.RawServerDefault;
  export import RegisterOptions = Types.RegisterOptions;
  export import ReplyDefault = Types.ReplyDefault;
  export import ReplyGenericInterface = Types.ReplyGenericInterface;
  export import ReplyPayload = Types.ReplyPayload;
  export import RequestBodyDefault = Types.RequestBodyDefault;
  export import RequestGenericInterface = Types.RequestGenericInterface;
  export import RequestHeadersDefault = Types.RequestHeadersDefault;
  export import RequestHook = Types.RequestHook;
  export import RequestParamsDefault = Types.RequestParamsDefault;
  export import RequestPayload = Types.RequestPayload;
  export import RequestRouteOptions = Types.RequestRouteOptions;
  export import RequestQuerystringDefault = Types.RequestQuerystringDefault;
  export import ResolveProvidedRoute = Types.ResolveProvidedRoute;
  export import ResolveRoute = Types.ResolveRoute;
  export import RouteConfig = Types.RouteConfig;
  export import RouteGeneric = Types.RouteGeneric;
  export import RouteGenericInterface = Types.RouteGenericInterface;
  export import RouteHandler = Types.RouteHandler;
  export import RouteHandlerMethod = Types.RouteHandlerMethod;
  export import RouteHooks = Types.RouteHooks;
  export import RouteOptions = Types.RouteOptions;
  export import RouteRegistration = Types.RouteRegistration;
  export import RouteSchema = Types.RouteSchema;
  export import RouteShorthand = Types.RouteShorthand;
  export import RouteShorthandMethod = Types.RouteShorthandMethod;
  export import RouteShorthandOptions = Types.RouteShorthandOptions;
  export import RouteShorthandOptionsWithHandler = Types.RouteShorthandOptionsWithHandler;
  export import SafePromiseLike = Types.SafePromiseLike;
  export import SchemaErrorFormatter = Types.SchemaErrorFormatter;
  export import SchemaToType = Types.SchemaToType;
  export import SchemaTypeResolvers = Types.SchemaTypeResolvers;
  export import SerializedPayload = Types.SerializedPayload;
  export import SerializeFunction = Types.SerializeFunction;
  export import SerializerCompiler = Types.SerializerCompiler;
  export import SerializerCompilerInput = Types.SerializerCompilerInput;
  export import ShorthandArguments = Types.ShorthandArguments;
  export import TrailerFunction = Types.TrailerFunction;
  export import TypeProviderShape = Types.TypeProviderShape;
  export import ValidationContext = Types.ValidationContext;
  export import ValidationFunction = Types.ValidationFunction;
  export import ValidationIssue = Types.ValidationIssue;
  export import ValidatorCompiler = Types.ValidatorCompiler;
  export import ValidatorCompilerInput = Types.ValidatorCompilerInput;
  export import WithTypeProvider = Types.WithTypeProvider;
}

export = enclave;
