// SPEC §4.9: error handlers (encapsulated, chained), the default error body and status, and the
// errorCodes export covering every code the framework raises.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createError, FastifyError } from '@fastify/error';
import enclave, { errorCodes } from 'enclavejs';
import fastify from 'fastify';

describe('the default error handler', () => {
  test('answers { statusCode, code, error, message } with the error status (4xx/5xx) else 500', async () => {
    const app = enclave();
    app.get('/plain', async () => {
      throw new Error('plain failure');
    });
    app.get('/coded', async () => {
      throw Object.assign(new Error('gone'), { statusCode: 410, code: 'E_GONE' });
    });
    app.get('/status', async () => {
      throw Object.assign(new Error('via status'), { status: 429 });
    });
    app.get('/weird', async () => {
      throw Object.assign(new Error('not an error status'), { statusCode: 302 });
    });
    app.get('/huge', async () => {
      throw Object.assign(new Error('out of range'), { statusCode: 700 });
    });
    app.get('/enclave', async () => {
      throw new errorCodes.FST_ERR_NOT_FOUND();
    });
    app.get('/string-status', async () => {
      throw Object.assign(new Error('as a string'), { statusCode: '404' });
    });
    const cases: Array<[string, number, Record<string, unknown>]> = [
      ['/plain', 500, { statusCode: 500, error: 'Internal Server Error', message: 'plain failure' }],
      ['/coded', 410, { statusCode: 410, code: 'E_GONE', error: 'Gone', message: 'gone' }],
      ['/status', 429, { statusCode: 429, error: 'Too Many Requests', message: 'via status' }],
      ['/weird', 500, { statusCode: 500, error: 'Internal Server Error', message: 'not an error status' }],
      ['/huge', 500, { statusCode: 500, error: 'Internal Server Error', message: 'out of range' }],
      ['/enclave', 404, { statusCode: 404, code: 'FST_ERR_NOT_FOUND', error: 'Not Found', message: 'Not Found' }],
      ['/string-status', 404, { statusCode: 404, error: 'Not Found', message: 'as a string' }],
    ];
    for (const [url, status, body] of cases) {
      const response = await app.inject(url);
      assert.equal(response.statusCode, status, url);
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(response.json(), body, url);
    }
  });

  test('a status set on the reply before the error is kept when the error has none and it is 4xx/5xx', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => {
      reply.code(503);
      throw new Error('down');
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 503);
    assert.equal(response.json().message, 'down');
  });

  test('headers set before the error are kept; content-length is recomputed', async () => {
    const app = enclave();
    app.get('/', async (_request, reply) => {
      reply.header('x-trace', 'kept').header('content-length', '999');
      throw new Error('x');
    });
    const response = await app.inject('/');
    assert.equal(response.headers['x-trace'], 'kept');
    assert.equal(response.headers['content-length'], String(response.rawPayload.length));
  });

  test("an error's own headers are sent with the default answer", async () => {
    const app = enclave();
    app.get('/', async () => {
      throw Object.assign(new Error('who are you'), { statusCode: 401, headers: { 'www-authenticate': 'Bearer' } });
    });
    app.get('/bad-header', async () => {
      throw Object.assign(new Error('still answered'), { statusCode: 400, headers: { 'x-bad': 'a\nb' } });
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 401);
    assert.equal(response.headers['www-authenticate'], 'Bearer');
    const bad = await app.inject('/bad-header');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.headers['x-bad'], undefined);
    assert.equal(bad.json().message, 'still answered');
  });

  test('errors are serialized by the route response schema for their status when one exists', async () => {
    const app = enclave();
    app.get(
      '/',
      {
        schema: {
          response: {
            500: { type: 'object', properties: { message: { type: 'string' }, statusCode: { type: 'integer' } } },
          },
        },
      },
      async () => {
        throw new Error('shaped');
      },
    );
    const response = await app.inject('/');
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), { message: 'shaped', statusCode: 500 });
  });

  test('instance.errorHandler is the default handler until one is set, usable from a custom one', async () => {
    const app = enclave();
    // Read before setErrorHandler: afterwards it is the context's new handler, as in Fastify.
    const fallback = app.errorHandler;
    app.setErrorHandler(function (this: any, error, request, reply) {
      reply.header('x-custom', 'yes');
      return fallback.call(this, error, request, reply);
    });
    app.get('/', async () => {
      throw Object.assign(new Error('fallback'), { statusCode: 400 });
    });
    const response = await app.inject('/');
    assert.equal(response.statusCode, 400);
    assert.equal(response.headers['x-custom'], 'yes');
    assert.equal(response.json().message, 'fallback');
  });
});

