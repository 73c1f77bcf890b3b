// Enclave's explanations of its coded errors, by code. An error's `message` is Fastify's text
// (applications' and plugins' tests compare it); what Enclave can say beyond it (where, what to
// do instead) becomes the error's `hint`. `{0}`, `{1}`… are the arguments the error was raised
// with: Fastify's arguments first, in Fastify's order, then the ones only the hint uses. A code
// whose message already says everything has no entry.

/** Hint templates by error code (see the file comment for `{n}`). */
export const errorHints = {
  FST_ERR_OPTIONS_NOT_OBJ: 'Got {0}; pass an object, or leave the options out',
  FST_ERR_QSP_NOT_FN: 'querystringParser takes the query string and returns an object: (querystring) => object',
  FST_ERR_LISTEN_OPTIONS_INVALID: 'listen() takes { port, host, backlog, signal }: a port from 0 to 65535 (0 picks a free one), an AbortSignal as signal',
  FST_ERR_ERROR_HANDLER_NOT_FN: 'An error handler is a function (error, request, reply) => payload, given to setErrorHandler()',
  FST_ERR_MISSING_MIDDLEWARE: 'use() comes from a middleware plugin such as @fastify/middie or @fastify/express; register one first',
  FST_ERR_INIT_OPTS_INVALID: "The factory option '{1}' got {2}; fix its value, or leave the option out to use the default",

  FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR: 'Each item of ajv.plugins is a plugin function or a [function, options] pair',

  FST_ERR_CTP_ALREADY_PRESENT:
    'A parser for this content type is already registered in this context; remove it first (removeContentTypeParser), or register the new one in a child context',
  FST_ERR_CTP_INVALID_TYPE: "A content-type matcher is a string such as 'application/xml', a RegExp, or an array of them",
  FST_ERR_CTP_INVALID_HANDLER: 'A content-type parser is a function (request, body, done) or an async function (request, body)',
  FST_ERR_CTP_INSTANCE_ALREADY_STARTED: 'The application has started; call it before ready(), listen() or the first inject(), for example inside a plugin',

  FST_ERR_DEC_ALREADY_PRESENT: "The decorator '{0}' is already present{1}; choose another name, or test with hasDecorator() before adding it",
  FST_ERR_DEC_DEPENDENCY_INVALID_TYPE: "List the names of the decorators '{0}' needs, such as ['db']",
  FST_ERR_DEC_MISSING_DEPENDENCY:
    "The decorator '{1}' depends on '{0}', which must be decorated first, in the same context or an ancestor; it is not visible here{2}",
  FST_ERR_DEC_AFTER_START: 'Decorate inside a plugin, before ready(), listen() or the first inject()',
  FST_ERR_DEC_REFERENCE_TYPE: 'Every request would share this one {2}; use { getter, setter }, or decorate with null and set the value per request in a hook',
  FST_ERR_DEC_UNDECLARED: 'Decorate it first, in this context or an ancestor (hasDecorator() tells whether it exists); it is not visible in {2}{3}',

  FST_ERR_HOOK_INVALID_TYPE: "Name the hook first, such as addHook('onRequest', fn)",
  FST_ERR_HOOK_INVALID_ASYNC_HANDLER: "The '{0}' hook is an async function that also takes 'done'; drop 'done' and return a promise, or drop 'async'",
  FST_ERR_HOOK_NOT_SUPPORTED:
    'The hooks are onRequest, preParsing, preValidation, preHandler, preSerialization, onSend, onResponse, onError, onTimeout, onRequestAbort, onRoute, onRegister, onReady, onListen, preClose and onClose',
  FST_ERR_HOOK_TIMEOUT: "The '{0}' hook{1} did not finish within {2} ms; call 'done' or settle the promise it returns",

  FST_ERR_LOG_INVALID_LOGGER_INSTANCE: 'loggerInstance takes a logger (pino or one with its methods); logger takes options',
  FST_ERR_LOG_INVALID_LOGGER_CONFIG: 'logger is true, false or an options object; pass a logger you built as loggerInstance',

  FST_ERR_REP_ALREADY_SENT:
    'The reply to "{1} {0}" was already sent: a handler (or hook) that calls reply.send() should return reply, not a value that is sent again',
  FST_ERR_SEND_INSIDE_ONERR: 'An onError hook observes the error; answer from an error handler (setErrorHandler) instead',

  FST_ERR_SCH_MISSING_ID: "A shared schema needs an $id; add one (e.g. $id: 'user') and reference the schema as { $ref: 'user#' }",
  FST_ERR_SCH_ALREADY_PRESENT:
    "A schema with $id '{0}' is already visible in this context (added here or in an ancestor); give the new schema another $id, or add it only once",
  FST_ERR_SCH_CONTENT_MISSING_SCHEMA: "Write the content map entry as '{0}': { schema: { ... } }",
  FST_ERR_SCH_DUPLICATE: "The schema for '{0}' is given twice; keep one of the two",
  FST_ERR_SCH_VALIDATION_BUILD:
    "The {3} of route {0} {1} failed to compile; fix it (a $ref must name a schema added with addSchema() in the route's context or an ancestor)",
  FST_ERR_SCH_SERIALIZATION_BUILD:
    "The {3} of route {0} {1} failed to compile; fix it (a $ref must name a schema added with addSchema() in the route's context or an ancestor)",
  FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX:
    'The response schema of {1} {2} {0}: response schemas go under a status key, such as { 200: schema }, { 2xx: schema } or { default: schema }',

  FST_ERR_DUPLICATED_ROUTE: 'Change its method or path, or tell the two routes apart with constraints',
  FST_ERR_INVALID_URL: "A route URL is a string such as '/users/:id'",
  FST_ERR_ROUTE_DUPLICATED_HANDLER: 'Give the handler either in the options or as the last argument, not both',
  FST_ERR_ROUTE_HANDLER_NOT_FN: 'The {2} of route "{0} {1}" must be a function',
  FST_ERR_ROUTE_MISSING_HANDLER: 'Pass the handler as the last argument or as the handler option',
  FST_ERR_ROUTE_METHOD_INVALID:
    "Got {0}: a route's method is a string or an array of strings, and addHttpMethod() takes an upper-case name from require('node:http').METHODS",
  FST_ERR_ROUTE_METHOD_NOT_SUPPORTED: 'Use one of app.supportedMethods, or add the method with app.addHttpMethod()',
  FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED:
    '{0} requests carry no body (GET, HEAD and TRACE never do): validate the querystring instead, or use a method with a body (POST, PUT, PATCH, DELETE, OPTIONS)',

  FST_ERR_REOPENED_CLOSE_SERVER: 'This application was closed; create a new one with enclave() to listen again',
  FST_ERR_REOPENED_SERVER: 'Call listen() once; addresses() tells where the application listens',
  FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE:
    'The server serverFactory returned has no closeIdleConnections(); set forceCloseConnections to true or false',
  FST_ERR_INSTANCE_ALREADY_LISTENING:
    'The application has started: register plugins, routes, hooks and handlers before ready(), listen() or the first inject()',

  FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE:
    "Plugin '{3}' needs the {4} decorator '{0}', which is not visible in {5}; register the plugin that adds it before this one, in the same context or an ancestor{6}",
  FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER:
    "Plugin '{0}' is an async function that also takes 'done': drop the 'done' parameter (the returned promise ends the plugin), or drop 'async' and call done()",
  FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED: "Register the plugin named '{0}' before '{1}', in the same context or an ancestor{2}",
  FST_ERR_PLUGIN_CALLBACK_NOT_FN: 'after() in {1} takes a function; got {2}',
  FST_ERR_PLUGIN_NOT_VALID: 'A plugin registered in {1} must be a function, an ES module with a default export, or a promise of one; got {2}',
  FST_ERR_ROOT_PLG_BOOTED: 'Cannot register {1} in {2} once the application is ready: register plugins before ready(), listen() or the first inject()',
  FST_ERR_PARENT_PLUGIN_BOOTED: "Cannot register {1} in {2}: the plugin '{3}' that owns that context has already loaded",
  FST_ERR_PLUGIN_TIMEOUT: "Plugin '{1}' did not finish within {2} ms; call 'done' or settle its promise (or raise pluginTimeout if it needs longer)",

  AVV_ERR_ROOT_PLG_BOOTED:
    'The application has finished loading: add hooks and register plugins before ready(), listen() or the first inject() (an onReady hook is too late)',
} as const satisfies Record<string, string>;
