// The public types. Route data defaults to `unknown` (never `any`); a route can name its types
// Fastify-style with one generic: `app.post<{ Body: User }>(...)`.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { EnclaveError, errorCodes } from './errors.js';
import type { Logger } from './logger.js';
import type {
  SchemaErrorFormatter,
  SerializeFunction,
  SerializerCompiler,
  ValidationFunction,
  ValidatorCompiler,
} from './schema/contracts.js';

export type { EnclaveError, Logger, SchemaErrorFormatter, SerializerCompiler, ValidatorCompiler, ValidationFunction, SerializeFunction };

/** The types of one route's request parts and reply payload. */
export interface RouteGeneric {
  Params?: unknown;
  Querystring?: unknown;
  Body?: unknown;
  Headers?: unknown;
  Reply?: unknown;
}

type Part<G extends RouteGeneric, K extends keyof RouteGeneric> = K extends keyof G ? G[K] : unknown;

/** Factory options (SPEC §4.10, §6.2, and Fastify 5's names). */
export interface EnclaveOptions {
  logger?: boolean | Record<string, unknown> | Logger;
  loggerInstance?: Logger;
  bodyLimit?: number;
  pluginTimeout?: number;
  exposeHeadRoutes?: boolean;
  maxParamLength?: number;
  caseSensitive?: boolean;
  ignoreTrailingSlash?: boolean;
  ignoreDuplicateSlashes?: boolean;
  return503OnClosing?: boolean;
  disableRequestLogging?: boolean;
  requestIdHeader?: string | false;
  requestIdLogLabel?: string;
  genReqId?: (raw: IncomingMessage) => string;
  querystringParser?: (query: string) => Record<string, unknown>;
  trustProxy?: boolean | number | string | string[] | ((address: string, hop: number) => boolean);
  onProtoPoisoning?: 'error' | 'remove' | 'ignore';
  onConstructorPoisoning?: 'error' | 'remove' | 'ignore';
  forceCloseConnections?: boolean | 'idle';
  connectionTimeout?: number;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  maxRequestsPerSocket?: number;
  http2SessionTimeout?: number;
  https?: Record<string, unknown>;
  http2?: boolean;
  serverFactory?: (handler: (req: IncomingMessage, res: ServerResponse) => void, options: EnclaveOptions) => Server;
  ajv?: { customOptions?: Record<string, unknown>; plugins?: unknown[] };
  schemaErrorFormatter?: SchemaErrorFormatter;
  schemaController?: Record<string, unknown>;
  constraints?: Record<string, unknown>;
  allowUnsafeRegex?: boolean;
  routerOptions?: Record<string, unknown>;
}

export interface EnclaveRequest<G extends RouteGeneric = RouteGeneric> {
  id: string;
  params: Part<G, 'Params'>;
  query: Part<G, 'Querystring'>;
  body: Part<G, 'Body'>;
  headers: Part<G, 'Headers'> & IncomingMessage['headers'];
  raw: IncomingMessage;
  log: Logger;
  readonly server: EnclaveInstance;
  readonly ip: string | undefined;
  readonly ips: string[] | undefined;
  readonly host: string | undefined;
  readonly hostname: string | undefined;
  readonly port: number | null;
  readonly protocol: 'http' | 'https' | string;
  readonly method: string;
  readonly url: string;
  readonly originalUrl: string;
  readonly is404: boolean;
  readonly socket: IncomingMessage['socket'];
  readonly routeOptions: Readonly<{ method: string; url: string; bodyLimit: number; config: Record<string, unknown>; schema?: unknown; attachValidation?: boolean }>;
  validationError?: EnclaveError;
  getValidationFunction(partOrSchema: string | object): ValidationFunction | undefined;
  compileValidationSchema(schema: object, httpPart?: string): ValidationFunction;
  validateInput(input: unknown, schemaOrPart: object | string, httpPart?: string): unknown;
  [decorator: string]: unknown;
}

