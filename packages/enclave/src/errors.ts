import { format } from 'node:util';

/** An error raised by Enclave: a stable `code` to test for and the HTTP status it answers with. */
export interface EnclaveError extends Error {
  code: string;
  statusCode: number;
  /** Raw validation errors, present on `FST_ERR_VALIDATION`. */
  validation?: unknown;
  validationContext?: string;
}

/** The constructor of one coded error; `new ErrorCodes.X(...args)` fills the `%s` slots. */
export interface CodedErrorConstructor {
  new (...args: unknown[]): EnclaveError;
  (...args: unknown[]): EnclaveError;
  readonly prototype: EnclaveError;
  readonly code: string;
  readonly statusCode: number;
}

function createCodedError(
  code: string,
  template: string,
  statusCode = 500,
  Base: ErrorConstructor = Error,
): CodedErrorConstructor {
  // A plain function so that it works with and without `new`, like the errors plugins expect.
  function CodedError(this: unknown, ...args: unknown[]): EnclaveError {
    const error = Object.setPrototypeOf(
      new Base(args.length > 0 ? format(template, ...args) : template.replace(/: %s$/, '')),
      CodedError.prototype,
    ) as EnclaveError;
    error.code = code;
    error.statusCode = statusCode;
    Error.captureStackTrace?.(error, CodedError);
    return error;
  }
  CodedError.prototype = Object.create(Base.prototype, {
    name: { value: 'EnclaveError', writable: true, configurable: true },
    constructor: { value: CodedError, writable: true, configurable: true },
  });
  Object.defineProperties(CodedError, {
    code: { value: code },
    statusCode: { value: statusCode },
    name: { value: code },
  });
  return CodedError as unknown as CodedErrorConstructor;
}

const e = createCodedError;

/**
 * Every coded error Enclave raises, under the `FST_ERR_*` names Fastify users and plugins test
 * for. Detect an error by `error.code`; `instanceof errorCodes.X` also works.
 *
 * @example
 * if (error.code === errorCodes.FST_ERR_VALIDATION.code) reply.code(422)
 */
