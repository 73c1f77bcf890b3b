// Errors that teach (issue 10): every error Enclave throws at a developer — a bad plugin, hook,
// schema, decorator, route or option — is triggered here through the public API. Its message is
// Fastify's text for the code, word for word (issue 32: applications' and plugins' tests compare
// it), and its explanation — naming the thing involved and saying what to do — is in `error.hint`,
// or in the message itself where Fastify's text already says it. loader-errors.test.ts and the
// other test files check codes and behaviour; this file is about the words.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import plugin from '@enclavejs/plugin';
import enclave, { errorCodes } from 'enclavejs';
import fastify from 'fastify';

interface MessageCase {
  /** The coded error expected (or `null` for an uncoded one). */
  code: string | null;
  /** What the developer did wrong. */
  title: string;
  /** Throws synchronously or rejects. */
  trigger: () => unknown;
  /** The message: Fastify's text for this code, with the arguments Fastify gives it. */
  message: string;
  /** Where the explanation is: Enclave's `hint` (the default), or Fastify's message when that says it all. */
  explainedIn?: 'hint' | 'message';
  /** The names the explanation must mention (the plugin, decorator, route, hook, option…). */
  names: RegExp[];
  /** The advice the explanation must give. */
  guidance: RegExp;
}

async function capture(trigger: () => unknown): Promise<Error & { code?: string }> {
  try {
    await trigger();
  } catch (error) {
    assert.ok(error instanceof Error, `expected an Error, got ${String(error)}`);
    return error as Error & { code?: string };
  }
  assert.fail('expected the call to fail');
}

/** A fresh application typed loosely, since these cases misuse the API on purpose. */
function app(options?: Record<string, unknown>): any {
  return enclave(options as never);
}

const handler = async () => 'ok';