describe('setErrorHandler', () => {
  test('is encapsulated: a child handler serves its own routes only', async () => {
    const app = enclave();
    app.setErrorHandler<FastifyError>(async (error, _request, reply) => reply.code(500).send({ by: 'root', message: error.message }));
    app.register(async (child) => {
      child.setErrorHandler<FastifyError>(async (error, _request, reply) => reply.code(400).send({ by: 'child', message: error.message }));
      child.get('/child', async () => {
        throw new Error('c');
      });
    });
    app.register(async (sibling) => {
      sibling.get('/sibling', async () => {
        throw new Error('s');
      });
    });
    app.get('/root', async () => {
      throw new Error('r');
    });
    assert.deepEqual((await app.inject('/child')).json(), { by: 'child', message: 'c' });
    assert.deepEqual((await app.inject('/sibling')).json(), { by: 'root', message: 's' });
    assert.deepEqual((await app.inject('/root')).json(), { by: 'root', message: 'r' });
    assert.equal((await app.inject('/child')).statusCode, 400);
  });

  test("a child's handler that rethrows reaches the parent's, then the default", async () => {
    const app = enclave();
    const trace: string[] = [];
    app.setErrorHandler<FastifyError>(async (error) => {
      trace.push(`root:${error.message}`);
      throw new Error(`root saw ${error.message}`);
    });
    app.register(async (child) => {
      child.setErrorHandler<FastifyError>(async (error) => {
        trace.push(`child:${error.message}`);
        throw error;
      });
      child.register(async (grandchild) => {
        grandchild.setErrorHandler<FastifyError>((error, _request, _reply) => {
          trace.push(`grandchild:${error.message}`);
          throw error;
        });
        grandchild.get('/', async () => {
          throw Object.assign(new Error('deep'), { statusCode: 418 });
        });
      });
    });
    const response = await app.inject('/');
    assert.deepEqual(trace, ['grandchild:deep', 'child:deep', 'root:deep']);
    // The default handler answers the root's own error, which carries no status (Fastify: 500).
    assert.equal(response.statusCode, 500);
    assert.equal(response.json().message, 'root saw deep');
  });

  test('a handler may return the payload, and sync handlers work', async () => {
    const app = enclave();
    app.setErrorHandler<FastifyError>(async (error, _request, reply) => {
      reply.code(422);
      return { returned: error.message };
    });
    app.register(async (child) => {
      child.setErrorHandler<FastifyError>((error, _request, reply) => {
        reply.code(409).send({ sync: error.message });
      });
      child.get('/sync', async () => {
        throw new Error('s');
      });
    });
    app.get('/async', () => {
      throw new Error('a');
    });
    const asyncResponse = await app.inject('/async');
    assert.equal(asyncResponse.statusCode, 422);
    assert.deepEqual(asyncResponse.json(), { returned: 'a' });
    const syncResponse = await app.inject('/sync');
    assert.equal(syncResponse.statusCode, 409);
    assert.deepEqual(syncResponse.json(), { sync: 's' });
  });

  test('an async handler that resolves without sending still ends the request', async () => {
    const app = enclave();
    app.setErrorHandler(async () => {});
    app.get('/', async () => {
      throw Object.assign(new Error('x'), { statusCode: 409 });
    });
    const response = await app.inject('/');
    // The error's status is the default handler's to apply; this handler answered as it was.
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, '');
  });

  test('a route-level errorHandler comes first, then the context chain', async () => {
    const app = enclave();
    app.setErrorHandler<FastifyError>(async (error, _request, reply) => reply.code(500).send({ by: 'root', message: error.message }));
    app.get(
      '/',
      {
        errorHandler: async (error, _request, reply) => reply.code(400).send({ by: 'route', message: error.message }),
      },
      async () => {
        throw new Error('x');
      },
    );
    app.get(
      '/rethrow',
      {
        errorHandler: async (error) => {
          throw error;
        },
      },
      async () => {
        throw new Error('y');
      },
    );
    assert.deepEqual((await app.inject('/')).json(), { by: 'route', message: 'x' });
    assert.deepEqual((await app.inject('/rethrow')).json(), { by: 'root', message: 'y' });
  });

  test('the handler sees the request and reply, and this is its instance', async () => {
    const app = enclave();
    let seen: unknown[] = [];
    app.register(async (child) => {
      child.setErrorHandler<FastifyError>(function (this: any, error, request, reply) {
        seen = [this === child, request.url, typeof reply.send, error.message];
        reply.send({ ok: false });
      });
      child.get('/x', async () => {
        throw new Error('m');
      });
    });
    await app.inject('/x');
    assert.deepEqual(seen, [true, '/x', 'function', 'm']);
  });

  test('bad handlers are refused', () => {
    const app = enclave();
    assert.throws(() => app.setErrorHandler('nope' as any), { code: 'FST_ERR_ERROR_HANDLER_NOT_FN' });
  });

  test('validation errors reach the custom handler with their fields', async () => {
    const app = enclave();
    app.setErrorHandler<FastifyError>(async (error, _request, reply) => {
      reply.code(error.statusCode ?? 500).send({ code: error.code, context: error.validationContext, isArray: Array.isArray(error.validation) });
    });
    app.post('/', { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } }, async () => 'ok');
    const response = await app.inject({ method: 'POST', url: '/', payload: {} });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { code: 'FST_ERR_VALIDATION', context: 'body', isArray: true });
  });
});

