// Issue 9: the real @fastify/swagger, unmodified, on Enclave. It collects routes with an
// `onRoute` hook (method, url, prefix, schema) and the shared schemas with getSchemas(), so
// the document it builds is exactly what Fastify gives for the same application.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import swagger from '@fastify/swagger';
import enclave from 'enclavejs';
import fastify from 'fastify';

/** One application, written once, built with either factory. */
async function buildApi(factory: (options?: any) => any, swaggerOptions: Record<string, unknown>) {
  const app = factory();
  await app.register(swagger, swaggerOptions);
  app.addSchema({
    $id: 'Address',
    type: 'object',
    properties: { city: { type: 'string' }, zip: { type: 'string' } },
  });
  app.addSchema({
    $id: 'User',
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'integer' }, name: { type: 'string' }, address: { $ref: 'Address#' } },
  });
  app.get(
    '/users/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'Read one user',
        params: { type: 'object', properties: { id: { type: 'integer', description: 'user id' } } },
        querystring: { type: 'object', properties: { fields: { type: 'string' } } },
        headers: { type: 'object', properties: { 'x-request-id': { type: 'string' } } },
        response: {
          200: { $ref: 'User#' },
          404: { type: 'object', properties: { message: { type: 'string' } } },
        },
      },
    },
    async () => ({ id: 1, name: 'Ada' }),
  );
  app.post(
    '/users',
    {
      schema: {
        tags: ['users'],
        body: { $ref: 'User#' },
        security: [{ bearer: [] }],
        response: { 201: { description: 'created', $ref: 'User#' } },
      },
    },
    async () => ({ id: 1, name: 'Ada' }),
  );
  app.get('/internal', { schema: { hide: true } }, async () => 'hidden');
  await app.register(
    async (v1: any) => {
      v1.get('/health', { schema: { response: { '2xx': { type: 'object', properties: { ok: { type: 'boolean' } } } } } }, async () => ({ ok: true }));
      // A '/' route under a prefix (documented as '/v1/', as Fastify announces it) with `query`
      // for `querystring` (normalised on the route's schema object, which the plugin reads).
      v1.get('/', { schema: { query: { type: 'object', properties: { page: { type: 'integer' } } } } }, async () => []);
    },
    { prefix: '/v1' },
  );
  await app.ready();
  return app;
}

const openapiOptions = {
  openapi: {
    info: { title: 'Users API', version: '1.0.0' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  },
  refResolver: { buildLocalReference: (json: any, _baseUri: unknown, _fragment: unknown, index: number) => json.$id ?? `def-${index}` },
};

describe('@fastify/swagger', () => {
  test('builds an OpenAPI 3 document with paths, parameters, bodies and shared schemas', async () => {
    const app = await buildApi(enclave, openapiOptions);
    const document = app.swagger();

    assert.equal(document.openapi, '3.0.3');
    assert.deepEqual(document.info, { title: 'Users API', version: '1.0.0' });
    assert.deepEqual(Object.keys(document.components.schemas).sort(), ['Address', 'User']);
    assert.deepEqual(document.components.schemas.User.properties.address, { $ref: '#/components/schemas/Address' });
    assert.deepEqual(Object.keys(document.paths).sort(), ['/users', '/users/{id}', '/v1/', '/v1/health']);

    const read = document.paths['/users/{id}'].get;
    assert.deepEqual(read.tags, ['users']);
    assert.equal(read.summary, 'Read one user');
    const parameters = Object.fromEntries(read.parameters.map((p: any) => [`${p.in}:${p.name}`, p]));
    assert.deepEqual(Object.keys(parameters).sort(), ['header:x-request-id', 'path:id', 'query:fields']);
    assert.equal(parameters['path:id'].required, true);
    assert.equal(parameters['path:id'].description, 'user id');
    assert.deepEqual(parameters['path:id'].schema, { type: 'integer' });
    assert.deepEqual(read.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/User' });

    const create = document.paths['/users'].post;
    assert.deepEqual(create.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/User' });
    assert.deepEqual(create.security, [{ bearer: [] }]);
    assert.equal(create.responses['201'].description, 'created');
    assert.equal(document.paths['/internal'], undefined, 'hide: true keeps a route out');
    await app.close();
  });

  test('the document is identical to the one Fastify builds for the same application', async () => {
    const onEnclave = await buildApi(enclave, openapiOptions);
    const onFastify = await buildApi(fastify, openapiOptions);
    assert.deepEqual(
      Object.keys(onEnclave.swagger().paths).filter((path) => path.startsWith('/v1')),
      ['/v1/health', '/v1/'],
    );
    assert.equal(onEnclave.swagger().paths['/v1/'].get.parameters[0].name, 'page');
    assert.deepEqual(onEnclave.swagger(), onFastify.swagger());
    assert.equal(onEnclave.swagger({ yaml: true }), onFastify.swagger({ yaml: true }));
    await onEnclave.close();
    await onFastify.close();
  });

  test('Swagger 2.0 mode is identical to Fastify too', async () => {
    const options = {
      swagger: {
        info: { title: 'v2', version: '2.0.0' },
        consumes: ['application/json'],
        produces: ['application/json'],
        securityDefinitions: { bearer: { type: 'apiKey', name: 'authorization', in: 'header' } },
      },
    };
    const onEnclave = await buildApi(enclave, options);
    const onFastify = await buildApi(fastify, options);
    const document = onEnclave.swagger();
    assert.equal(document.swagger, '2.0');
    assert.equal(Object.keys(document.definitions).length, 2);
    assert.deepEqual(document, onFastify.swagger());
    await onEnclave.close();
    await onFastify.close();
  });

  test('exposeHeadRoutes documents the HEAD routes that GET routes answer', async () => {
    const app = await buildApi(enclave, { ...openapiOptions, exposeHeadRoutes: true });
    const document = app.swagger();
    assert.ok(document.paths['/users/{id}'].head, 'HEAD /users/{id} is documented');
    assert.deepEqual(document.paths['/users/{id}'].head.parameters, document.paths['/users/{id}'].get.parameters);
    await app.close();
  });

  test('transform and the document itself are served by the application routes', async () => {
    const app: any = enclave();
    await app.register(swagger, {
      openapi: { info: { title: 'T', version: '0' } },
      transform: ({ schema, url }: { schema: any; url: string }) => ({ schema: { ...schema, summary: `auto: ${url}` }, url }),
    });
    app.get('/ping', { schema: { response: { 200: { type: 'string' } } } }, async () => 'pong');
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

    const response = await app.inject({ url: '/openapi.json' });
    assert.equal(response.statusCode, 200);
    const document = response.json();
    assert.equal(document.paths['/ping'].get.summary, 'auto: /ping');
    assert.equal(document.paths['/openapi.json'], undefined);
    await app.close();
  });
});
