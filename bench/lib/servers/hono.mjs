// Hono on @hono/node-server, with hono's bodyLimit middleware, a media-type check, and Ajv with
// the same options as the other servers for validation and coercion.
import { createAdaptorServer } from '@hono/node-server';
import Ajv from 'ajv';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { BODY_LIMIT, validationErrorBody } from '../read-json-body.mjs';
import { ajvOptions, createUser, DEPTH, deepPrefixes, itemParamsSchema, itemQuerySchema, pickUserResponse, userBodySchema } from '../scenarios.mjs';
import { listenServer } from './listen.mjs';

function routesA(app) {
  app.get('/', (c) => c.json({ hello: 'world' }));
}

function isJson(header) {
  return header !== undefined && header.split(';', 1)[0].trim().toLowerCase() === 'application/json';
}

function routesB(app) {
  const validate = new Ajv(ajvOptions).compile(userBodySchema);
  const limit = bodyLimit({
    maxSize: BODY_LIMIT,
    onError: (c) => c.json({ statusCode: 413, error: 'Payload Too Large', message: 'request body is too large' }, 413),
  });
  app.post('/users', limit, async (c) => {
    if (!isJson(c.req.header('content-type'))) {
      return c.json({ statusCode: 415, error: 'Unsupported Media Type', message: 'content type must be application/json' }, 415);
    }
    let body;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ statusCode: 400, error: 'Bad Request', message: 'body is not valid JSON' }, 400);
    }
    if (!validate(body)) return c.json(validationErrorBody('body', validate), 400);
    return c.json(pickUserResponse(createUser(body)), 201);
  });
}

function routesC(app) {
  const ajv = new Ajv(ajvOptions);
  const validateParams = ajv.compile(itemParamsSchema);
  const validateQuery = ajv.compile(itemQuerySchema);
  app.get('/items/:id', (c) => {
    const params = c.req.param();
    if (!validateParams(params)) return c.json(validationErrorBody('params', validateParams), 400);
    // queries() hands every key as an array; Ajv's array coercion unwraps `limit`.
    const query = c.req.queries();
    if (!validateQuery(query)) return c.json(validationErrorBody('querystring', validateQuery), 400);
    return c.json({ id: params.id, limit: query.limit, tags: query.tags });
  });
}

// Five nested Hono apps mounted with route(), each with three middleware functions: two count
// themselves before the handler (onRequest, preHandler) and one runs after it (onSend).
function routesD(app) {
  const levels = [];
  for (let depth = 0; depth < DEPTH; depth++) {
    const level = new Hono();
    level.use(
      (c, next) => {
        c.set('hooks', (c.get('hooks') ?? 0) + 1);
        return next();
      },
      (c, next) => {
        c.set('hooks', c.get('hooks') + 1);
        return next();
      },
      async (_c, next) => {
        await next();
      },
    );
    levels.push(level);
  }
  levels[DEPTH - 1].get('/deep', (c) => c.json({ hello: 'world', hooks: c.get('hooks') }));
  for (let depth = DEPTH - 1; depth > 0; depth--) levels[depth - 1].route(deepPrefixes[depth], levels[depth]);
  app.route(deepPrefixes[0], levels[0]);
}

const builders = { A: routesA, B: routesB, C: routesC, D: routesD };

export function start(scenario, options) {
  const app = new Hono();
  builders[scenario](app);
  app.onError((err, c) => c.json({ statusCode: 500, error: 'Internal Server Error', message: err.message }, 500));
  return listenServer(createAdaptorServer({ fetch: app.fetch }), options);
}
