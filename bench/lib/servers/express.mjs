// Express 5 with its defaults (ETag and X-Powered-By on, as shipped), express.json() for the body
// and Ajv (same options as the other servers) for validation and coercion.
import { createServer } from 'node:http';
import Ajv from 'ajv';
import express from 'express';
import { validationErrorBody } from '../read-json-body.mjs';
import { ajvOptions, createUser, DEPTH, deepPrefixes, itemParamsSchema, itemQuerySchema, pickUserResponse, userBodySchema } from '../scenarios.mjs';
import { listenServer } from './listen.mjs';

function routesA(app) {
  app.get('/', (_req, res) => {
    res.json({ hello: 'world' });
  });
}

function routesB(app) {
  const validate = new Ajv(ajvOptions).compile(userBodySchema);
  app.post('/users', express.json({ limit: '1mb' }), (req, res) => {
    if (req.body === undefined)
      return res.status(415).json({ statusCode: 415, error: 'Unsupported Media Type', message: 'content type must be application/json' });
    if (!validate(req.body)) return res.status(400).json(validationErrorBody('body', validate));
    res.status(201).json(pickUserResponse(createUser(req.body)));
  });
}

function routesC(app) {
  const ajv = new Ajv(ajvOptions);
  const validateParams = ajv.compile(itemParamsSchema);
  const validateQuery = ajv.compile(itemQuerySchema);
  app.get('/items/:id', (req, res) => {
    const params = req.params;
    if (!validateParams(params)) return res.status(400).json(validationErrorBody('params', validateParams));
    // Express 5 parses `req.query` again on every read: read it once and coerce that object.
    const query = req.query;
    if (!validateQuery(query)) return res.status(400).json(validationErrorBody('querystring', validateQuery));
    res.json({ id: params.id, limit: query.limit, tags: query.tags });
  });
}

// Express has no hooks: each level is a Router mounted under the previous one, with three
// middleware functions standing for onRequest, preHandler and onSend.
function routesD(app) {
  let parent = app;
  for (let depth = 0; depth < DEPTH; depth++) {
    const router = express.Router();
    router.use(
      (req, _res, next) => {
        req.hooks = (req.hooks ?? 0) + 1;
        next();
      },
      (req, _res, next) => {
        req.hooks++;
        next();
      },
      (_req, _res, next) => next(),
    );
    parent.use(deepPrefixes[depth], router);
    parent = router;
  }
  parent.get('/deep', (req, res) => {
    res.json({ hello: 'world', hooks: req.hooks });
  });
}

const builders = { A: routesA, B: routesB, C: routesC, D: routesD };

export function start(scenario, options) {
  const app = express();
  builders[scenario](app);
  // JSON errors (a body express.json() cannot parse, for instance) rather than Express's HTML page.
  app.use((err, _req, res, _next) => {
    const status = err.status ?? err.statusCode ?? 500;
    res.status(status).json({ statusCode: status, error: status === 400 ? 'Bad Request' : 'Error', message: err.message });
  });
  return listenServer(createServer(app), options);
}
