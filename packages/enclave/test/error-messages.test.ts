// Errors that teach (issue 10): every error Enclave throws at a developer — a bad plugin, hook,
// schema, decorator, route or option — is triggered here through the public API, and its message
// must name the thing involved and say what to do. loader-errors.test.ts and the other test files
// check codes and behaviour; this file is about the words.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import plugin from '@enclavejs/plugin';
import enclave, { errorCodes } from 'enclavejs';

interface MessageCase {
  /** The coded error expected (or `null` for an uncoded one). */
  code: string | null;
  /** What the developer did wrong. */
  title: string;
  /** Throws synchronously or rejects. */
  trigger: () => unknown;
  /** The names the message must mention (the plugin, decorator, route, hook, option…). */
  names: RegExp[];
  /** The advice the message must give. */
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
    trigger: () => app().register(42),
    names: [/"root"/, /number 42/],
    guidance: /must be a function, an ES module with a default export, or a promise of one/,
  },
  {
    code: 'FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER',
    title: 'an async plugin that also takes done',
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
    trigger: () => {
      const instance = app({ pluginTimeout: 20 });
      instance.register(function forgetful(_i: unknown, _o: unknown, _done: unknown) {});
      return instance.ready();
    },
    names: [/'forgetful'/, /20 ms/],
    guidance: /call 'done' or to settle its promise/,
  },
  {
    code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED',
    title: 'a plugin whose dependency is not registered',
    trigger: () => {
      const instance = app();
      instance.register(plugin(async () => {}, { name: 'reports', dependencies: ['database'] }));
      return instance.ready();
    },
    names: [/'reports'/, /'database'/],
    guidance: /register it \(under that name\) before this one/,
  },
  {
    code: 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE',
    title: 'a plugin whose required decorator is missing',
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
    trigger: () => app().register(async function counter() {}, 7),
    names: [/'counter'/, /number 7/],
    guidance: /pass an object/,
  },
  {
    code: 'FST_ERR_ROOT_PLG_BOOTED',
    title: 'registering a plugin after ready()',
    trigger: async () => {
      const instance = app();
      await instance.ready();
      instance.register(async function latecomer() {});
    },
    names: [/'latecomer'/, /"root"/],
    guidance: /once the application is ready/,
  },
  {
    code: 'FST_ERR_PLUGIN_CALLBACK_NOT_FN',
    title: 'after() with something that is not a function',
    trigger: () => app().after('later'),
    names: [/after\(\)/, /'later'/],
    guidance: /needs a function/,
  },
];

const hookCases: MessageCase[] = [
  {
    code: 'FST_ERR_HOOK_NOT_SUPPORTED',
    title: 'a misspelled hook name',
    trigger: () => app().addHook('onRequests', handler),
    names: [/'onRequests'/],
    guidance: /use one of onRequest, preParsing, .*onClose/,
  },
  {
    code: 'FST_ERR_HOOK_INVALID_TYPE',
    title: 'a hook name that is not a string',
    trigger: () => app().addHook(42, handler),
    names: [/hook name/],
    guidance: /such as 'onRequest'/,
  },
  {
    code: 'FST_ERR_HOOK_INVALID_HANDLER',
    title: 'a hook that is not a function',
    trigger: () => app().addHook('preHandler', 'check'),
    names: [/'preHandler'/, /String/],
    guidance: /must be a function/,
  },
  {
    code: 'FST_ERR_HOOK_INVALID_HANDLER',
    title: 'a route-level hook that is not a function',
    trigger: () => app().get('/x', { onRequest: [handler, null] }, handler),
    names: [/'onRequest'/, /Null/],
    guidance: /must be a function/,
  },
  {
    code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER',
    title: 'an async hook that also takes done',
    trigger: () => app().addHook('onRequest', async (_request: unknown, _reply: unknown, _done: unknown) => {}),
    names: [/'onRequest'/],
    guidance: /drop 'done' and return a promise, or drop 'async'/,
  },
  {
    code: 'FST_ERR_INSTANCE_ALREADY_LISTENING',
    title: 'adding a request hook after ready()',
    trigger: async () => {
      const instance = app();
      await instance.ready();
      instance.addHook('onRequest', handler);
    },
    names: [/addHook/],
    guidance: /before ready\(\), listen\(\) or the first inject\(\)/,
  },
];

