// SPEC §4.8: the default 404, setNotFoundHandler per prefix context with its own hooks, and
// reply.callNotFound().
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import enclave, { type FastifyError } from 'enclavejs';

test("a not-found request's routeOptions name no method and no URL, as in Fastify", async () => {
  // @fastify/otel reads routeOptions.url as the span's http.route: a not-found request has none.
  const app = enclave();
  const seen: unknown[] = [];
  app.addHook('onRequest', async (request) => {
    seen.push([request.routeOptions.method, request.routeOptions.url, request.is404]);
  });
  app.register(
    async (child) => {
      child.setNotFoundHandler(async (_request, reply) => reply.code(404).send('custom'));
    },
    { prefix: '/p' },
  );
  assert.equal((await app.inject({ method: 'POST', url: '/' })).statusCode, 404);
  assert.equal((await app.inject('/p/missing')).body, 'custom');
  assert.deepEqual(seen, [
    [undefined, undefined, true],
    [undefined, undefined, true],
  ]);
});

describe('default not-found answer', () => {
  test('is a 404 JSON body naming the method and url', async () => {
    const app = enclave();
    app.get('/exists', async () => 'x');
    for (const [method, url] of [
      ['GET', '/missing'],
      ['POST', '/exists'],
      ['DELETE', '/a/b?c=d'],
    ] as const) {
      const response = await app.inject({ method, url });
      assert.equal(response.statusCode, 404);
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
      // Fastify's exact body, key order included (some tests compare the text).
      assert.equal(response.body, JSON.stringify({ message: `Route ${method}:${url} not found`, error: 'Not Found', statusCode: 404 }));
    }
  });

  test('runs the root hooks, with is404 set', async () => {
    const app = enclave();
    const seen: unknown[] = [];
    app.addHook('onRequest', async (request) => {
      seen.push(['onRequest', request.is404]);
    });
    app.addHook('onSend', async (request, reply) => {
      seen.push(['onSend', request.is404, reply.statusCode]);
    });
    const response = await app.inject('/nothing');
    assert.equal(response.statusCode, 404);
    assert.deepEqual(seen, [
      ['onRequest', true],
      ['onSend', true, 404],
    ]);
  });
});

describe('the default 404 logs the miss (issue 17)', () => {
  function appLogging(disableRequestLogging?: (request: { url: string }) => boolean) {
    const lines: Array<{ level: number; msg: string }> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const app = enclave({ logger: { level: 'trace', stream }, ...(disableRequestLogging ? { disableRequestLogging } : {}) });
    return { app, lines };
  }

  test('at info level, between the incoming and completed lines', async () => {
    const { app, lines } = appLogging();
    app.get('/', async () => 'x');
    assert.equal((await app.inject('/nowhere?x=1')).statusCode, 404);
    assert.deepEqual(
      lines.map((line) => [line.level, line.msg]),
      [
        [30, 'incoming request'],
        [30, 'Route GET:/nowhere?x=1 not found'],
        [30, 'request completed'],
      ],
    );
  });

  test('not for a request whose logging disableRequestLogging turns off', async () => {
    const { app, lines } = appLogging((request) => request.url.startsWith('/quiet'));
    await app.inject('/quiet/missing');
    await app.inject('/loud/missing');
    assert.deepEqual(
      lines.filter((line) => line.msg.endsWith('not found')).map((line) => line.msg),
      ['Route GET:/loud/missing not found'],
    );
  });
});

