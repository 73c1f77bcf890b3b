// Issue 18: the request `frameworkErrors` receives belongs to no route, as in Fastify: its
// routeOptions name neither a method nor a URL (a not-found route's '*' and '/*' would mislead).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import enclave from 'enclavejs';

test('frameworkErrors gets a request of no route, with an id and the raw request', async () => {
  const seen: Array<Record<string, unknown>> = [];
  const app = enclave({
    maxParamLength: 4,
    frameworkErrors: (error: any, request: any, reply: any) => {
      const { method, url, config, bodyLimit } = request.routeOptions;
      seen.push({ code: error.code, method, url, config, bodyLimit, id: typeof request.id, raw: request.raw !== undefined });
      reply.send(`${error.code}`);
    },
  });
  app.register(
    async (child) => {
      child.get('/:id', async () => 'item');
    },
    { prefix: '/items' },
  );
  assert.equal((await app.inject('/items/%zz')).body, 'FST_ERR_BAD_URL');
  assert.equal((await app.inject('/items/toolong')).body, 'FST_ERR_MAX_PARAM_LENGTH');
  const expected = { method: undefined, url: undefined, config: {}, bodyLimit: 1048576, id: 'string', raw: true };
  assert.deepEqual(seen, [
    { code: 'FST_ERR_BAD_URL', ...expected },
    { code: 'FST_ERR_MAX_PARAM_LENGTH', ...expected },
  ]);
});