const decoratorCases: MessageCase[] = [
  {
    code: 'FST_ERR_DEC_ALREADY_PRESENT',
    title: 'decorating a name twice',
    trigger: () => app().decorate('db', 1).decorate('db', 2),
    names: [/'db'/, /"root"/],
    guidance: /choose another name, or test with hasDecorator\(\)/,
  },
  {
    code: 'FST_ERR_DEC_MISSING_DEPENDENCY',
    title: 'a decorator whose dependency is missing',
    trigger: () => app().decorate('repository', {}, ['db']),
    names: [/'repository'/, /'db'/],
    guidance: /must be decorated first, in the same context or an ancestor/,
  },
  {
    code: 'FST_ERR_DEC_DEPENDENCY_INVALID_TYPE',
    title: 'decorator dependencies that are not an array',
    trigger: () => app().decorate('repository', {}, 'db'),
    names: [/'repository'/],
    guidance: /an array of decorator names, such as \['db'\]/,
  },
  {
    code: 'FST_ERR_DEC_REFERENCE_TYPE',
    title: 'a request decorator holding an object every request would share',
    trigger: () => app().decorateRequest('session', {}),
    names: [/'session'/, /'object'/],
    guidance: /use \{ getter, setter \}, or null plus a hook/,
  },
  {
    code: 'FST_ERR_DEC_AFTER_START',
    title: 'decorating after ready()',
    trigger: async () => {
      const instance = app();
      await instance.ready();
      instance.decorateReply('late', null);
    },
    names: [/'late'/],
    guidance: /decorate inside a plugin, before ready\(\)/,
  },
  {
    code: 'FST_ERR_DEC_UNDECLARED',
    title: 'reading a decorator that is not visible',
    trigger: async () => {
      const instance = app();
      instance.register(async function provider(child: any) {
        child.decorate('db', {});
      });
      await instance.ready();
      instance.getDecorator('db');
    },
    names: [/'db'/, /"root"/, /provider/],
    guidance: /decorate it first, in this context or an ancestor/,
  },
];