describe('setNotFoundHandler', () => {
  test('set in a plugin without a prefix, it is the handler of the whole root level (the root set none)', async () => {
    const app = enclave();
    app.decorate('level', 'root');
    app.register(async (scope) => {
      scope.decorate('inner', 'plugin');
      scope.setNotFoundHandler(function (this: any, _request, reply) {
        reply.code(404).send(`plugin 404, ${this.level}/${this.inner}`);
      });
    });
    app.register(
      async (scope) => {
        scope.register(async (inner) => {
          inner.setNotFoundHandler((_request, reply) => reply.code(404).send('prefixed 404'));
        });
      },
      { prefix: '/prefixed' },
    );
    assert.equal((await app.inject('/anywhere')).body, 'plugin 404, root/plugin');
    assert.equal((await app.inject('/prefixed/anywhere')).body, 'prefixed 404');
  });

  test('one handler per prefix: two prefixes and the root each get their own', async () => {
    const app = enclave();
    app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({ owner: 'root' }));
    app.register(
      async (api) => {
        api.setNotFoundHandler(async (request, reply) => reply.code(404).send({ owner: 'api', url: request.url }));
        api.get('/known', async () => 'x');
      },
      { prefix: '/api' },
    );
    app.register(
      async (admin) => {
        admin.setNotFoundHandler((_request, reply) => {
          reply.code(410).send({ owner: 'admin' });
        });
      },
      { prefix: '/admin' },
    );
    app.register(
      async (plain) => {
        plain.get('/plain/x', async () => 'x');
      },
      { prefix: '/plain' },
    );
    const cases: Array<[string, number, Record<string, unknown>]> = [
      ['/api/unknown', 404, { owner: 'api', url: '/api/unknown' }],
      ['/api', 404, { owner: 'api', url: '/api' }],
      ['/api/known/deeper?x=1', 404, { owner: 'api', url: '/api/known/deeper?x=1' }],
      ['/admin/x/y', 410, { owner: 'admin' }],
      ['/apix', 404, { owner: 'root' }],
      ['/plain/nothing', 404, { owner: 'root' }],
      ['/elsewhere', 404, { owner: 'root' }],
    ];
    for (const [url, status, body] of cases) {
      const response = await app.inject(url);
      assert.equal(response.statusCode, status, url);
      assert.deepEqual(response.json(), body, url);
    }
  });

  test('the handler has its own preValidation and preHandler hooks, after the context hooks', async () => {
    const app = enclave();
    const trace: string[] = [];
    app.addHook('preHandler', async () => {
      trace.push('context-preHandler');
    });
    app.setNotFoundHandler(
      {
        preValidation: async () => {
          trace.push('preValidation');
        },
        preHandler: [
          async () => {
            trace.push('preHandler1');
          },
          (_request, _reply, done) => {
            trace.push('preHandler2');
            done();
          },
        ],
      },
      async (_request, reply) => {
        trace.push('handler');
        return reply.code(404).send('custom');
      },
    );
    app.get('/found', async () => {
      trace.push('route');
      return 'ok';
    });
    const response = await app.inject('/missing');
    assert.equal(response.body, 'custom');
    assert.deepEqual(trace, ['preValidation', 'context-preHandler', 'preHandler1', 'preHandler2', 'handler']);
    trace.length = 0;
    await app.inject('/found');
    assert.deepEqual(trace, ['context-preHandler', 'route']);
  });

  test('a not-found preHandler can answer early', async () => {
    const app = enclave();
    let handlerCalled = false;
    app.setNotFoundHandler(
      {
        preHandler: async (_request, reply) => {
          reply.code(401).send('denied');
        },
      },
      async () => {
        handlerCalled = true;
        return 'x';
      },
    );
    const response = await app.inject('/x');
    assert.equal(response.statusCode, 401);
    assert.equal(handlerCalled, false);
  });

  test('a falsy preValidation or preHandler option means no hook, as in Fastify (issue 20)', async () => {
    for (const none of [null, false, 0, '']) {
      const app = enclave();
      app.setNotFoundHandler({ preValidation: none, preHandler: none } as any, async (_request, reply) => reply.code(404).send('none here'));
      const response = await app.inject('/x');
      assert.deepEqual([response.statusCode, response.body], [404, 'none here'], String(none));
    }
  });

  test("the prefix context's hooks and error handler apply to its not-found handler", async () => {
    const app = enclave();
    const trace: string[] = [];
    app.register(
      async (api) => {
        api.addHook('onRequest', async () => {
          trace.push('api-onRequest');
        });
        api.setErrorHandler<FastifyError>(async (error, _request, reply) => reply.code(500).send({ apiHandled: error.message }));
        api.setNotFoundHandler(async () => {
          throw new Error('not-found failed');
        });
      },
      { prefix: '/api' },
    );
    const response = await app.inject('/api/nothing');
    assert.deepEqual(trace, ['api-onRequest']);
    assert.deepEqual(response.json(), { apiHandled: 'not-found failed' });
    trace.length = 0;
    await app.inject('/other');
    assert.deepEqual(trace, []);
  });

  test('a handler may return its payload; the status is whatever it sets (200 if none, as in Fastify)', async () => {
    const app = enclave();
    app.setNotFoundHandler(async (request) => ({ missing: request.url }));
    const response = await app.inject('/gone');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { missing: '/gone' });
  });

  test('cannot be set twice for one prefix; a bad handler is refused', async () => {
    const app = enclave();
    assert.throws(() => app.setNotFoundHandler('x' as any), { code: 'FST_ERR_ROUTE_HANDLER_NOT_FN' });
    app.setNotFoundHandler(async () => 'x');
    assert.throws(() => app.setNotFoundHandler(async () => 'y'), /already set/);

    const siblings = enclave();
    siblings.register(
      async (child) => {
        child.setNotFoundHandler(async () => 'a');
      },
      { prefix: '/p' },
    );
    siblings.register(
      async (child) => {
        child.setNotFoundHandler(async () => 'b');
      },
      { prefix: '/p' },
    );
    await assert.rejects(siblings.ready(), {
      message: "Not found handler already set for Fastify instance with prefix: '/p'",
      hint: /A not-found handler is already set for the prefix '\/p' \(one per prefix/,
    });
  });
});