export interface EnclaveReply<G extends RouteGeneric = RouteGeneric> extends PromiseLike<void> {
  raw: ServerResponse;
  request: EnclaveRequest<G>;
  log: Logger;
  readonly server: EnclaveInstance;
  statusCode: number;
  sent: boolean;
  readonly elapsedTime: number;
  code(statusCode: number): this;
  status(statusCode: number): this;
  header(name: string, value: unknown): this;
  headers(values: Record<string, unknown>): this;
  getHeader(name: string): unknown;
  getHeaders(): Record<string, unknown>;
  hasHeader(name: string): boolean;
  removeHeader(name: string): this;
  type(contentType: string): this;
  send(payload?: Part<G, 'Reply'> | string | Uint8Array | Readable | Error): this;
  serializer(fn: (payload: unknown) => string): this;
  serialize(payload: unknown): string;
  redirect(url: string, code?: number): this;
  callNotFound(): this;
  hijack(): this;
  getSerializationFunction(schemaOrStatus: object | number | string, contentType?: string): SerializeFunction | undefined;
  compileSerializationSchema(schema: object, httpStatus?: string, contentType?: string): SerializeFunction;
  serializeInput(input: unknown, schemaOrStatus: object | number | string, httpStatus?: string, contentType?: string): string;
  [decorator: string]: unknown;
}

type MaybePromise<T> = T | Promise<T>;
type Done = (error?: Error | null) => void;

export type RouteHandler<G extends RouteGeneric = RouteGeneric> = (
  this: EnclaveInstance,
  request: EnclaveRequest<G>,
  reply: EnclaveReply<G>,
) => MaybePromise<Part<G, 'Reply'> | EnclaveReply<G> | undefined | unknown>;

// Hooks and plugins are typed with one signature each (not a union of the async and callback
// forms) so that TypeScript can infer the parameters of an inline function.

/** A request hook: async (return a promise, omit `done`) or callback style (call `done`). */
export type RequestHook = (this: EnclaveInstance, request: EnclaveRequest, reply: EnclaveReply, done: Done) => void | Promise<unknown>;

/** A hook that receives and may replace a value: the payload stream, the payload, or the error. */
export type PayloadHook = (
  this: EnclaveInstance,
  request: EnclaveRequest,
  reply: EnclaveReply,
  payload: any,
  done: (error?: Error | null, value?: unknown) => void,
) => unknown;

export interface RouteHooksOptions {
  onRequest?: RequestHook | RequestHook[];
  preParsing?: PayloadHook | PayloadHook[];
  preValidation?: RequestHook | RequestHook[];
  preHandler?: RequestHook | RequestHook[];
  preSerialization?: PayloadHook | PayloadHook[];
  onSend?: PayloadHook | PayloadHook[];
  onResponse?: RequestHook | RequestHook[];
  onError?: PayloadHook | PayloadHook[];
  onTimeout?: RequestHook | RequestHook[];
  onRequestAbort?: (this: EnclaveInstance, request: EnclaveRequest, done: Done) => void | Promise<unknown>;
}

export interface RouteShorthandOptions<G extends RouteGeneric = RouteGeneric> extends Omit<RouteHooksOptions, never> {
  schema?: {
    body?: unknown;
    querystring?: unknown;
    query?: unknown;
    params?: unknown;
    headers?: unknown;
    response?: Record<string | number, unknown>;
    [key: string]: unknown;
  };
  attachValidation?: boolean;
  validatorCompiler?: ValidatorCompiler;
  serializerCompiler?: SerializerCompiler;
  schemaErrorFormatter?: SchemaErrorFormatter;
  bodyLimit?: number;
  config?: Record<string, unknown>;
  constraints?: Record<string, unknown>;
  exposeHeadRoute?: boolean;
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both';
  logLevel?: string;
  errorHandler?: (this: EnclaveInstance, error: EnclaveError, request: EnclaveRequest<G>, reply: EnclaveReply<G>) => unknown;
  handler?: RouteHandler<G>;
}

