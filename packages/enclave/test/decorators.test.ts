// Decorators (SPEC §3.7): values, accessors, dependency lists, has*Decorator, duplicates along a
// chain versus siblings, per-request values, and `this` in function decorators.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';

describe('instance decorators', () => {
  test('a value, a function with this = the instance, and { getter, setter }', async () => {
    const app = enclave();
    app.decorate('answer', 42);
    app.decorate('whoAmI', function (this: unknown) {
      return this;
    });
    let stored = 'initial';
    app.decorate('setting', {
      getter: () => stored,
      setter: (value: string) => {
        stored = value;
      },
    });
    // `as any`: decorators added in place are not on the declared type of `app`.
    const decorated = app as any;
    assert.equal(decorated.answer, 42);
    assert.equal(decorated.whoAmI(), app);
    assert.equal(decorated.setting, 'initial');
    decorated.setting = 'changed';
    assert.equal(stored, 'changed');
    assert.equal(app.getDecorator('setting'), 'changed');
    let fromChild: unknown;
    app.register(async (child: any) => {
      fromChild = child.whoAmI();
    });
    await app.ready();
    assert.notEqual(fromChild, app, 'a function decorator called on a child instance gets the child as this');
  });

  test('a dependency list is checked; satisfied dependencies are accepted', () => {
    const app = enclave();
    app.decorate('db', {});
    app.decorate('repo', {}, ['db']);
    app.decorateRequest('user', null);
    app.decorateRequest('permissions', null, ['user']);
    app.decorateReply('view', null, []);
    app.decorateReply('render', function () {}, ['view']);
    assert.equal(app.hasDecorator('repo'), true);
    assert.equal(app.hasRequestDecorator('permissions'), true);
    assert.equal(app.hasReplyDecorator('render'), true);
    assert.throws(() => app.decorateRequest('other', null, ['db']), { code: 'FST_ERR_DEC_MISSING_DEPENDENCY' }, 'kinds are separate');
    app.decorate('noDependencies', 1, null as any);
    assert.equal(app.hasDecorator('noDependencies'), true, 'null means no dependencies');
  });

  test('has*Decorator are separate per kind and false for unknown names', () => {
    const app = enclave();
    app.decorate('onInstance', 1);
    app.decorateRequest('onRequest', 1);
    app.decorateReply('onReply', 1);
    assert.deepEqual(
      ['onInstance', 'onRequest', 'onReply'].map((name) => [app.hasDecorator(name), app.hasRequestDecorator(name), app.hasReplyDecorator(name)]),
      [
        [true, false, false],
        [false, true, false],
        [false, false, true],
      ],
    );
    assert.equal(app.hasDecorator('nothing'), false);
  });

  test('duplicates are refused along a chain but allowed in siblings', async () => {
    const app = enclave();
    app.decorate('shared', 'root');
    const results: Record<string, unknown> = {};
    app.register(async function left(instance: any) {
      instance.decorate('local', 'left');
      instance.decorateRequest('perRequest', 'left');
      instance.register(async function deeper(inner: any) {
        try {
          inner.decorate('local', 'again');
        } catch (error) {
          results.deeper = (error as { code: string }).code;
        }
      });
    });
    app.register(async function right(instance: any) {
      instance.decorate('local', 'right');
      instance.decorateRequest('perRequest', 'right');
      instance.get('/right', async (request: any) => [instance.local, request.perRequest]);
    });
    app.register(async function duplicateOfRoot(instance: any) {
      try {
        instance.decorateReply('shared', null);
        results.otherKind = 'ok';
        instance.decorate('shared', 'child');
      } catch (error) {
        results.child = (error as { code: string }).code;
      }
    });
    await app.ready();
    assert.deepEqual(results, { deeper: 'FST_ERR_DEC_ALREADY_PRESENT', otherKind: 'ok', child: 'FST_ERR_DEC_ALREADY_PRESENT' });
    assert.deepEqual((await app.inject('/right')).json(), ['right', 'right']);
  });
});

describe('request and reply decorators', () => {
  test('null and primitive values are per request: a change does not leak to the next request', async () => {
    const app = enclave();
    app.decorateRequest('user', null);
    app.decorateRequest('count', 0);
    app.decorateReply('flag', 'off');
    app.addHook('onRequest', async (request: any, reply: any) => {
      const seen = [request.user, request.count, reply.flag];
      request.user = { name: request.headers['x-user'] };
      request.count += 1;
      reply.flag = 'on';
      reply.header('x-seen', JSON.stringify(seen));
    });
    app.get('/', async (request: any, reply: any) => ({ user: request.user, count: request.count, flag: reply.flag }));
    for (const name of ['ada', 'grace']) {
      const response = await app.inject({ url: '/', headers: { 'x-user': name } });
      assert.deepEqual(JSON.parse(response.headers['x-seen'] as string), [null, 0, 'off']);
      assert.deepEqual(response.json(), { user: { name }, count: 1, flag: 'on' });
    }
  });

  test('function decorators get this = the request or the reply', async () => {
    const app = enclave();
    app.decorateRequest('describe', function (this: any) {
      return `${this.method} ${this.url}`;
    });
    app.decorateReply('teapot', function (this: any) {
      return this.code(418).send({ teapot: true });
    });
    app.get('/tea', async (request: any, reply: any) => {
      reply.header('x-request', request.describe());
      return reply.teapot();
    });
    const response = await app.inject('/tea');
    assert.equal(response.statusCode, 418);
    assert.equal(response.headers['x-request'], 'GET /tea');
    assert.deepEqual(response.json(), { teapot: true });
  });

  test('{ getter, setter } decorators run with this = the request', async () => {
    const app = enclave();
    app.decorateRequest('shout', {
      getter(this: any) {
        return String(this.query.word ?? '').toUpperCase();
      },
    });
    app.get('/', async (request: any) => request.shout);
    assert.equal((await app.inject('/?word=hey')).body, 'HEY');
  });

  test('a value decorator an ancestor adds after a child context exists is visible in the child', async () => {
    const app = enclave();
    let child: any;
    await app.register(async (instance: any) => {
      child = instance;
      instance.get('/child', async (request: any, reply: any) => ({ late: request.late, lateReply: reply.lateReply }));
    });
    app.decorateRequest('late', 'request value');
    app.decorateReply('lateReply', 7);
    assert.equal(child.hasRequestDecorator('late'), true);
    assert.equal(child.hasReplyDecorator('lateReply'), true);
    assert.throws(() => child.decorateRequest('late', 'again'), { code: 'FST_ERR_DEC_ALREADY_PRESENT' });
    assert.deepEqual((await app.inject('/child')).json(), { late: 'request value', lateReply: 7 });
  });

  test('a decorator invisible to a route reads undefined there (functions, getters and values)', async () => {
    const app = enclave();
    app.register(async (instance: any) => {
      instance.decorateRequest('fn', () => 1);
      instance.decorateRequest('value', 'v');
      instance.decorateRequest('accessor', { getter: () => 'g' });
      instance.decorateReply('replyValue', 'r');
    });
    app.get('/', async (request: any, reply: any) => ({
      fn: typeof request.fn,
      value: typeof request.value,
      accessor: typeof request.accessor,
      replyValue: typeof reply.replyValue,
      inRequest: 'value' in request,
    }));
    assert.deepEqual((await app.inject('/')).json(), {
      fn: 'undefined',
      value: 'undefined',
      accessor: 'undefined',
      replyValue: 'undefined',
      inRequest: false,
    });
  });
});