const pluginCases: MessageCase[] = [
  {
    code: 'FST_ERR_PLUGIN_NOT_VALID',
    title: 'registering something that is not a plugin',
    message: "fastify-plugin: Plugin must be a function or a promise. Received: 'number'",
    trigger: () => app().register(42),
    names: [/"root"/, /number 42/],
    guidance: /must be a function, an ES module with a default export, or a promise of one/,
  },
  {
    code: 'FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER',
    title: 'an async plugin that also takes done',
    message: 'The mixedStyles plugin being registered mixes async and callback styles. Async plugin should not mix async and callback style.',
    trigger: () => {
      const instance = app();
      instance.register(async function mixedStyles(_i: unknown, _o: unknown, _done: unknown) {});
      return instance.ready();
    },
    names: [/'mixedStyles'/],
    guidance: /drop the 'done' parameter .*or drop 'async' and call done\(\)/,
  },
  {
    code: 'FST_ERR_PLUGIN_TIMEOUT',
    title: 'a plugin that never calls done',
    message: "fastify-plugin: Plugin did not start in time: 'forgetful'. You may have forgotten to call 'done' function or to resolve a Promise",
    trigger: () => {
      const instance = app({ pluginTimeout: 20 });
      instance.register(function forgetful(_i: unknown, _o: unknown, _done: unknown) {});
      return instance.ready();
    },
    names: [/'forgetful'/, /20 ms/],
    guidance: /call 'done' or settle its promise \(or raise pluginTimeout/,
  },
  {
    code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED',
    title: 'a plugin whose dependency is not registered',
    message: "The dependency 'database' of plugin 'reports' is not registered",
    trigger: () => {
      const instance = app();
      instance.register(plugin(async () => {}, { name: 'reports', dependencies: ['database'] }));
      return instance.ready();
    },
    names: [/'reports'/, /'database'/],
    guidance: /Register the plugin named 'database' before 'reports', in the same context or an ancestor/,
  },
  {
    code: 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE',
    title: 'a plugin whose required decorator is missing',
    message: "The decorator 'user' required by 'reports' is not present in Request",
    trigger: () => {
      const instance = app();
      instance.register(plugin(async () => {}, { name: 'reports', decorators: { request: ['user'] } }));
      return instance.ready();
    },
    names: [/'reports'/, /request decorator 'user'/, /"root"/],
    guidance: /register the plugin that adds it before this one/,
  },
  {
    code: 'FST_ERR_OPTIONS_NOT_OBJ',
    title: 'plugin options that are not an object',
    message: 'Options must be an object',
    trigger: () => app().register(async function counter() {}, 7),
    names: [/'counter'/, /number 7/],
    guidance: /pass an object/,
  },
  {
    code: 'FST_ERR_ROOT_PLG_BOOTED',
    title: 'registering a plugin after ready()',
    message: 'fastify-plugin: Root plugin has already booted',
    trigger: async () => {
      const instance = app();
      await instance.ready();
      instance.register(async function latecomer() {});
    },
    names: [/'latecomer'/, /"root"/],
    guidance: /once the application is ready: register plugins before ready\(\)/,
  },
  {
    code: 'FST_ERR_PLUGIN_CALLBACK_NOT_FN',
    title: 'after() with something that is not a function',
    message: "fastify-plugin: Callback for 'after' hook is not a function. Received: 'string'",
    trigger: () => app().after('later'),
    names: [/after\(\)/, /"root"/],
    guidance: /takes a function/,
  },
];

const hookCases: MessageCase[] = [
  {
    code: 'FST_ERR_HOOK_NOT_SUPPORTED',
    title: 'a misspelled hook name',
    message: 'onRequests hook not supported!',
    trigger: () => app().addHook('onRequests', handler),
    names: [/^The hooks are/],
    guidance: /onRequest, preParsing, .*onClose/,
  },
  {
    code: 'FST_ERR_HOOK_INVALID_TYPE',
    title: 'a hook name that is not a string',
    message: 'The hook name must be a string',
    trigger: () => app().addHook(42, handler),
    names: [/Name the hook/],
    guidance: /such as addHook\('onRequest', fn\)/,
  },
  {
    code: 'FST_ERR_HOOK_INVALID_HANDLER',
    title: 'a hook that is not a function',
    message: 'preHandler hook should be a function, instead got [object String]',
    trigger: () => app().addHook('preHandler', 'check'),
    explainedIn: 'message',
    names: [/preHandler/, /String/],
    guidance: /should be a function/,
  },
  {
    code: 'FST_ERR_HOOK_INVALID_HANDLER',
    title: 'a route-level hook that is not a function',
    message: 'onRequest hook should be a function, instead got [object Null]',
    trigger: () => app().get('/x', { onRequest: [handler, null] }, handler),
    explainedIn: 'message',
    names: [/onRequest/, /Null/],
    guidance: /should be a function/,
  },
  {
    code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER',
    title: 'an async hook that also takes done',
    message: "Async function has too many arguments. Async hooks should not use the 'done' argument.",
    trigger: () => app().addHook('onRequest', async (_request: unknown, _reply: unknown, _done: unknown) => {}),
    names: [/'onRequest'/],
    guidance: /drop 'done' and return a promise, or drop 'async'/,
  },
  {
    code: 'FST_ERR_INSTANCE_ALREADY_LISTENING',
    title: 'adding a request hook after ready()',
    message: 'Fastify instance is already listening. Cannot call "addHook"!',
    trigger: async () => {
      const instance = app();
      await instance.ready();
      instance.addHook('onRequest', handler);
    },
    names: [/hooks/],
    guidance: /before ready\(\), listen\(\) or the first inject\(\)/,
  },
];

const decoratorCases: MessageCase[] = [
  {
    code: 'FST_ERR_DEC_ALREADY_PRESENT',
    title: 'decorating a name twice',
    message: "The decorator 'db' has already been added!",
    trigger: () => app().decorate('db', 1).decorate('db', 2),
    names: [/'db'/, /"root"/],
    guidance: /choose another name, or test with hasDecorator\(\)/,
  },
  {
    code: 'FST_ERR_DEC_MISSING_DEPENDENCY',
    title: 'a decorator whose dependency is missing',
    message: "The decorator is missing dependency 'db'.",
    trigger: () => app().decorate('repository', {}, ['db']),
    names: [/'repository'/, /'db'/, /"root"/],
    guidance: /must be decorated first, in the same context or an ancestor/,
  },
  {
    code: 'FST_ERR_DEC_DEPENDENCY_INVALID_TYPE',
    title: 'decorator dependencies that are not an array',
    message: "The dependencies of decorator 'repository' must be of type Array.",
    trigger: () => app().decorate('repository', {}, 'db'),
    names: [/'repository'/],
    guidance: /List the names of the decorators .* such as \['db'\]/,
  },
  {
    code: 'FST_ERR_DEC_REFERENCE_TYPE',
    title: 'a request decorator holding an object every request would share',
    message: "The decorator 'session' of type 'object' is a reference type. Use the { getter, setter } interface instead.",
    trigger: () => app().decorateRequest('session', {}),
    names: [/this one object/],
    guidance: /use \{ getter, setter \}, or decorate with null and set the value per request in a hook/,
  },
  {
    code: 'FST_ERR_DEC_AFTER_START',
    title: 'decorating after ready()',
    message: "The decorator 'late' has been added after start!",
    trigger: async () => {
      const instance = app();
      await instance.ready();
      instance.decorateReply('late', null);
    },
    names: [/plugin/],
    guidance: /Decorate inside a plugin, before ready\(\)/,
  },
  {
    code: 'FST_ERR_DEC_UNDECLARED',
    title: 'reading a decorator that is not visible',
    message: "No decorator 'db' has been declared on instance.",
    trigger: async () => {
      const instance = app();
      instance.register(async function provider(child: any) {
        child.decorate('db', {});
      });
      await instance.ready();
      instance.getDecorator('db');
    },
    names: [/"root"/, /"root > provider"/, /@enclavejs\/plugin/],
    guidance: /Decorate it first, in this context or an ancestor/,
  },
];

const schemaCases: MessageCase[] = [
  {
    code: 'FST_ERR_SCH_MISSING_ID',
    title: 'a shared schema without $id',
    message: 'Missing schema $id property',
    trigger: () => app().addSchema({ type: 'object' }),
    names: [/shared schema/, /\$id/],
    guidance: /add one \(e\.g\. \$id: 'user'\)/,
  },
  {
    code: 'FST_ERR_SCH_ALREADY_PRESENT',
    title: 'a shared schema added twice',
    message: "Schema with id 'user' already declared!",
    trigger: () => app().addSchema({ $id: 'user' }).addSchema({ $id: 'user' }),
    names: [/'user'/],
    guidance: /give the new schema another \$id/,
  },
  {
    code: 'FST_ERR_SCH_VALIDATION_BUILD',
    title: 'a body schema referring to a schema that does not exist',
    message: "Failed building the validation schema for POST: /books, due to error can't resolve reference book# from id #",
    trigger: () => {
      const instance = app();
      instance.post('/books', { schema: { body: { $ref: 'book#' } } }, handler);
      return instance.ready();
    },
    names: [/POST \/books/, /body schema/],
    guidance: /a \$ref must name a schema added with addSchema\(\) in the route's context or an ancestor/,
  },
  {
    code: 'FST_ERR_SCH_SERIALIZATION_BUILD',
    title: 'a response schema referring to a schema that does not exist',
    message: 'Failed building the serialization schema for GET: /books, due to error Cannot resolve ref "book#". Schema with id "book" is not found.',
    trigger: () => {
      const instance = app();
      instance.get('/books', { schema: { response: { 200: { $ref: 'book#' } } } }, handler);
      return instance.ready();
    },
    names: [/GET \/books/, /response 200 schema/],
    guidance: /a \$ref must name a schema added with addSchema\(\)/,
  },
  {
    code: 'FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX',
    title: "a response schema not under a status key (the cause of the route's FST_ERR_SCH_SERIALIZATION_BUILD)",
    message: 'response schemas should be nested under a valid status code, e.g { 2xx: { type: "object" } }',
    trigger: async () => {
      const instance = app();
      instance.get('/books', { schema: { response: { type: 'object' } } }, handler);
      const error = await capture(() => instance.ready());
      assert.equal(error.code, 'FST_ERR_SCH_SERIALIZATION_BUILD');
      assert.equal(
        error.message,
        'Failed building the serialization schema for GET: /books, due to error response schemas should be nested under a valid status code, e.g { 2xx: { type: "object" } }',
      );
      throw error.cause;
    },
    names: [/GET \/books/, /'type'/],
    guidance: /go under a status key/,
  },
  {
    code: 'FST_ERR_SCH_CONTENT_MISSING_SCHEMA',
    title: 'a content map entry without a schema',
    message: "Schema is missing for the content type 'text/plain'",
    trigger: () => {
      const instance = app();
      instance.post('/notes', { schema: { body: { content: { 'text/plain': {} } } } }, handler);
      return instance.ready();
    },
    names: [/'text\/plain'/],
    guidance: /Write the content map entry as 'text\/plain': \{ schema: \{ \.\.\. \} \}/,
  },
  {
    code: 'FST_ERR_SCH_DUPLICATE',
    title: 'both query and querystring',
    message: "Schema with 'querystring' already present!",
    trigger: () => {
      const instance = app();
      instance.get('/search', { schema: { query: {}, querystring: {} } }, handler);
      return instance.ready();
    },
    names: [/'querystring'/],
    guidance: /keep one of the two/,
  },
  {
    code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN',
    title: 'a schema error formatter that is not a function',
    message: "schemaErrorFormatter option should be a non async function. Instead got 'string'.",
    trigger: () => app().setSchemaErrorFormatter('format'),
    explainedIn: 'message',
    names: [/schemaErrorFormatter/, /'string'/],
    guidance: /should be a non async function/,
  },
];

const routeCases: MessageCase[] = [
  {
    code: 'FST_ERR_DUPLICATED_ROUTE',
    title: 'the same route twice',
    message: "Method 'GET' already declared for route '/books'",
    trigger: () => app().get('/books', handler).get('/books', handler),
    names: [/routes/],
    guidance: /Change its method or path, or tell the two routes apart with constraints/,
  },
  {
    code: 'FST_ERR_ROUTE_MISSING_HANDLER',
    title: 'a route without a handler',
    message: 'Missing handler function for "GET:/books" route.',
    trigger: () => app().route({ method: 'GET', url: '/books' }),
    names: [/handler/],
    guidance: /Pass the handler as the last argument or as the handler option/,
  },
  {
    code: 'FST_ERR_ROUTE_HANDLER_NOT_FN',
    title: 'a handler that is not a function',
    message: 'Error Handler for PUT:/books/:id route, if defined, must be a function',
    trigger: () => app().route({ method: 'PUT', url: '/books/:id', handler: 'update' }),
    names: [/The handler of route "PUT \/books\/:id"/],
    guidance: /must be a function/,
  },
  {
    code: 'FST_ERR_ROUTE_DUPLICATED_HANDLER',
    title: 'a handler in the options and as an argument',
    message: 'Duplicate handler for "GET:/books" route is not allowed!',
    trigger: () => app().get('/books', { handler }, handler),
    names: [/handler/],
    guidance: /either in the options or as the last argument, not both/,
  },
  {
    code: 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED',
    title: 'an unknown HTTP method',
    message: 'FETCH method is not supported.',
    trigger: () => app().route({ method: 'FETCH', url: '/books', handler }),
    names: [/method/],
    guidance: /Use one of app\.supportedMethods, or add the method with app\.addHttpMethod\(\)/,
  },
  {
    code: 'FST_ERR_ROUTE_METHOD_INVALID',
    title: 'a method that is not a string',
    message: 'Provided method is invalid!',
    trigger: () => app().route({ method: 42, url: '/books', handler }),
    names: [/Got a number/],
    guidance: /is a string or an array of strings/,
  },
  {
    code: 'FST_ERR_INVALID_URL',
    title: 'a URL that is not a string',
    message: "URL must be a string. Received 'number'",
    trigger: () => app().route({ method: 'GET', url: 42, handler }),
    names: [/route URL/],
    guidance: /is a string such as '\/users\/:id'/,
  },
  {
    code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED',
    title: 'a body schema on a GET route',
    message: 'Body validation schema for GET:/search route is not supported!',
    trigger: () => app().get('/search', { schema: { body: { type: 'object' } } }, handler),
    names: [/GET requests carry no body/],
    guidance: /validate the querystring instead, or use a method with a body \(POST, PUT, PATCH, DELETE, OPTIONS\)/,
  },
  {
    code: 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT',
    title: 'a bodyLimit that is not a positive integer',
    message: "'bodyLimit' option must be an integer > 0. Got '1.5'",
    trigger: () => app().post('/upload', { bodyLimit: 1.5 }, handler),
    explainedIn: 'message',
    names: [/bodyLimit/, /'1\.5'/],
    guidance: /must be an integer > 0/,
  },
  {
    code: 'FST_ERR_ROUTE_OPTIONS_NOT_OBJ',
    title: 'route options that are not an object',
    message: 'Options for "GET:/books" route must be an object',
    trigger: () => app().get('/books', 'options', handler),
    explainedIn: 'message',
    names: [/"GET:\/books"/],
    guidance: /must be an object/,
  },
  {
    code: 'FST_ERR_INSTANCE_ALREADY_LISTENING',
    title: 'adding a route after ready()',
    message: 'Fastify instance is already listening. Cannot add route!',
    trigger: async () => {
      const instance = app();
      await instance.ready();
      instance.get('/late', handler);
    },
    names: [/routes/],
    guidance: /register plugins, routes, hooks and handlers before ready\(\)/,
  },
];

const optionCases: MessageCase[] = [
  {
    code: 'FST_ERR_OPTIONS_NOT_OBJ',
    title: 'factory options that are not an object',
    message: 'Options must be an object',
    trigger: () => app('production' as never),
    names: [/Got string/],
    guidance: /pass an object/,
  },
  {
    code: 'FST_ERR_INIT_OPTS_INVALID',
    title: 'a factory option with a wrong value',
    message: 'Invalid initialization options: \'["must be integer"]\'',
    trigger: () => app({ bodyLimit: -1 }),
    names: [/'bodyLimit' got -1/],
    guidance: /fix its value, or leave the option out/,
  },
  {
    code: 'FST_ERR_INIT_OPTS_INVALID',
    title: 'an unusable trustProxy',
    message: 'Invalid initialization options: \'["must be boolean, number, string, array or function"]\'',
    trigger: () => app({ trustProxy: {} }),
    names: [/'trustProxy' got \{\}/],
    guidance: /fix its value, or leave the option out/,
  },
  {
    code: 'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ',
    title: 'ajv.customOptions that is not an object',
    message: "ajv.customOptions option should be an object, instead got 'number'",
    trigger: () => app({ ajv: { customOptions: 1 } }),
    explainedIn: 'message',
    names: [/ajv\.customOptions/, /'number'/],
    guidance: /should be an object/,
  },
  {
    code: 'FST_ERR_LOG_INVALID_LOGGER_CONFIG',
    title: 'a logger option of the wrong type',
    message: 'logger options only accepts a configuration object.',
    trigger: () => app({ logger: 'debug' }),
    names: [/loggerInstance/],
    guidance: /logger is true, false or an options object/,
  },
  {
    code: 'FST_ERR_LISTEN_OPTIONS_INVALID',
    title: 'listening on a port out of range',
    message: "Invalid listen options: 'port 70000'",
    trigger: () => app().listen({ port: 70000 }),
    names: [/port/],
    guidance: /a port from 0 to 65535/,
  },
  {
    code: 'FST_ERR_REOPENED_CLOSE_SERVER',
    title: 'listening after close()',
    message: 'Fastify has already been closed and cannot be reopened',
    trigger: async () => {
      const instance = app();
      await instance.close();
      await instance.listen({ port: 0 });
    },
    names: [/closed/],
    guidance: /create a new one with enclave\(\)/,
  },
  {
    code: 'FST_ERR_ERROR_HANDLER_NOT_FN',
    title: 'an error handler that is not a function',
    message: 'Error Handler must be a function',
    trigger: () => app().setErrorHandler('handle'),
    names: [/error handler/],
    guidance: /\(error, request, reply\) => payload, given to setErrorHandler\(\)/,
  },
  {
    code: 'FST_ERR_CTP_INVALID_HANDLER',
    title: 'a content-type parser that is not a function',
    message: 'The content type handler should be a function',
    trigger: () => app().addContentTypeParser('application/xml', 'parse'),
    names: [/content-type parser/],
    guidance: /\(request, body, done\) or an async function \(request, body\)/,
  },
  {
    code: 'FST_ERR_CTP_ALREADY_PRESENT',
    title: 'the same content-type parser twice in one context',
    message: "Content type parser 'application/xml' already present.",
    trigger: () => app().addContentTypeParser('application/xml', handler).addContentTypeParser('application/xml', handler),
    names: [/this content type/],
    guidance: /remove it first \(removeContentTypeParser\), or register the new one in a child context/,
  },
  {
    code: 'FST_ERR_CTP_INVALID_PARSE_TYPE',
    title: 'an unknown parseAs',
    message: "The body parser can only parse your data as 'string' or 'buffer', you asked 'json' which is not supported.",
    trigger: () => app().addContentTypeParser('application/xml', { parseAs: 'json' }, handler),
    explainedIn: 'message',
    names: [/'json'/],
    guidance: /as 'string' or 'buffer'/,
  },
  {
    code: 'FST_ERR_CTP_INSTANCE_ALREADY_STARTED',
    title: 'adding a content-type parser after ready()',
    message: 'Cannot call "addContentTypeParser" when fastify instance is already started!',
    trigger: async () => {
      const instance = app();
      await instance.ready();
      instance.addContentTypeParser('application/xml', handler);
    },
    names: [/has started/],
    guidance: /call it before ready\(\), listen\(\) or the first inject\(\)/,
  },
];

const groups: Array<[string, MessageCase[]]> = [
  ['plugins', pluginCases],
  ['hooks', hookCases],
  ['decorators', decoratorCases],
  ['schemas', schemaCases],
  ['routes', routeCases],
  ['options and setters', optionCases],
];

for (const [group, cases] of groups) {
  describe(`developer errors carry Fastify's message and say what to do: ${group}`, () => {
    for (const item of cases) {
      test(`${item.code ?? 'uncoded'}: ${item.title}`, async () => {
        const error = (await capture(item.trigger)) as Error & { code?: string; hint?: unknown };
        if (item.code !== null) assert.equal(error.code, item.code, error.message);
        assert.equal(error.message, item.message);
        const explanation = item.explainedIn === 'message' ? error.message : error.hint;
        assert.equal(typeof explanation, 'string', `${item.code}: the explanation is in ${item.explainedIn ?? 'hint'}`);
        for (const name of item.names) assert.match(explanation as string, name);
        assert.match(explanation as string, item.guidance);
        assert.doesNotMatch(`${error.message} ${error.hint ?? ''}`, /%s|\{\d\}/, 'every slot of the templates is filled');
      });
    }
  });
}

describe('the coded messages themselves', () => {
  test('every template keeps its slots filled when constructed with arguments', () => {
    for (const [name, Coded] of Object.entries(errorCodes)) {
      assert.doesNotMatch(new Coded('a', 'b', 'c', 'd', 'e', 'f', 'g').message, /%s/, name);
    }
  });

  test("every code Fastify also has carries Fastify's message, status, class and name (the installed fastify package)", () => {
    const theirs = (fastify as unknown as { errorCodes: Record<string, new (...args: unknown[]) => Error & { statusCode?: number }> }).errorCodes;
    let compared = 0;
    for (const [code, Ours] of Object.entries(errorCodes)) {
      const Theirs = theirs[code];
      if (Theirs === undefined) continue;
      compared++;
      // As many arguments as Fastify's template has slots (more feed Enclave's hint), and none.
      const slots = new Theirs().message.split('%s').length - 1;
      const filled: unknown[] = ['a', 'b', 'c', 'd'].slice(0, slots);
      for (const args of [[], filled]) {
        const expected: Error & { statusCode?: number } = new Theirs(...args);
        const actual: Error & { statusCode?: number } = new Ours(...args);
        assert.equal(actual.message, expected.message, `${code} with ${args.length} arguments`);
        assert.equal(actual.statusCode, expected.statusCode, code);
        assert.equal(actual.name, expected.name, code);
        for (const Base of [TypeError, RangeError, URIError, Error])
          assert.equal(actual instanceof Base, expected instanceof Base, `${code} instanceof ${Base.name}`);
      }
      // A last { cause } argument is the cause, as with @fastify/error.
      const cause = new Error('underneath');
      assert.equal(new Ours('a', 'b', 'c', { cause }).cause, cause, code);
    }
    assert.ok(compared >= 90, `compared ${compared} codes`);
  });

  test('constructed without arguments, a message keeps its slots and has no half-filled hint, as with @fastify/error', () => {
    assert.equal(new errorCodes.FST_ERR_BAD_STATUS_CODE().message, 'Called reply with an invalid status code: %s');
    assert.equal(new errorCodes.FST_ERR_DEC_ALREADY_PRESENT('db').hint, undefined);
    assert.equal(new errorCodes.FST_ERR_DEC_ALREADY_PRESENT('db', ' in "root"').hint?.includes('"root"'), true);
  });

  test('every developer-facing code is covered above', () => {
    const covered = new Set(groups.flatMap(([, cases]) => cases.map((item) => item.code)));
    const developerFacing = [
      'FST_ERR_PLUGIN_NOT_VALID',
      'FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER',
      'FST_ERR_PLUGIN_TIMEOUT',
      'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED',
      'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE',
      'FST_ERR_PLUGIN_CALLBACK_NOT_FN',
      'FST_ERR_ROOT_PLG_BOOTED',
      'FST_ERR_OPTIONS_NOT_OBJ',
      'FST_ERR_HOOK_NOT_SUPPORTED',
      'FST_ERR_HOOK_INVALID_TYPE',
      'FST_ERR_HOOK_INVALID_HANDLER',
      'FST_ERR_HOOK_INVALID_ASYNC_HANDLER',
      'FST_ERR_DEC_ALREADY_PRESENT',
      'FST_ERR_DEC_MISSING_DEPENDENCY',
      'FST_ERR_DEC_DEPENDENCY_INVALID_TYPE',
      'FST_ERR_DEC_REFERENCE_TYPE',
      'FST_ERR_DEC_AFTER_START',
      'FST_ERR_DEC_UNDECLARED',
      'FST_ERR_SCH_MISSING_ID',
      'FST_ERR_SCH_ALREADY_PRESENT',
      'FST_ERR_SCH_VALIDATION_BUILD',
      'FST_ERR_SCH_SERIALIZATION_BUILD',
      'FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX',
      'FST_ERR_SCH_CONTENT_MISSING_SCHEMA',
      'FST_ERR_SCH_DUPLICATE',
      'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN',
      'FST_ERR_DUPLICATED_ROUTE',
      'FST_ERR_ROUTE_MISSING_HANDLER',
      'FST_ERR_ROUTE_HANDLER_NOT_FN',
      'FST_ERR_ROUTE_DUPLICATED_HANDLER',
      'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED',
      'FST_ERR_ROUTE_METHOD_INVALID',
      'FST_ERR_INVALID_URL',
      'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED',
      'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT',
      'FST_ERR_ROUTE_OPTIONS_NOT_OBJ',
      'FST_ERR_INSTANCE_ALREADY_LISTENING',
      'FST_ERR_INIT_OPTS_INVALID',
      'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ',
      'FST_ERR_LOG_INVALID_LOGGER_CONFIG',
      'FST_ERR_LISTEN_OPTIONS_INVALID',
      'FST_ERR_REOPENED_CLOSE_SERVER',
      'FST_ERR_ERROR_HANDLER_NOT_FN',
      'FST_ERR_CTP_INVALID_HANDLER',
      'FST_ERR_CTP_ALREADY_PRESENT',
      'FST_ERR_CTP_INVALID_PARSE_TYPE',
      'FST_ERR_CTP_INSTANCE_ALREADY_STARTED',
    ];
    for (const code of developerFacing) {
      assert.ok(code in errorCodes, `${code} is an error code`);
      assert.ok(covered.has(code), `${code} has a message case`);
    }
  });
});