export interface RouteOptions<G extends RouteGeneric = RouteGeneric> extends RouteShorthandOptions<G> {
  method: string | string[];
  url: string;
  handler: RouteHandler<G>;
}

export type PluginOptions = Record<string, any>;

/** A plugin: async, or callback style with `done`. */
export type Plugin<Options extends PluginOptions = PluginOptions> = (
  instance: EnclaveInstance,
  options: Options,
  done: Done,
) => void | Promise<unknown>;

export type ErrorHandler = (this: EnclaveInstance, error: EnclaveError, request: EnclaveRequest, reply: EnclaveReply) => unknown;

interface Shorthand {
  <G extends RouteGeneric = RouteGeneric>(path: string, handler: RouteHandler<G>): EnclaveInstance;
  <G extends RouteGeneric = RouteGeneric>(path: string, options: RouteShorthandOptions<G>, handler: RouteHandler<G>): EnclaveInstance;
  <G extends RouteGeneric = RouteGeneric>(path: string, options: RouteShorthandOptions<G> & { handler: RouteHandler<G> }): EnclaveInstance;
}

export interface InjectOptions {
  method?: string;
  url?: string;
  path?: string;
  query?: Record<string, unknown> | string;
  headers?: Record<string, string | string[] | undefined>;
  payload?: unknown;
  body?: unknown;
  cookies?: Record<string, string>;
  remoteAddress?: string;
  [option: string]: unknown;
}

export interface InjectResponse {
  statusCode: number;
  statusMessage: string;
  headers: Record<string, string | string[] | number | undefined>;
  payload: string;
  body: string;
  rawPayload: Buffer;
  json<T = any>(): T;
  cookies: Array<Record<string, unknown>>;
}

/**
 * An application or plugin context. It is awaitable (`await app.register(p)` loads what is
 * queued); the type resolves to `undefined` so that awaiting it does not recurse.
 */
