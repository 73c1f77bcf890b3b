// Koa 3 with @koa/router, the hand-written JSON body reader (Koa ships none) and Ajv with the
// same options as the other servers.
import { createServer } from 'node:http';
import Router from '@koa/router';
import Ajv from 'ajv';
import Koa from 'koa';
import { HttpError, readJsonBody, validationErrorBody } from '../read-json-body.mjs';
import { ajvOptions, createUser, DEPTH, deepPrefixes, itemParamsSchema, itemQuerySchema, pickUserResponse, userBodySchema } from '../scenarios.mjs';
import { listenServer } from './listen.mjs';

function routesA(router) {
  router.get('/', (ctx) => {
    ctx.body = { hello: 'world' };
  });
}

function routesB(router) {
  const validate = new Ajv(ajvOptions).compile(userBodySchema);
  router.post('/users', async (ctx) => {
    const body = await readJsonBody(ctx.req);
    if (!validate(body)) {
      ctx.status = 400;
      ctx.body = validationErrorBody('body', validate);
      return;
    }
    ctx.status = 201;
    ctx.body = pickUserResponse(createUser(body));
  });
}

function routesC(router) {
  const ajv = new Ajv(ajvOptions);
  const validateParams = ajv.compile(itemParamsSchema);
  const validateQuery = ajv.compile(itemQuerySchema);
  router.get('/items/:id', (ctx) => {
    const params = ctx.params;
    if (!validateParams(params)) {
      ctx.status = 400;
      ctx.body = validationErrorBody('params', validateParams);
      return;
    }
    const query = ctx.query;
    if (!validateQuery(query)) {
      ctx.status = 400;
      ctx.body = validationErrorBody('querystring', validateQuery);
      return;
    }
    ctx.body = { id: params.id, limit: query.limit, tags: query.tags };
  });
}

// Five nested routers, each with three middleware functions: two count themselves before the
// handler (onRequest, preHandler) and one runs after it (onSend).
function routesD(root) {
  const routers = [];
  for (let depth = 0; depth < DEPTH; depth++) {
    const router = new Router();
    router.use(
      (ctx, next) => {
        ctx.state.hooks = (ctx.state.hooks ?? 0) + 1;
        return next();
      },
      (ctx, next) => {
        ctx.state.hooks++;
        return next();
      },
      async (_ctx, next) => {
        await next();
      },
    );
    routers.push(router);
  }
  routers[DEPTH - 1].get('/deep', (ctx) => {
    ctx.body = { hello: 'world', hooks: ctx.state.hooks };
  });
  for (let depth = DEPTH - 1; depth > 0; depth--) {
    routers[depth - 1].use(deepPrefixes[depth], routers[depth].routes());
  }
  root.use(deepPrefixes[0], routers[0].routes());
}

const builders = { A: routesA, B: routesB, C: routesC, D: routesD };

export function start(scenario, options) {
  const app = new Koa();
  // Koa prints every socket error; autocannon closing its pipelined connections at the end of
  // a run makes EPIPEs that say nothing about the server.
  app.silent = true;
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const status = err instanceof HttpError ? err.statusCode : (err.status ?? 500);
      ctx.status = status;
      ctx.body = { statusCode: status, error: err.error ?? 'Error', message: err.message };
    }
  });
  const router = new Router();
  builders[scenario](router);
  app.use(router.routes());
  return listenServer(createServer(app.callback()), options);
}