describe('reply.callNotFound', () => {
  test("uses the not-found handler owning the request's path", async () => {
    const app = enclave();
    app.setNotFoundHandler(async (_request, reply) => reply.code(404).send('root not found'));
    app.register(
      async (api) => {
        api.setNotFoundHandler(async (_request, reply) => reply.code(404).send('api not found'));
        api.get('/item/:id', async (request, reply) => {
          if ((request.params as { id: string }).id === '0') return reply.callNotFound();
          return 'item';
        });
      },
      { prefix: '/api' },
    );
    app.get('/root-hidden', async (_request, reply) => reply.callNotFound());
    assert.equal((await app.inject('/api/item/1')).body, 'item');
    const missing = await app.inject('/api/item/0');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.body, 'api not found');
    assert.equal((await app.inject('/root-hidden')).body, 'root not found');
  });

  test('with the default handler gives the default body', async () => {
    const app = enclave();
    app.get('/x', async (_request, reply) => reply.callNotFound());
    const response = await app.inject('/x');
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { message: 'Route GET:/x not found', error: 'Not Found', statusCode: 404 });
  });

  test("leaves the status to the not-found handler, as in Fastify (@fastify/static's send a file with 200)", async () => {
    const app = enclave();
    app.setNotFoundHandler(async (_request, reply) => reply.send('fallback page'));
    app.get('/x', async (_request, reply) => reply.callNotFound());
    const response = await app.inject('/x');
    assert.equal(response.statusCode, 200);
    assert.equal(response.body, 'fallback page');
  });

  test('after reply.type(), the default handler keeps the type: its object body is an invalid payload (500)', async () => {
    // Fastify's default handler sends an object; with text/html already set that is
    // FST_ERR_REP_INVALID_PAYLOAD_TYPE, which reaches the error handler (@fastify/static relies on it).
    const app = enclave();
    app.setErrorHandler(async (error: any, _request, reply) => reply.code(403).type('text/plain').send(`${error.statusCode} ${error.code}`));
    app.get('/x', async (_request, reply) => reply.type('text/html').callNotFound());
    const response = await app.inject('/x');
    assert.equal(response.statusCode, 403);
    assert.equal(response.body, '500 FST_ERR_REP_INVALID_PAYLOAD_TYPE');
  });
});

/** One request over HTTP/2 with any method (HTTP/1's parser refuses unknown ones): status and body. */
async function http2Request(address: string, method: string): Promise<{ status: number; body: string }> {
  const client = http2.connect(address);
  try {
    return await new Promise((resolve, reject) => {
      const stream = client.request({ ':method': method, ':path': '/' });
      let status = 0;
      let body = '';
      stream.on('response', (headers) => {
        status = Number(headers[':status']);
      });
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        body += chunk;
      });
      stream.on('end', () => resolve({ status, body }));
      stream.on('error', reject);
      stream.end();
    });
  } finally {
    client.close();
  }
}

test('a method outside node:http METHODS is not routed to a not-found handler: FST_ERR_NOT_FOUND through the error handler', async () => {
  const app = enclave({ http2: true } as any);
  app.get('/', async () => 'root');
  const plain = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const response = await http2Request(plain, 'UNKNOWN_METHOD');
    assert.equal(response.status, 404);
    assert.deepEqual(JSON.parse(response.body), { statusCode: 404, code: 'FST_ERR_NOT_FOUND', error: 'Not Found', message: 'Not Found' });
  } finally {
    await app.close();
  }
  const custom = enclave({ http2: true } as any);
  custom.setNotFoundHandler(async () => 'custom not found');
  custom.setErrorHandler(async (error: any, _request, reply) => reply.code(error.statusCode).send({ handled: error.code }));
  const address = await custom.listen({ port: 0, host: '127.0.0.1' });
  try {
    const response = await http2Request(address, 'BREW');
    assert.equal(response.status, 404);
    assert.deepEqual(JSON.parse(response.body), { handled: 'FST_ERR_NOT_FOUND' });
  } finally {
    await custom.close();
  }
});