const schemaCases: MessageCase[] = [
  {
    code: 'FST_ERR_SCH_MISSING_ID',
    title: 'a shared schema without $id',
    trigger: () => app().addSchema({ type: 'object' }),
    names: [/shared schema/, /\$id/],
    guidance: /add one \(e\.g\. \$id: 'user'\)/,
  },
  {
    code: 'FST_ERR_SCH_ALREADY_PRESENT',
    title: 'a shared schema added twice',
    trigger: () => app().addSchema({ $id: 'user' }).addSchema({ $id: 'user' }),
    names: [/'user'/],
    guidance: /give the new schema another \$id/,
  },
  {
    code: 'FST_ERR_SCH_VALIDATION_BUILD',
    title: 'a body schema referring to a schema that does not exist',
    trigger: () => {
      const instance = app();
      instance.post('/books', { schema: { body: { $ref: 'book#' } } }, handler);
      return instance.ready();
    },
    names: [/POST \/books/, /body/, /book#/],
    guidance: /a \$ref must name a schema added with addSchema\(\) in the route's context or an ancestor/,
  },
  {
    code: 'FST_ERR_SCH_SERIALIZATION_BUILD',
    title: 'a response schema referring to a schema that does not exist',
    trigger: () => {
      const instance = app();
      instance.get('/books', { schema: { response: { 200: { $ref: 'book#' } } } }, handler);
      return instance.ready();
    },
    names: [/GET \/books/, /200/, /book#/],
    guidance: /a \$ref must name a schema added with addSchema\(\)/,
  },
  {
    code: 'FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX',
    title: "a response schema not under a status key (the cause of the route's FST_ERR_SCH_SERIALIZATION_BUILD)",
    trigger: async () => {
      const instance = app();
      instance.get('/books', { schema: { response: { type: 'object' } } }, handler);
      const error = await capture(() => instance.ready());
      assert.equal(error.code, 'FST_ERR_SCH_SERIALIZATION_BUILD');
      assert.match(error.message, /go under a status key/);
      throw error.cause;
    },
    names: [/GET \/books/, /'type'/],
    guidance: /go under a status key/,
  },
  {
    code: 'FST_ERR_SCH_CONTENT_MISSING_SCHEMA',
    title: 'a content map entry without a schema',
    trigger: () => {
      const instance = app();
      instance.post('/notes', { schema: { body: { content: { 'text/plain': {} } } } }, handler);
      return instance.ready();
    },
    names: [/'text\/plain'/],
    guidance: /write it as \{ schema: \{ \.\.\. \} \}/,
  },
  {
    code: 'FST_ERR_SCH_DUPLICATE',
    title: 'both query and querystring',
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
    trigger: () => app().setSchemaErrorFormatter('format'),
    names: [/schemaErrorFormatter/, /'string'/],
    guidance: /must be a synchronous function/,
  },
];

const routeCases: MessageCase[] = [
  {
    code: 'FST_ERR_DUPLICATED_ROUTE',
    title: 'the same route twice',
    trigger: () => app().get('/books', handler).get('/books', handler),
    names: [/'GET \/books'/],
    guidance: /change its method or path, or tell the two apart with constraints/,
  },
  {
    code: 'FST_ERR_ROUTE_MISSING_HANDLER',
    title: 'a route without a handler',
    trigger: () => app().route({ method: 'GET', url: '/books' }),
    names: [/"GET \/books"/],
    guidance: /pass one as the last argument or as the handler option/,
  },
  {
    code: 'FST_ERR_ROUTE_HANDLER_NOT_FN',
    title: 'a handler that is not a function',
    trigger: () => app().route({ method: 'PUT', url: '/books/:id', handler: 'update' }),
    names: [/"PUT \/books\/:id"/],
    guidance: /must be a function \(request, reply\)/,
  },
  {
    code: 'FST_ERR_ROUTE_DUPLICATED_HANDLER',
    title: 'a handler in the options and as an argument',
    trigger: () => app().get('/books', { handler }, handler),
    names: [/"GET \/books"/],
    guidance: /keep only one/,
  },
  {
    code: 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED',
    title: 'an unknown HTTP method',
    trigger: () => app().route({ method: 'FETCH', url: '/books', handler }),
    names: [/FETCH/],
    guidance: /Use one of app\.supportedMethods, or add it with app\.addHttpMethod\(\)/,
  },
  {
    code: 'FST_ERR_ROUTE_METHOD_INVALID',
    title: 'a method that is not a string',
    trigger: () => app().route({ method: 42, url: '/books', handler }),
    names: [/number/],
    guidance: /must be a string or an array of strings/,
  },
  {
    code: 'FST_ERR_INVALID_URL',
    title: 'a URL that is not a string',
    trigger: () => app().route({ method: 'GET', url: 42, handler }),
    names: [/'number'/],
    guidance: /must be a string such as '\/users\/:id'/,
  },
  {
    code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED',
    title: 'a body schema on a GET route',
    trigger: () => app().get('/search', { schema: { body: { type: 'object' } } }, handler),
    names: [/"GET \/search"/],
    guidance: /validate the querystring instead, or use a method with a body \(POST, PUT, PATCH, DELETE, OPTIONS\)/,
  },
  {
    code: 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT',
    title: 'a bodyLimit that is not a positive integer',
    trigger: () => app().post('/upload', { bodyLimit: 1.5 }, handler),
    names: [/bodyLimit/, /'1\.5'/],
    guidance: /must be an integer > 0/,
  },
  {
    code: 'FST_ERR_ROUTE_OPTIONS_NOT_OBJ',
    title: 'route options that are not an object',
    trigger: () => app().get('/books', 'options', handler),
    names: [/"GET \/books"/],
    guidance: /must be an object/,
  },
  {
    code: 'FST_ERR_INSTANCE_ALREADY_LISTENING',
    title: 'adding a route after ready()',
    trigger: async () => {
      const instance = app();
      await instance.ready();
      instance.get('/late', handler);
    },
    names: [/route/],
    guidance: /register plugins, routes, hooks and handlers before ready\(\)/,
  },
];

const optionCases: MessageCase[] = [
  {
    code: 'FST_ERR_OPTIONS_NOT_OBJ',
    title: 'factory options that are not an object',
    trigger: () => app('production' as never),
    names: [/string/],
    guidance: /pass an object/,
  },
  {
    code: 'FST_ERR_INIT_OPTS_INVALID',
    title: 'a factory option with a wrong value',
    trigger: () => app({ bodyLimit: -1 }),
    names: [/bodyLimit: -1/],
    guidance: /fix its value, or leave the option out/,
  },
  {
    code: 'FST_ERR_INIT_OPTS_INVALID',
    title: 'an unusable trustProxy',
    trigger: () => app({ trustProxy: {} }),
    names: [/trustProxy/],
    guidance: /fix its value, or leave the option out/,
  },
  {
    code: 'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ',
    title: 'ajv.customOptions that is not an object',
    trigger: () => app({ ajv: { customOptions: 1 } }),
    names: [/ajv\.customOptions/, /'number'/],
    guidance: /must be an object/,
  },
  {
    code: 'FST_ERR_LOG_INVALID_LOGGER_CONFIG',
    title: 'a logger option of the wrong type',
    trigger: () => app({ logger: 'debug' }),
    names: [/logger/],
    guidance: /must be a boolean or an options object/,
  },
  {
    code: 'FST_ERR_LISTEN_OPTIONS_INVALID',
    title: 'listening on a port out of range',
    trigger: () => app().listen({ port: 70000 }),
    names: [/port 70000/],
    guidance: /a port from 0 to 65535/,
  },
  {
    code: 'FST_ERR_REOPENED_CLOSE_SERVER',
    title: 'listening after close()',
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
    trigger: () => app().setErrorHandler('handle'),
    names: [/error handler/],
    guidance: /pass one to setErrorHandler\(\)/,
  },
  {
    code: 'FST_ERR_CTP_INVALID_HANDLER',
    title: 'a content-type parser that is not a function',
    trigger: () => app().addContentTypeParser('application/xml', 'parse'),
    names: [/content-type parser/],
    guidance: /\(request, body, done\) or an async function \(request, body\)/,
  },
  {
    code: 'FST_ERR_CTP_ALREADY_PRESENT',
    title: 'the same content-type parser twice in one context',
    trigger: () => app().addContentTypeParser('application/xml', handler).addContentTypeParser('application/xml', handler),
    names: [/'application\/xml'/],
    guidance: /remove it first or register in a child context/,
  },
  {
    code: 'FST_ERR_CTP_INVALID_PARSE_TYPE',
    title: 'an unknown parseAs',
    trigger: () => app().addContentTypeParser('application/xml', { parseAs: 'json' }, handler),
    names: [/parseAs/, /'json'/],
    guidance: /must be 'string' or 'buffer'/,
  },
  {
    code: 'FST_ERR_CTP_INSTANCE_ALREADY_STARTED',
    title: 'adding a content-type parser after ready()',
    trigger: async () => {
      const instance = app();
      await instance.ready();
      instance.addContentTypeParser('application/xml', handler);
    },
    names: [/"addContentTypeParser"/],
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
  describe(`developer errors name the culprit and say what to do: ${group}`, () => {
    for (const item of cases) {
      test(`${item.code ?? 'uncoded'}: ${item.title}`, async () => {
        const error = await capture(item.trigger);
        if (item.code !== null) assert.equal(error.code, item.code, error.message);
        for (const name of item.names) assert.match(error.message, name);
        assert.match(error.message, item.guidance);
        assert.doesNotMatch(error.message, /%s/, 'every slot of the template is filled');
      });
    }
  });
}

describe('the coded messages themselves', () => {
  test('every template keeps its slots filled when constructed with arguments', () => {
    for (const [name, Coded] of Object.entries(errorCodes)) {
      assert.doesNotMatch(new Coded('a', 'b', 'c', 'd', 'e').message, /%s/, name);
    }
  });

  test('a template ending in ": %s" loses that slot when constructed without arguments', () => {
    assert.equal(new errorCodes.FST_ERR_INSTANCE_ALREADY_LISTENING().message.includes('%s'), false);
    assert.equal(new errorCodes.FST_ERR_BAD_STATUS_CODE().message.includes('%s'), false);
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