export interface EnclaveInstance extends PromiseLike<undefined> {
  register<Options extends PluginOptions>(
    plugin: Plugin<Options> | { default: Plugin<Options> } | Promise<{ default: Plugin<Options> }>,
    options?: Options & { prefix?: string } | ((parent: EnclaveInstance) => Options & { prefix?: string }),
  ): EnclaveInstance;
  after(): Promise<void>;
  after(callback: (error: Error | null, done?: Done) => unknown): EnclaveInstance;
  ready(): Promise<undefined>;
  ready(callback: (error: Error | null) => void): undefined;
  listen(options?: { port?: number | string; host?: string; backlog?: number; signal?: AbortSignal; listenTextResolver?: (address: string) => string }): Promise<string>;
  listen(options: { port?: number | string; host?: string; backlog?: number }, callback: (error: Error | null, address?: string) => void): undefined;
  listen(callback: (error: Error | null, address?: string) => void): undefined;
  close(): Promise<void>;
  close(callback: (error?: Error | null) => void): undefined;
  inject(options: InjectOptions | string): Promise<InjectResponse>;
  inject(options: InjectOptions | string, callback: (error: Error | null, response?: InjectResponse) => void): undefined;
  inject(): any;
  route<G extends RouteGeneric = RouteGeneric>(options: RouteOptions<G>): EnclaveInstance;
  get: Shorthand;
  head: Shorthand;
  post: Shorthand;
  put: Shorthand;
  delete: Shorthand;
  options: Shorthand;
  patch: Shorthand;
  all: Shorthand;
  addHook(name: 'onRequest' | 'preValidation' | 'preHandler' | 'onResponse' | 'onTimeout', hook: RequestHook): EnclaveInstance;
  addHook(name: 'preParsing' | 'preSerialization' | 'onSend' | 'onError', hook: PayloadHook): EnclaveInstance;
  addHook(name: 'onRequestAbort', hook: RouteHooksOptions['onRequestAbort'] & {}): EnclaveInstance;
  addHook(name: 'onRoute', hook: (this: EnclaveInstance, routeOptions: RouteOptions & { routePath: string; path: string; prefix: string }) => void): EnclaveInstance;
  addHook(name: 'onRegister', hook: (instance: EnclaveInstance, options: PluginOptions) => void): EnclaveInstance;
  addHook(name: 'onReady' | 'onListen' | 'preClose', hook: (this: EnclaveInstance, done: Done) => void | Promise<unknown>): EnclaveInstance;
  addHook(name: 'onClose', hook: (instance: EnclaveInstance, done: Done) => void | Promise<unknown>): EnclaveInstance;
  decorate(name: string, value: unknown, dependencies?: string[]): EnclaveInstance;
  decorateRequest(name: string, value: unknown, dependencies?: string[]): EnclaveInstance;
  decorateReply(name: string, value: unknown, dependencies?: string[]): EnclaveInstance;
  hasDecorator(name: string): boolean;
  hasRequestDecorator(name: string): boolean;
  hasReplyDecorator(name: string): boolean;
  getDecorator<T = unknown>(name: string): T;
  hasPlugin(name: string): boolean;
  setErrorHandler(handler: ErrorHandler): EnclaveInstance;
  setNotFoundHandler(handler: RouteHandler): EnclaveInstance;
  setNotFoundHandler(options: { preValidation?: RequestHook | RequestHook[]; preHandler?: RequestHook | RequestHook[] }, handler: RouteHandler): EnclaveInstance;
  setReplySerializer(serializer: (payload: unknown, statusCode: number) => string): EnclaveInstance;
  addSchema(schema: Record<string, unknown> & { $id: string }): EnclaveInstance;
  getSchemas(): Record<string, unknown>;
  getSchema(id: string): unknown;
  setValidatorCompiler(compiler: ValidatorCompiler): EnclaveInstance;
  setSerializerCompiler(compiler: SerializerCompiler): EnclaveInstance;
  setSchemaErrorFormatter(formatter: SchemaErrorFormatter): EnclaveInstance;
  addContentTypeParser(
    matcher: string | RegExp | Array<string | RegExp>,
    parser: (this: EnclaveInstance, request: EnclaveRequest, body: any, done: (error: Error | null, body?: unknown) => void) => unknown,
  ): EnclaveInstance;
  addContentTypeParser(
    matcher: string | RegExp | Array<string | RegExp>,
    options: { parseAs?: 'string' | 'buffer'; bodyLimit?: number },
    parser: (this: EnclaveInstance, request: EnclaveRequest, body: any, done: (error: Error | null, body?: unknown) => void) => unknown,
  ): EnclaveInstance;
  hasContentTypeParser(matcher: string | RegExp): boolean;
  removeContentTypeParser(matcher: string | RegExp | Array<string | RegExp>): EnclaveInstance;
  removeAllContentTypeParsers(): EnclaveInstance;
  hasRoute(route: { method: string; url: string; constraints?: Record<string, unknown> }): boolean;
  findRoute(route: { method: string; url: string; constraints?: Record<string, unknown> }): { params: Record<string, string>; store: unknown } | null;
  printRoutes(options?: Record<string, unknown>): string;
  printPlugins(): string;
  addresses(): Array<{ address: string; family: string; port: number }>;
  readonly prefix: string;
  readonly pluginName: string;
  readonly version: string;
  readonly server: Server;
  readonly log: Logger;
  readonly initialConfig: Readonly<EnclaveOptions>;
  readonly listeningOrigin: string;
  readonly errorHandler: ErrorHandler;
  [decorator: string]: unknown;
}

/** The factory, as `require('enclave')` and `import enclave from 'enclave'` return it. */
export interface EnclaveFactory {
  (options?: EnclaveOptions): EnclaveInstance;
  default: EnclaveFactory;
  enclave: EnclaveFactory;
  errorCodes: typeof errorCodes;
}
