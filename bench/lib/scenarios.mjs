// The four load scenarios: the one place that says what every server must answer. Each
// framework's server module (./servers/*.mjs) builds its routes from these schemas and payloads,
// servers.test.mjs checks every server against `expect`, and run.mjs loads `request`.

/** Body schema of scenario B. `email` is a plain pattern rather than `format`, so every
 * framework's validator does the same regex work without needing ajv-formats. */
export const userBodySchema = {
  type: 'object',
  required: ['name', 'email', 'age'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1 },
    email: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' },
    age: { type: 'integer', minimum: 0 },
  },
};

/** Response schema of scenario B: the handler also returns `secret`, which must not go out. */
export const userResponseSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    email: { type: 'string' },
    age: { type: 'integer' },
  },
};

export const itemParamsSchema = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' } },
};

export const itemQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    tags: { type: 'array', items: { type: 'string' } },
  },
};

/** Response schema of scenario C (Enclave and Fastify serialize with it; the others stringify
 * the same three fields). */
export const itemResponseSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    limit: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
  },
};

/**
 * The Ajv options the hand-written, Express, Koa and Hono servers validate with: the same
 * baseline Enclave and Fastify use (coercion with array wrapping, defaults, additional
 * properties dropped rather than rejected, first error only), so every server does the same
 * validation work.
 */
export const ajvOptions = {
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: true,
  allErrors: false,
};

/** What B's handler hands back: the stored user plus a field the response schema must drop. */
export function createUser(body) {
  return { id: 1, name: body.name, email: body.email, age: body.age, secret: 'hunter2' };
}

/** The declared fields of B's response, for servers without a response serializer. */
export function pickUserResponse(user) {
  return { id: user.id, name: user.name, email: user.email, age: user.age };
}

/** Scenario D: five nested contexts, three hooks each (onRequest, preHandler, onSend). */
export const DEPTH = 5;
export const deepPrefixes = ['/l1', '/l2', '/l3', '/l4', '/l5'];
export const deepPath = `${deepPrefixes.join('')}/deep`;
/** onRequest and preHandler hooks count themselves; onSend hooks pass the payload through. */
export const deepHookCount = DEPTH * 2;

const userBody = { name: 'Ada Lovelace', email: 'ada@example.com', age: 36 };

export const scenarios = {
  A: {
    title: 'GET / → {"hello":"world"}',
    request: { method: 'GET', path: '/' },
    expect: { status: 200, body: { hello: 'world' } },
    invalid: [],
  },
  B: {
    title: 'POST /users, validated body, 201 with a response schema dropping a secret',
    request: {
      method: 'POST',
      path: '/users',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(userBody),
    },
    expect: { status: 201, body: pickUserResponse(createUser(userBody)) },
    // Each framework words its 400 differently (Fastify/Enclave `FST_ERR_VALIDATION` bodies,
    // our own `{ statusCode, error, message }` elsewhere); the test compares the status and
    // that the body is JSON carrying a message.
    invalid: [
      {
        method: 'POST',
        path: '/users',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: '', email: 'ada@example.com', age: -1 }),
        expectStatus: 400,
      },
    ],
  },
  C: {
    title: 'GET /items/:id?limit=10&tags=a&tags=b, params + querystring coercion',
    request: { method: 'GET', path: '/items/42?limit=10&tags=a&tags=b' },
    expect: { status: 200, body: { id: 42, limit: 10, tags: ['a', 'b'] } },
    // A single `tags` must come back as an array too (coercion to array).
    extra: [{ method: 'GET', path: '/items/7?limit=5&tags=x', expect: { status: 200, body: { id: 7, limit: 5, tags: ['x'] } } }],
    invalid: [
      { method: 'GET', path: '/items/abc?limit=10&tags=a', expectStatus: 400 },
      { method: 'GET', path: '/items/42?limit=many&tags=a', expectStatus: 400 },
    ],
  },
  D: {
    title: `GET ${deepPath}, 5 nested contexts × 3 hooks`,
    request: { method: 'GET', path: deepPath },
    expect: { status: 200, body: { hello: 'world', hooks: deepHookCount } },
    invalid: [],
  },
};

export const scenarioNames = Object.keys(scenarios);

/** Every framework; `raw` is the hand-written node:http baseline. */
export const frameworkNames = ['raw', 'enclave', 'fastify', 'hono', 'koa', 'express'];
