import { attachHint, type CodedErrorConstructor, createCodedError, type EnclaveError } from './coded-error.js';

export { attachHint, type CodedErrorConstructor, type EnclaveError } from './coded-error.js';

const e = createCodedError;

/**
 * Every coded error Enclave raises, under the `FST_ERR_*` names and with the messages Fastify
 * users and plugins test for (Enclave's own explanation is in `error.hint`). Detect an error by
 * `error.code`; `instanceof errorCodes.X` also works.
 *
 * @example
 * if (error.code === errorCodes.FST_ERR_VALIDATION.code) reply.code(422)
 */
export const errorCodes = {
  // general
  FST_ERR_NOT_FOUND: e('FST_ERR_NOT_FOUND', 'Not Found', 404),
  FST_ERR_OPTIONS_NOT_OBJ: e('FST_ERR_OPTIONS_NOT_OBJ', 'Options must be an object', 500, TypeError),
  FST_ERR_QSP_NOT_FN: e('FST_ERR_QSP_NOT_FN', "querystringParser option should be a function, instead got '%s'", 500, TypeError),
  FST_ERR_VALIDATION: e('FST_ERR_VALIDATION', '%s', 400),
  FST_ERR_LISTEN_OPTIONS_INVALID: e('FST_ERR_LISTEN_OPTIONS_INVALID', "Invalid listen options: '%s'", 500, TypeError),
  FST_ERR_ERROR_HANDLER_NOT_FN: e('FST_ERR_ERROR_HANDLER_NOT_FN', 'Error Handler must be a function', 500, TypeError),
  FST_ERR_ERROR_HANDLER_ALREADY_SET: e(
    'FST_ERR_ERROR_HANDLER_ALREADY_SET',
    "Error Handler already set in this scope. Set 'allowErrorHandlerOverride: true' to allow overriding.",
    500,
    TypeError,
  ),
  FST_ERR_MISSING_MIDDLEWARE: e(
    'FST_ERR_MISSING_MIDDLEWARE',
    'You must register a plugin for handling middlewares, visit fastify.dev/docs/latest/Reference/Middleware/ for more info.',
  ),
  FST_ERR_HANDLER_TIMEOUT: e('FST_ERR_HANDLER_TIMEOUT', "Request timed out after %s ms on route '%s'", 503),
  FST_ERR_INIT_OPTS_INVALID: e('FST_ERR_INIT_OPTS_INVALID', "Invalid initialization options: '%s'"),

  // schema controller options
  FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN: e(
    'FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN',
    "schemaController.bucket option should be a function, instead got '%s'",
    500,
    TypeError,
  ),
  FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN: e(
    'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN',
    "schemaErrorFormatter option should be a non async function. Instead got '%s'.",
    500,
    TypeError,
  ),
  FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ: e(
    'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ',
    "ajv.customOptions option should be an object, instead got '%s'",
    500,
    TypeError,
  ),
  FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR: e(
    'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR',
    "ajv.plugins option should be an array, instead got '%s'",
    500,
    TypeError,
  ),

  // content-type parsers and bodies
  FST_ERR_CTP_ALREADY_PRESENT: e('FST_ERR_CTP_ALREADY_PRESENT', "Content type parser '%s' already present."),
  FST_ERR_CTP_INVALID_TYPE: e('FST_ERR_CTP_INVALID_TYPE', 'The content type should be a string or a RegExp', 500, TypeError),
  FST_ERR_CTP_EMPTY_TYPE: e('FST_ERR_CTP_EMPTY_TYPE', 'The content type cannot be an empty string', 500, TypeError),
  FST_ERR_CTP_INVALID_HANDLER: e('FST_ERR_CTP_INVALID_HANDLER', 'The content type handler should be a function', 500, TypeError),
  FST_ERR_CTP_INVALID_PARSE_TYPE: e(
    'FST_ERR_CTP_INVALID_PARSE_TYPE',
    "The body parser can only parse your data as 'string' or 'buffer', you asked '%s' which is not supported.",
    500,
    TypeError,
  ),
  FST_ERR_CTP_BODY_TOO_LARGE: e('FST_ERR_CTP_BODY_TOO_LARGE', 'Request body is too large', 413, RangeError),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: e('FST_ERR_CTP_INVALID_MEDIA_TYPE', 'Unsupported Media Type', 415),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: e('FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'Request body size did not match Content-Length', 400, RangeError),
  FST_ERR_CTP_EMPTY_JSON_BODY: e('FST_ERR_CTP_EMPTY_JSON_BODY', "Body cannot be empty when content-type is set to 'application/json'", 400),
  FST_ERR_CTP_INVALID_JSON_BODY: e('FST_ERR_CTP_INVALID_JSON_BODY', "Body is not valid JSON but content-type is set to 'application/json'", 400),
  FST_ERR_CTP_INSTANCE_ALREADY_STARTED: e('FST_ERR_CTP_INSTANCE_ALREADY_STARTED', 'Cannot call "%s" when fastify instance is already started!', 400),

  // decorators
  FST_ERR_DEC_ALREADY_PRESENT: e('FST_ERR_DEC_ALREADY_PRESENT', "The decorator '%s' has already been added!"),
  FST_ERR_DEC_DEPENDENCY_INVALID_TYPE: e('FST_ERR_DEC_DEPENDENCY_INVALID_TYPE', "The dependencies of decorator '%s' must be of type Array.", 500, TypeError),
  FST_ERR_DEC_MISSING_DEPENDENCY: e('FST_ERR_DEC_MISSING_DEPENDENCY', "The decorator is missing dependency '%s'."),
  FST_ERR_DEC_AFTER_START: e('FST_ERR_DEC_AFTER_START', "The decorator '%s' has been added after start!"),
  FST_ERR_DEC_REFERENCE_TYPE: e(
    'FST_ERR_DEC_REFERENCE_TYPE',
    "The decorator '%s' of type '%s' is a reference type. Use the { getter, setter } interface instead.",
  ),
  FST_ERR_DEC_UNDECLARED: e('FST_ERR_DEC_UNDECLARED', "No decorator '%s' has been declared on %s."),

  // hooks
  FST_ERR_HOOK_INVALID_TYPE: e('FST_ERR_HOOK_INVALID_TYPE', 'The hook name must be a string', 500, TypeError),
  FST_ERR_HOOK_INVALID_HANDLER: e('FST_ERR_HOOK_INVALID_HANDLER', '%s hook should be a function, instead got %s', 500, TypeError),
  FST_ERR_HOOK_INVALID_ASYNC_HANDLER: e(
    'FST_ERR_HOOK_INVALID_ASYNC_HANDLER',
    "Async function has too many arguments. Async hooks should not use the 'done' argument.",
    500,
    TypeError,
  ),
  FST_ERR_HOOK_NOT_SUPPORTED: e('FST_ERR_HOOK_NOT_SUPPORTED', '%s hook not supported!', 500, TypeError),
  FST_ERR_HOOK_TIMEOUT: e(
    'FST_ERR_HOOK_TIMEOUT',
    "A callback for '%s' hook%s timed out. You may have forgotten to call 'done' function or to resolve a Promise",
  ),

  // logger
  FST_ERR_LOG_INVALID_DESTINATION: e('FST_ERR_LOG_INVALID_DESTINATION', 'Cannot specify both logger.stream and logger.file options'),
  FST_ERR_LOG_INVALID_LOGGER: e(
    'FST_ERR_LOG_INVALID_LOGGER',
    "Invalid logger object provided. The logger instance should have these functions(s): '%s'.",
    500,
    TypeError,
  ),
  FST_ERR_LOG_INVALID_LOGGER_INSTANCE: e('FST_ERR_LOG_INVALID_LOGGER_INSTANCE', 'loggerInstance only accepts a logger instance.', 500, TypeError),
  FST_ERR_LOG_INVALID_LOGGER_CONFIG: e('FST_ERR_LOG_INVALID_LOGGER_CONFIG', 'logger options only accepts a configuration object.', 500, TypeError),
  FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED: e(
    'FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED',
    'You cannot provide both logger and loggerInstance. Please provide only one.',
    500,
    TypeError,
  ),
  FST_ERR_LOG_INVALID_LOG_CONTROLLER: e(
    'FST_ERR_LOG_INVALID_LOG_CONTROLLER',
    "logController option must be an instance of LogController, got '%s'.",
    500,
    TypeError,
  ),

  // reply
  FST_ERR_REP_INVALID_PAYLOAD_TYPE: e(
    'FST_ERR_REP_INVALID_PAYLOAD_TYPE',
    "Attempted to send payload of invalid type '%s'. Expected a string or Buffer.",
    500,
    TypeError,
  ),
  FST_ERR_REP_RESPONSE_BODY_CONSUMED: e('FST_ERR_REP_RESPONSE_BODY_CONSUMED', 'Response.body is already consumed.'),
  FST_ERR_REP_READABLE_STREAM_LOCKED: e(
    'FST_ERR_REP_READABLE_STREAM_LOCKED',
    'ReadableStream was locked. You should call releaseLock() method on reader before sending.',
  ),
  FST_ERR_REP_ALREADY_SENT: e('FST_ERR_REP_ALREADY_SENT', 'Reply was already sent, did you forget to "return reply" in "%s" (%s)?'),
  FST_ERR_REP_SENT_VALUE: e('FST_ERR_REP_SENT_VALUE', 'The only possible value for reply.sent is true.', 500, TypeError),
  FST_ERR_SEND_INSIDE_ONERR: e('FST_ERR_SEND_INSIDE_ONERR', 'You cannot use `send` inside the `onError` hook'),
  FST_ERR_SEND_UNDEFINED_ERR: e('FST_ERR_SEND_UNDEFINED_ERR', 'Undefined error has occurred'),
  FST_ERR_BAD_STATUS_CODE: e('FST_ERR_BAD_STATUS_CODE', 'Called reply with an invalid status code: %s'),
  FST_ERR_BAD_TRAILER_NAME: e('FST_ERR_BAD_TRAILER_NAME', 'Called reply.trailer with an invalid header name: %s'),
  FST_ERR_BAD_TRAILER_VALUE: e('FST_ERR_BAD_TRAILER_VALUE', "Called reply.trailer('%s', fn) with an invalid type: %s. Expected a function."),
  FST_ERR_FAILED_ERROR_SERIALIZATION: e('FST_ERR_FAILED_ERROR_SERIALIZATION', 'Failed to serialize an error. Error: %s. Original error: %s'),
  FST_ERR_MISSING_SERIALIZATION_FN: e('FST_ERR_MISSING_SERIALIZATION_FN', 'Missing serialization function. Key "%s"'),
  FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN: e('FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN', 'Missing serialization function. Key "%s:%s"'),
  FST_ERR_REQ_INVALID_VALIDATION_INVOCATION: e(
    'FST_ERR_REQ_INVALID_VALIDATION_INVOCATION',
    'Invalid validation invocation. Missing validation function for HTTP part "%s" nor schema provided.',
  ),

  // schemas
  FST_ERR_SCH_MISSING_ID: e('FST_ERR_SCH_MISSING_ID', 'Missing schema $id property'),
  FST_ERR_SCH_ALREADY_PRESENT: e('FST_ERR_SCH_ALREADY_PRESENT', "Schema with id '%s' already declared!"),
  FST_ERR_SCH_CONTENT_MISSING_SCHEMA: e('FST_ERR_SCH_CONTENT_MISSING_SCHEMA', "Schema is missing for the content type '%s'"),
  FST_ERR_SCH_DUPLICATE: e('FST_ERR_SCH_DUPLICATE', "Schema with '%s' already present!"),
  FST_ERR_SCH_VALIDATION_BUILD: e('FST_ERR_SCH_VALIDATION_BUILD', 'Failed building the validation schema for %s: %s, due to error %s'),
  FST_ERR_SCH_SERIALIZATION_BUILD: e('FST_ERR_SCH_SERIALIZATION_BUILD', 'Failed building the serialization schema for %s: %s, due to error %s'),
  FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX: e(
    'FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX',
    'response schemas should be nested under a valid status code, e.g { 2xx: { type: "object" } }',
  ),

  // router
  FST_ERR_DUPLICATED_ROUTE: e('FST_ERR_DUPLICATED_ROUTE', "Method '%s' already declared for route '%s'"),
  FST_ERR_BAD_URL: e('FST_ERR_BAD_URL', "'%s' is not a valid url component", 400, URIError),
  FST_ERR_MAX_PARAM_LENGTH: e('FST_ERR_MAX_PARAM_LENGTH', "'%s' is exceeding the max param length", 414, URIError),
  FST_ERR_ASYNC_CONSTRAINT: e('FST_ERR_ASYNC_CONSTRAINT', 'Unexpected error from async constraint', 500),
  FST_ERR_INVALID_URL: e('FST_ERR_INVALID_URL', "URL must be a string. Received '%s'", 400, TypeError),
  FST_ERR_ROUTE_OPTIONS_NOT_OBJ: e('FST_ERR_ROUTE_OPTIONS_NOT_OBJ', 'Options for "%s:%s" route must be an object', 500, TypeError),
  FST_ERR_ROUTE_DUPLICATED_HANDLER: e('FST_ERR_ROUTE_DUPLICATED_HANDLER', 'Duplicate handler for "%s:%s" route is not allowed!', 500),
  FST_ERR_ROUTE_HANDLER_NOT_FN: e('FST_ERR_ROUTE_HANDLER_NOT_FN', 'Error Handler for %s:%s route, if defined, must be a function', 500, TypeError),
  FST_ERR_ROUTE_MISSING_HANDLER: e('FST_ERR_ROUTE_MISSING_HANDLER', 'Missing handler function for "%s:%s" route.', 500),
  FST_ERR_ROUTE_METHOD_INVALID: e('FST_ERR_ROUTE_METHOD_INVALID', 'Provided method is invalid!', 500, TypeError),
  FST_ERR_ROUTE_METHOD_NOT_SUPPORTED: e('FST_ERR_ROUTE_METHOD_NOT_SUPPORTED', '%s method is not supported.', 500),
  FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED: e(
    'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED',
    'Body validation schema for %s:%s route is not supported!',
    500,
  ),
  FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT: e('FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT', "'bodyLimit' option must be an integer > 0. Got '%s'", 500, TypeError),
  FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT: e(
    'FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT',
    "'handlerTimeout' option must be an integer > 0. Got '%s'",
    500,
    TypeError,
  ),
  FST_ERR_ROUTE_LOG_LEVEL_INVALID: e(
    'FST_ERR_ROUTE_LOG_LEVEL_INVALID',
    "Log level for '%s:%s' route must be a valid logger level. Received: '%s'",
    500,
    TypeError,
  ),
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: e('FST_ERR_ROUTE_MISSING_CONTENT_TYPE', "Method '%s' must provide a 'Content-Type' header.", 400),
  FST_ERR_ROUTE_MISSING_CONTENT: e('FST_ERR_ROUTE_MISSING_CONTENT', "Method '%s' must provide a request body.", 400),
  FST_ERR_ROUTE_REWRITE_NOT_STR: e('FST_ERR_ROUTE_REWRITE_NOT_STR', 'Rewrite url for "%s" needs to be of type "string" but received "%s"', 500, TypeError),

  // server
  FST_ERR_REOPENED_CLOSE_SERVER: e('FST_ERR_REOPENED_CLOSE_SERVER', 'Fastify has already been closed and cannot be reopened'),
  FST_ERR_REOPENED_SERVER: e('FST_ERR_REOPENED_SERVER', 'Fastify is already listening'),
  FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE: e(
    'FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE',
    "Cannot set forceCloseConnections to 'idle' as your HTTP server does not support closeIdleConnections method",
  ),
  FST_ERR_INSTANCE_ALREADY_LISTENING: e('FST_ERR_INSTANCE_ALREADY_LISTENING', 'Fastify instance is already listening. %s'),

  // plugins and loading: the last five carry the loader's message, as Fastify's do avvio's
  FST_ERR_PLUGIN_VERSION_MISMATCH: e('FST_ERR_PLUGIN_VERSION_MISMATCH', "fastify-plugin: %s - expected '%s' fastify version, '%s' is installed"),
  FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE: e('FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', "The decorator '%s'%s is not present in %s"),
  FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER: e(
    'FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER',
    'The %s plugin being registered mixes async and callback styles. Async plugin should not mix async and callback style.',
    500,
    TypeError,
  ),
  FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED: e('FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED', "The dependency '%s' of plugin '%s' is not registered"),
  FST_ERR_PLUGIN_CALLBACK_NOT_FN: e('FST_ERR_PLUGIN_CALLBACK_NOT_FN', 'fastify-plugin: %s', 500, TypeError),
  FST_ERR_PLUGIN_NOT_VALID: e('FST_ERR_PLUGIN_NOT_VALID', 'fastify-plugin: %s'),
  FST_ERR_ROOT_PLG_BOOTED: e('FST_ERR_ROOT_PLG_BOOTED', 'fastify-plugin: %s'),
  FST_ERR_PARENT_PLUGIN_BOOTED: e('FST_ERR_PARENT_PLUGIN_BOOTED', 'fastify-plugin: %s'),
  FST_ERR_PLUGIN_TIMEOUT: e('FST_ERR_PLUGIN_TIMEOUT', 'fastify-plugin: %s'),
} as const;

/**
 * The plugin loader's own errors, under the codes of Fastify's loader (avvio): Fastify hands some
 * to applications as they are (an `addHook` from an onReady hook) and wraps the others in the
 * `fastify-plugin: …` codes above, with the loader's error as `cause`. Internal.
 */
export const loaderErrors = {
  AVV_ERR_CALLBACK_NOT_FN: e('AVV_ERR_CALLBACK_NOT_FN', "Callback for '%s' hook is not a function. Received: '%s'"),
  AVV_ERR_PLUGIN_NOT_VALID: e('AVV_ERR_PLUGIN_NOT_VALID', "Plugin must be a function or a promise. Received: '%s'"),
  AVV_ERR_ROOT_PLG_BOOTED: e('AVV_ERR_ROOT_PLG_BOOTED', 'Root plugin has already booted'),
  AVV_ERR_PARENT_PLG_LOADED: e('AVV_ERR_PARENT_PLG_LOADED', "Impossible to load '%s' plugin because the parent '%s' was already loaded"),
  AVV_ERR_READY_TIMEOUT: e(
    'AVV_ERR_READY_TIMEOUT',
    "Plugin did not start in time: '%s'. You may have forgotten to call 'done' function or to resolve a Promise",
  ),
  AVV_ERR_PLUGIN_EXEC_TIMEOUT: e(
    'AVV_ERR_PLUGIN_EXEC_TIMEOUT',
    "Plugin did not start in time: '%s'. You may have forgotten to call 'done' function or to resolve a Promise",
  ),
} as const;

/**
 * Wraps a loader error in the Fastify code that stands for it, as Fastify does: `fastify-plugin: `
 * and the loader's message, the loader's error as `cause`. `hintArgs` fill the wrapper's hint
 * from `{1}` on (`{0}` is the loader's message).
 */
export function fromLoaderError(Wrapper: CodedErrorConstructor, cause: EnclaveError, ...hintArgs: unknown[]): EnclaveError {
  return new Wrapper(cause.message, ...hintArgs, { cause });
}

/**
 * FST_ERR_INIT_OPTS_INVALID for one factory option, worded as Fastify's: its message carries what
 * Fastify's option schema would say (`'["must be boolean"]'`), the hint names the option and the
 * value it got.
 *
 * @example
 * throw invalidOption('caseSensitive', 'must be boolean', 'yes')
 */
export function invalidOption(name: string, expected: string, value: unknown): EnclaveError {
  let given: string;
  try {
    given = typeof value === 'function' ? 'a function' : (JSON.stringify(value) ?? typeof value);
  } catch {
    given = typeof value;
  }
  return new errorCodes.FST_ERR_INIT_OPTS_INVALID(JSON.stringify([expected]), name, given);
}

/**
 * A second not-found handler for one prefix. Fastify raises it as a plain Error without a code,
 * with this message.
 */
export function notFoundHandlerAlreadySet(prefix: string): Error {
  return attachHint(
    new Error(`Not found handler already set for Fastify instance with prefix: '${prefix}'`),
    `A not-found handler is already set for the prefix '${prefix}' (one per prefix: a second one would silently shadow the first); set it once, or in a plugin with another prefix`,
  );
}

/** The names of every coded error. */
/** `errorCodes`: one constructor per `FST_ERR_*` code. */
export type ErrorCodes = typeof errorCodes;

export type ErrorCode = keyof typeof errorCodes;