describe('errorCodes', () => {
  function sourceFiles(dir: string, out: string[] = []): string[] {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) sourceFiles(path, out);
      else if (path.endsWith('.ts') && !path.endsWith('errors.ts')) out.push(path);
    }
    return out;
  }

  test('exports every FST_ERR_* code the source raises or names', () => {
    const srcDir = new URL('../src/', import.meta.url).pathname;
    const used = new Set<string>();
    for (const file of sourceFiles(srcDir)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/FST_ERR_[A-Z0-9_]+/g)) used.add(match[0]);
    }
    assert.ok(used.size > 30, `found only ${used.size} codes`);
    const missing = [...used].filter((code) => !(code in errorCodes));
    assert.deepEqual(missing, []);
  });

  test('each export builds an Error carrying its code and a 4xx/5xx status, with or without new', () => {
    for (const [name, Factory] of Object.entries(errorCodes)) {
      const error = new Factory('a', 'b', 'c');
      assert.ok(error instanceof Error, name);
      assert.ok(error instanceof Factory, name);
      assert.equal(error.code, name);
      assert.equal(Factory.code, name);
      assert.ok(error.statusCode >= 400 && error.statusCode <= 599, name);
      assert.equal(typeof error.message, 'string');
      const called = (Factory as any)('x');
      assert.equal(called.code, name);
    }
  });

  test("@fastify/error's instanceof recognises them: FastifyError, and a class made for the same code", () => {
    for (const [name, Factory] of Object.entries(errorCodes)) {
      assert.ok(new Factory('a') instanceof FastifyError, name);
      assert.ok(new Factory('a') instanceof createError(name, 'a message'), name);
    }
    assert.ok(!(new errorCodes.FST_ERR_NOT_FOUND() instanceof createError('FST_ERR_VALIDATION', 'x')), 'a class made for another code does not');
    assert.ok(!(new Error('plain') instanceof FastifyError));
    // An error Enclave raises, checked with the real fastify's own class for its code.
    const app = enclave();
    assert.throws(
      () => app.decorate('close', () => {}),
      (error) => error instanceof FastifyError && error instanceof fastify.errorCodes.FST_ERR_DEC_ALREADY_PRESENT,
    );
  });

  test('the codes the core raises have the expected statuses', () => {
    const expected: Record<string, number> = {
      FST_ERR_NOT_FOUND: 404,
      FST_ERR_VALIDATION: 400,
      FST_ERR_CTP_BODY_TOO_LARGE: 413,
      FST_ERR_CTP_INVALID_MEDIA_TYPE: 415,
      FST_ERR_CTP_INVALID_CONTENT_LENGTH: 400,
      FST_ERR_CTP_EMPTY_JSON_BODY: 400,
      FST_ERR_BAD_URL: 400,
      FST_ERR_MAX_PARAM_LENGTH: 414,
      FST_ERR_BAD_STATUS_CODE: 500,
    };
    for (const [code, status] of Object.entries(expected)) {
      assert.equal(errorCodes[code as keyof typeof errorCodes].statusCode, status, code);
    }
  });
});
