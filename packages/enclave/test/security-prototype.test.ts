// SPEC §4.7, §11, docs/security.md: prototype poisoning through JSON bodies (`__proto__`,
// `constructor.prototype`) under each `onProtoPoisoning` / `onConstructorPoisoning` action, and
// prototype property names used as HTTP methods, route paths, parameter names and query keys.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import enclave, { errorCodes } from 'enclavejs';
import { portOf, rawExchange } from './security-helpers.ts';

const protoBody = '{"user":"ada","__proto__":{"isAdmin":true}}';
const nestedProtoBody = '{"user":"ada","profile":{"__proto__":{"isAdmin":true}}}';
const constructorBody = '{"user":"ada","constructor":{"prototype":{"isAdmin":true}}}';
const nestedConstructorBody = '{"list":[{"constructor":{"prototype":{"isAdmin":true}}}]}';

/** Nothing anywhere gained the property a poisoned body tried to plant. */
function assertNoPollution() {
  assert.equal(({} as any).isAdmin, undefined, 'Object.prototype was polluted');
  assert.equal((Object.prototype as any).isAdmin, undefined);
}

afterEach(assertNoPollution);

/** An app whose handler reports what a merge of the body into a fresh object would expose. */
function echoApp(options: Record<string, unknown> = {}) {
  const app = enclave(options);
  app.post('/merge', async (request: any) => {
    const merged = Object.assign({}, request.body);
    const nested = request.body?.profile === undefined ? {} : Object.assign({}, request.body.profile);
    return {
      ownProto: request.body !== null && Object.hasOwn(request.body, '__proto__'),
      ownConstructor: request.body !== null && Object.hasOwn(request.body, 'constructor'),
      mergedIsAdmin: merged.isAdmin === true || nested.isAdmin === true,
      bodyIsAdmin: request.body?.isAdmin === true,
    };
  });
  return app;
}

const post = (app: any, payload: string) => app.inject({ method: 'POST', url: '/merge', headers: { 'content-type': 'application/json' }, payload });

describe('prototype poisoning in JSON bodies', () => {
  test("default ('error'): __proto__ and constructor.prototype, at any depth, are 400", async () => {
    const app = echoApp();
    for (const payload of [protoBody, nestedProtoBody, constructorBody, nestedConstructorBody]) {
      const response = await post(app, payload);
      assert.equal(response.statusCode, 400, `${payload} → ${response.body}`);
      assert.equal(response.json().code, 'FST_ERR_CTP_INVALID_JSON_BODY');
    }
  });

  test("'remove' drops the keys; the handler sees a plain body and nothing is polluted", async () => {
    const app = echoApp({ onProtoPoisoning: 'remove', onConstructorPoisoning: 'remove' });
    const proto = await post(app, protoBody);
    assert.deepEqual(proto.json(), { ownProto: false, ownConstructor: false, mergedIsAdmin: false, bodyIsAdmin: false });
    const constructorPath = await post(app, constructorBody);
    assert.deepEqual(constructorPath.json(), { ownProto: false, ownConstructor: false, mergedIsAdmin: false, bodyIsAdmin: false });
  });

  test("'ignore' keeps __proto__ as an own data key: a merge copies it as data, no prototype changes", async () => {
    const app = echoApp({ onProtoPoisoning: 'ignore', onConstructorPoisoning: 'ignore' });
    const proto = await post(app, protoBody);
    assert.equal(proto.statusCode, 200);
    assert.equal(proto.json().ownProto, true);
    assert.equal(proto.json().bodyIsAdmin, false, 'the body object itself keeps Object.prototype');
    const constructorPath = await post(app, constructorBody);
    assert.equal(constructorPath.json().ownConstructor, true);
  });

  test('the two options are independent', async () => {
    const app = echoApp({ onProtoPoisoning: 'remove', onConstructorPoisoning: 'error' });
    assert.equal((await post(app, protoBody)).statusCode, 200);
    assert.equal((await post(app, constructorBody)).statusCode, 400);
  });

  test('an invalid action is refused when the app is created', () => {
    assert.throws(
      () => enclave({ onProtoPoisoning: 'sometimes' } as any),
      (error: any) => error.code === 'FST_ERR_INIT_OPTS_INVALID',
    );
  });

  test('a poisoned body never reaches validation or the handler, and the server keeps serving', async () => {
    const app = enclave();
    let handled = 0;
    app.post('/v', { schema: { body: { type: 'object', additionalProperties: false, properties: { user: { type: 'string' } } } } }, async () => {
      handled++;
      return 'ok';
    });
    assert.equal((await app.inject({ method: 'POST', url: '/v', headers: { 'content-type': 'application/json' }, payload: protoBody })).statusCode, 400);
    assert.equal(handled, 0);
    assert.equal((await app.inject({ method: 'POST', url: '/v', headers: { 'content-type': 'application/json' }, payload: '{"user":"ada"}' })).statusCode, 200);
  });
});