export const errorCodes = {
  // general
  FST_ERR_NOT_FOUND: e('FST_ERR_NOT_FOUND', 'Not Found', 404),
  FST_ERR_OPTIONS_NOT_OBJ: e('FST_ERR_OPTIONS_NOT_OBJ', 'Options must be an object, got %s; pass an object (or leave the options out)', 500, TypeError),
  FST_ERR_QSP_NOT_FN: e('FST_ERR_QSP_NOT_FN', "querystringParser must be a function (querystring) => object, got '%s'", 500, TypeError),
  FST_ERR_VALIDATION: e('FST_ERR_VALIDATION', '%s', 400),
  FST_ERR_ERROR_HANDLER_NOT_FN: e('FST_ERR_ERROR_HANDLER_NOT_FN', 'The error handler must be a function (error, request, reply) => payload; pass one to setErrorHandler() or to the route option errorHandler', 500, TypeError),
  FST_ERR_HANDLER_TIMEOUT: e('FST_ERR_HANDLER_TIMEOUT', "The handler did not answer within %s ms on route '%s'", 503),
  FST_ERR_ERROR_HANDLER_ALREADY_SET: e('FST_ERR_ERROR_HANDLER_ALREADY_SET', "An error handler is already set in this context; set 'allowErrorHandlerOverride: true' to allow replacing it", 500, TypeError),
  FST_ERR_MISSING_MIDDLEWARE: e('FST_ERR_MISSING_MIDDLEWARE', 'Middleware needs a plugin that adds use(), such as @fastify/middie or @fastify/express'),
  FST_ERR_INIT_OPTS_INVALID: e('FST_ERR_INIT_OPTS_INVALID', "Invalid factory option '%s'; fix its value, or leave the option out to use the default"),
  FST_ERR_LISTEN_OPTIONS_INVALID: e('FST_ERR_LISTEN_OPTIONS_INVALID', "Invalid listen options: '%s'; pass { port, host } with a port from 0 to 65535 (0 picks a free one)", 500, TypeError),

  // schema controller options
  FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN: e('FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN', "schemaController.bucket must be a function, got '%s'", 500, TypeError),
  FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN: e('FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN', "schemaErrorFormatter must be a synchronous function, got '%s'", 500, TypeError),
  FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ: e('FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ', "ajv.customOptions must be an object, got '%s'", 500, TypeError),
  FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR: e('FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR', "ajv.plugins must be an array, got '%s'", 500, TypeError),

  // content-type parsers and bodies
  FST_ERR_CTP_ALREADY_PRESENT: e('FST_ERR_CTP_ALREADY_PRESENT', "A content-type parser for '%s' is already registered in this context; remove it first or register in a child context"),
  FST_ERR_CTP_INVALID_TYPE: e('FST_ERR_CTP_INVALID_TYPE', "A content-type matcher must be a string such as 'application/xml', a RegExp or an array of them", 500, TypeError),
  FST_ERR_CTP_EMPTY_TYPE: e('FST_ERR_CTP_EMPTY_TYPE', 'A content-type matcher cannot be an empty string', 500, TypeError),
  FST_ERR_CTP_INVALID_HANDLER: e('FST_ERR_CTP_INVALID_HANDLER', 'A content-type parser must be a function (request, body, done) or an async function (request, body)', 500, TypeError),
  FST_ERR_CTP_INVALID_PARSE_TYPE: e('FST_ERR_CTP_INVALID_PARSE_TYPE', "parseAs must be 'string' or 'buffer', got '%s'", 500, TypeError),
  // A client receives these messages in its 4xx body: they are Fastify's word for word, so that
  // switching frameworks does not change the wire (the detail goes to the error's `cause`).
  FST_ERR_CTP_BODY_TOO_LARGE: e('FST_ERR_CTP_BODY_TOO_LARGE', 'Request body is too large', 413, RangeError),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: e('FST_ERR_CTP_INVALID_MEDIA_TYPE', 'Unsupported Media Type', 415),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: e('FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'Request body size did not match Content-Length', 400, RangeError),
  FST_ERR_CTP_EMPTY_JSON_BODY: e('FST_ERR_CTP_EMPTY_JSON_BODY', "Body cannot be empty when content-type is set to 'application/json'", 400),
  FST_ERR_CTP_INVALID_JSON_BODY: e('FST_ERR_CTP_INVALID_JSON_BODY', "Body is not valid JSON but content-type is set to 'application/json'", 400),
  FST_ERR_CTP_INSTANCE_ALREADY_STARTED: e('FST_ERR_CTP_INSTANCE_ALREADY_STARTED', 'Cannot call "%s" once the application has started; call it before ready(), listen() or the first inject(), for example inside a plugin', 400),

  // decorators
  FST_ERR_DEC_ALREADY_PRESENT: e('FST_ERR_DEC_ALREADY_PRESENT', "The decorator '%s' is already present%s; choose another name, or test with hasDecorator() before adding it"),
  FST_ERR_DEC_DEPENDENCY_INVALID_TYPE: e('FST_ERR_DEC_DEPENDENCY_INVALID_TYPE', "The dependencies of decorator '%s' must be an array of decorator names, such as ['db']", 500, TypeError),
  FST_ERR_DEC_MISSING_DEPENDENCY: e('FST_ERR_DEC_MISSING_DEPENDENCY', "The decorator '%s' depends on '%s', which must be decorated first, in the same context or an ancestor; it is not visible here%s"),
  FST_ERR_DEC_AFTER_START: e('FST_ERR_DEC_AFTER_START', "The decorator '%s' was added after the application started; decorate inside a plugin, before ready()"),
  FST_ERR_DEC_REFERENCE_TYPE: e('FST_ERR_DEC_REFERENCE_TYPE', "The decorator '%s' has a value of type '%s', which every request would share; use { getter, setter }, or null plus a hook that sets it per request"),
  FST_ERR_DEC_UNDECLARED: e('FST_ERR_DEC_UNDECLARED', "Cannot read the decorator '%s': decorate it first, in this context or an ancestor (hasDecorator() tells whether it exists). It is not visible on %s"),

  // hooks
  FST_ERR_HOOK_INVALID_TYPE: e('FST_ERR_HOOK_INVALID_TYPE', "A hook name must be a string, such as 'onRequest'", 500, TypeError),
  FST_ERR_HOOK_INVALID_HANDLER: e('FST_ERR_HOOK_INVALID_HANDLER', "The '%s' hook must be a function, got %s", 500, TypeError),
  FST_ERR_HOOK_INVALID_ASYNC_HANDLER: e('FST_ERR_HOOK_INVALID_ASYNC_HANDLER', "The '%s' hook is an async function that also takes 'done'; drop 'done' and return a promise, or drop 'async'", 500, TypeError),
  FST_ERR_HOOK_NOT_SUPPORTED: e('FST_ERR_HOOK_NOT_SUPPORTED', "'%s' is not a hook name; use one of onRequest, preParsing, preValidation, preHandler, preSerialization, onSend, onResponse, onError, onTimeout, onRequestAbort, onRoute, onRegister, onReady, onListen, preClose, onClose", 500, TypeError),
  FST_ERR_HOOK_TIMEOUT: e('FST_ERR_HOOK_TIMEOUT', "The '%s' hook%s did not finish in time; call 'done' or settle the promise it returns"),

  // logger
  FST_ERR_LOG_INVALID_DESTINATION: e('FST_ERR_LOG_INVALID_DESTINATION', 'logger.stream and logger.file cannot both be set'),
  FST_ERR_LOG_INVALID_LOGGER: e('FST_ERR_LOG_INVALID_LOGGER', "The logger instance lacks the method(s): '%s'", 500, TypeError),
  FST_ERR_LOG_INVALID_LOGGER_INSTANCE: e('FST_ERR_LOG_INVALID_LOGGER_INSTANCE', 'loggerInstance must be a logger instance', 500, TypeError),
  FST_ERR_LOG_INVALID_LOGGER_CONFIG: e('FST_ERR_LOG_INVALID_LOGGER_CONFIG', 'logger must be a boolean or an options object', 500, TypeError),
  FST_ERR_LOG_INVALID_LOG_CONTROLLER: e('FST_ERR_LOG_INVALID_LOG_CONTROLLER', "logController must be an instance of LogController, got '%s'", 500, TypeError),
  FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED: e('FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED', 'Give either logger or loggerInstance, not both', 500, TypeError),

  // reply
  FST_ERR_REP_INVALID_PAYLOAD_TYPE: e('FST_ERR_REP_INVALID_PAYLOAD_TYPE', "Cannot send a payload of type '%s' after onSend; expected a string or a Buffer", 500, TypeError),
  FST_ERR_REP_ALREADY_SENT: e('FST_ERR_REP_ALREADY_SENT', 'The reply to "%s %s" was already sent; did a handler both call reply.send() and return a value?'),
  FST_ERR_REP_RESPONSE_BODY_CONSUMED: e('FST_ERR_REP_RESPONSE_BODY_CONSUMED', 'The body of the Response sent was already read'),
  FST_ERR_REP_READABLE_STREAM_LOCKED: e('FST_ERR_REP_READABLE_STREAM_LOCKED', 'ReadableStream was locked. You should call releaseLock() method on reader before sending.'),
  FST_ERR_REP_SENT_VALUE: e('FST_ERR_REP_SENT_VALUE', 'reply.sent can only be set to true', 500, TypeError),
  FST_ERR_SEND_INSIDE_ONERR: e('FST_ERR_SEND_INSIDE_ONERR', 'An onError hook cannot send the reply; use an error handler'),
  FST_ERR_SEND_UNDEFINED_ERR: e('FST_ERR_SEND_UNDEFINED_ERR', 'Undefined error has occurred'),
  FST_ERR_BAD_STATUS_CODE: e('FST_ERR_BAD_STATUS_CODE', 'Invalid status code (use an integer from 100 to 599): %s'),
  FST_ERR_BAD_TRAILER_NAME: e('FST_ERR_BAD_TRAILER_NAME', 'Called reply.trailer with an invalid header name: %s'),
  FST_ERR_BAD_TRAILER_VALUE: e('FST_ERR_BAD_TRAILER_VALUE', "Called reply.trailer('%s', fn) with an invalid type: %s. Expected a function."),
  FST_ERR_FAILED_ERROR_SERIALIZATION: e('FST_ERR_FAILED_ERROR_SERIALIZATION', 'Serializing an error failed: %s. The original error: %s'),
  FST_ERR_MISSING_SERIALIZATION_FN: e('FST_ERR_MISSING_SERIALIZATION_FN', 'No serialization function for key "%s"'),
  FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN: e('FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN', 'No serialization function for key "%s:%s"'),
  FST_ERR_REQ_INVALID_VALIDATION_INVOCATION: e('FST_ERR_REQ_INVALID_VALIDATION_INVOCATION', 'No validation function for the HTTP part "%s" and no schema was given'),

  // schemas
  FST_ERR_SCH_MISSING_ID: e('FST_ERR_SCH_MISSING_ID', "A shared schema needs an $id; add one (e.g. $id: 'user') and reference the schema as { $ref: 'user#' }"),
  FST_ERR_SCH_ALREADY_PRESENT: e('FST_ERR_SCH_ALREADY_PRESENT', "A schema with $id '%s' was already added in this context; give the new schema another $id, or add it only once"),
  FST_ERR_SCH_CONTENT_MISSING_SCHEMA: e('FST_ERR_SCH_CONTENT_MISSING_SCHEMA', "The content map entry '%s' has no schema; write it as { schema: { ... } }"),
  FST_ERR_SCH_DUPLICATE: e('FST_ERR_SCH_DUPLICATE', "The schema '%s' is given twice; keep one of the two"),
  FST_ERR_SCH_VALIDATION_BUILD: e('FST_ERR_SCH_VALIDATION_BUILD', "The validation schema of route %s %s does not compile (fix the schema; a $ref must name a schema added with addSchema() in the route's context or an ancestor): %s"),
  FST_ERR_SCH_SERIALIZATION_BUILD: e('FST_ERR_SCH_SERIALIZATION_BUILD', "The response schema of route %s %s does not compile (fix the schema; a $ref must name a schema added with addSchema() in the route's context or an ancestor): %s"),
  FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX: e('FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX', 'Response schemas go under a status key, e.g. { 2xx: { type: "object" } }'),

  // router
  FST_ERR_DUPLICATED_ROUTE: e('FST_ERR_DUPLICATED_ROUTE', "The route '%s %s' is already declared; change its method or path, or tell the two apart with constraints"),
  // Both reach clients: Fastify's wording (see the CTP codes above).
  FST_ERR_BAD_URL: e('FST_ERR_BAD_URL', "'%s' is not a valid url component", 400, URIError),
  FST_ERR_MAX_PARAM_LENGTH: e('FST_ERR_MAX_PARAM_LENGTH', "'%s' is exceeding the max param length", 414, URIError),
  FST_ERR_ASYNC_CONSTRAINT: e('FST_ERR_ASYNC_CONSTRAINT', 'Unexpected error from async constraint', 500),
  FST_ERR_INVALID_URL: e('FST_ERR_INVALID_URL', "A route URL must be a string such as '/users/:id', got '%s'", 400, TypeError),
  FST_ERR_ROUTE_OPTIONS_NOT_OBJ: e('FST_ERR_ROUTE_OPTIONS_NOT_OBJ', 'The options of route "%s %s" must be an object', 500, TypeError),
  FST_ERR_ROUTE_DUPLICATED_HANDLER: e('FST_ERR_ROUTE_DUPLICATED_HANDLER', 'Route "%s %s" has a handler both in its options and as an argument; keep only one', 500),
  FST_ERR_ROUTE_HANDLER_NOT_FN: e('FST_ERR_ROUTE_HANDLER_NOT_FN', 'The handler of route "%s %s" must be a function (request, reply) => payload', 500, TypeError),
  FST_ERR_ROUTE_MISSING_HANDLER: e('FST_ERR_ROUTE_MISSING_HANDLER', 'Route "%s %s" has no handler function; pass one as the last argument or as the handler option', 500),
  FST_ERR_ROUTE_METHOD_INVALID: e('FST_ERR_ROUTE_METHOD_INVALID', 'The route method must be a string or an array of strings, got %s', 500, TypeError),
  FST_ERR_ROUTE_METHOD_NOT_SUPPORTED: e('FST_ERR_ROUTE_METHOD_NOT_SUPPORTED', '%s method is not supported. Use one of app.supportedMethods, or add it with app.addHttpMethod()', 500),
  FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED: e('FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED', 'Route "%s %s" declares a body schema, but %s requests carry no body (GET, HEAD and TRACE never do); validate the querystring instead, or use a method with a body (POST, PUT, PATCH, DELETE, OPTIONS)', 500),
  FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT: e('FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT', "bodyLimit must be an integer > 0, got '%s'", 500, TypeError),
  FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT: e('FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT', "handlerTimeout must be an integer > 0, got '%s'", 500, TypeError),
  FST_ERR_ROUTE_LOG_LEVEL_INVALID: e('FST_ERR_ROUTE_LOG_LEVEL_INVALID', "The log level of route '%s:%s' must be one of the logger's levels, got '%s'", 500, TypeError),
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: e('FST_ERR_ROUTE_MISSING_CONTENT_TYPE', "Method '%s' must provide a 'Content-Type' header.", 400),
  FST_ERR_ROUTE_MISSING_CONTENT: e('FST_ERR_ROUTE_MISSING_CONTENT', 'A %s request must carry a body', 400),
  FST_ERR_ROUTE_REWRITE_NOT_STR: e('FST_ERR_ROUTE_REWRITE_NOT_STR', 'rewriteUrl for "%s" must return a string, got "%s"', 500, TypeError),

  // server
  FST_ERR_REOPENED_CLOSE_SERVER: e('FST_ERR_REOPENED_CLOSE_SERVER', 'This application was closed and cannot listen again; create a new one with enclave()'),
  FST_ERR_REOPENED_SERVER: e('FST_ERR_REOPENED_SERVER', 'This application is already listening; call listen() once (addresses() tells where)'),
  FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE: e('FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE', "forceCloseConnections: 'idle' needs a server with closeIdleConnections(); the one serverFactory returned has none (use true or false)"),
  FST_ERR_INSTANCE_ALREADY_LISTENING: e('FST_ERR_INSTANCE_ALREADY_LISTENING', 'The application has already started (register plugins, routes, hooks and handlers before ready(), listen() or the first inject()): %s'),

  // plugins and loading
  FST_ERR_PLUGIN_VERSION_MISMATCH: e('FST_ERR_PLUGIN_VERSION_MISMATCH', "Plugin '%s' expects version '%s', but '%s' is running"),
  FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE: e('FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', "Plugin '%s' needs the %s decorator '%s', which is not visible in %s; register the plugin that adds it before this one, in the same context or an ancestor%s"),
  FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER: e('FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER', "Plugin '%s' is an async function that also takes 'done'; drop the 'done' parameter (the returned promise ends the plugin), or drop 'async' and call done()", 500, TypeError),
  FST_ERR_PLUGIN_CALLBACK_NOT_FN: e('FST_ERR_PLUGIN_CALLBACK_NOT_FN', '%s', 500, TypeError),
  FST_ERR_PLUGIN_NOT_VALID: e('FST_ERR_PLUGIN_NOT_VALID', '%s'),
  FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED: e('FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED', "Plugin '%s' depends on plugin '%s', which is not registered in this context or an ancestor; register it (under that name) before this one%s"),
  FST_ERR_ROOT_PLG_BOOTED: e('FST_ERR_ROOT_PLG_BOOTED', '%s'),
  FST_ERR_PARENT_PLUGIN_BOOTED: e('FST_ERR_PARENT_PLUGIN_BOOTED', '%s'),
  FST_ERR_PLUGIN_TIMEOUT: e('FST_ERR_PLUGIN_TIMEOUT', "Plugin '%s' did not finish within %s ms; did it forget to call 'done' or to settle its promise?"),
} as const;

/** The names of every coded error. */
export type ErrorCode = keyof typeof errorCodes;