const prototypeNames = ['constructor', '__proto__', 'hasOwnProperty', 'toString', 'valueOf', 'isPrototypeOf', 'prototype'];

describe('prototype property names as methods', () => {
  test('a route with such a method is refused at registration', () => {
    const app = enclave();
    for (const method of prototypeNames) {
      assert.throws(
        () => app.route({ method, url: '/x', handler: async () => 'x' }),
        (error: any) => error instanceof errorCodes.FST_ERR_ROUTE_METHOD_NOT_SUPPORTED && error.code === 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED',
        method,
      );
    }
  });

  test('a request with such a method is a 400 from the HTTP parser, and the server keeps serving', async () => {
    const app = enclave();
    app.get('/ok', async () => 'ok');
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (const method of [...prototypeNames, 'CONSTRUCTOR', '__PROTO__']) {
        const exchange = await rawExchange(portOf(app), `${method} /ok HTTP/1.1\r\nHost: x\r\n\r\n`);
        assert.equal(exchange.status, 400, `${method}: ${exchange.text}`);
      }
      const ok = await rawExchange(portOf(app), 'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.equal(ok.status, 200);
    } finally {
      await app.close();
    }
  });
});

describe('prototype property names as route paths, parameters and query keys', () => {
  test('each route answers with its own handler; unregistered names are 404', async () => {
    const app = enclave();
    app.get('/constructor', async () => 'constructor route');
    app.get('/__proto__', async () => '__proto__ route');
    app.register(async (child) => child.get('/x', async () => 'prefixed'), { prefix: '/hasOwnProperty' });
    for (const [url, body] of [
      ['/constructor', 'constructor route'],
      ['/__proto__', '__proto__ route'],
      ['/hasOwnProperty/x', 'prefixed'],
    ]) {
      const response = await app.inject({ method: 'GET', url: url as string });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.body, body);
    }
    for (const url of ['/toString', '/valueOf', '/prototype', '/constructor/prototype', '/__proto__/__proto__', '/hasOwnProperty']) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 404, `${url}: ${response.body}`);
    }
  });

  test('parameters named or valued like prototype keys are own data', async () => {
    const app = enclave();
    app.get('/p/:__proto__/:constructor', async (request: any) => ({
      keys: Object.keys(request.params),
      proto: Object.getOwnPropertyDescriptor(request.params, '__proto__')?.value,
      ctor: request.params.constructor,
      inheritsAdmin: request.params.isAdmin === true,
    }));
    const response = await app.inject({ method: 'GET', url: '/p/isAdmin/prototype' });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { keys: ['__proto__', 'constructor'], proto: 'isAdmin', ctor: 'prototype', inheritsAdmin: false });
  });

  test('query keys like __proto__[x] and constructor[prototype][x] stay flat strings', async () => {
    const app = enclave();
    app.get('/q', async (request: any) => ({ keys: Object.keys(request.query), isAdmin: request.query.isAdmin ?? null }));
    const response = await app.inject({ method: 'GET', url: '/q?__proto__[isAdmin]=1&constructor[prototype][isAdmin]=1&__proto__=x&toString=y' });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json().keys.sort(), ['__proto__', '__proto__[isAdmin]', 'constructor[prototype][isAdmin]', 'toString'].sort());
    assert.equal(response.json().isAdmin, null);
  });
});
