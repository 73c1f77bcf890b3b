// The baseline: node:http written by hand, doing the same work as the frameworks — B reads and
// parses the body, validates it with Ajv (same options) and writes only the declared fields;
// C parses the path parameter and the query string and coerces them itself; D runs fifteen
// hook functions in order around the handler.
import { createServer } from 'node:http';
import Ajv from 'ajv';
import { HttpError, readJsonBody, validationErrorBody } from '../read-json-body.mjs';
import { ajvOptions, createUser, DEPTH, deepPath, pickUserResponse, userBodySchema } from '../scenarios.mjs';
import { listenServer } from './listen.mjs';

const JSON_TYPE = 'application/json; charset=utf-8';

function send(res, status, payload) {
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

function notFound(res) {
  send(res, 404, '{"statusCode":404,"error":"Not Found","message":"not found"}');
}

function sendError(res, err) {
  const status = err instanceof HttpError ? err.statusCode : 500;
  const error = err instanceof HttpError ? err.error : 'Internal Server Error';
  send(res, status, JSON.stringify({ statusCode: status, error, message: err.message }));
}

function helloHandler(req, res) {
  if (req.method !== 'GET' || req.url !== '/') return notFound(res);
  send(res, 200, JSON.stringify({ hello: 'world' }));
}

function usersHandler() {
  const validate = new Ajv(ajvOptions).compile(userBodySchema);
  return (req, res) => {
    if (req.method !== 'POST' || req.url !== '/users') return notFound(res);
    readJsonBody(req).then(
      (body) => {
        if (!validate(body)) return send(res, 400, JSON.stringify(validationErrorBody('body', validate)));
        send(res, 201, JSON.stringify(pickUserResponse(createUser(body))));
      },
      (err) => sendError(res, err),
    );
  };
}

const INTEGER = /^-?\d+$/;

function badRequest(res, message) {
  send(res, 400, JSON.stringify({ statusCode: 400, error: 'Bad Request', message }));
}

function decode(text) {
  return text.includes('%') || text.includes('+') ? decodeURIComponent(text.replace(/\+/g, ' ')) : text;
}

function itemsHandler(req, res) {
  try {
    parseItem(req, res);
  } catch {
    badRequest(res, 'malformed URL encoding');
  }
}

function parseItem(req, res) {
  const url = req.url;
  if (req.method !== 'GET' || !url.startsWith('/items/')) return notFound(res);
  const question = url.indexOf('?');
  const rawId = decode(url.slice(7, question === -1 ? url.length : question));
  if (rawId === '' || rawId.includes('/')) return notFound(res);
  if (!INTEGER.test(rawId)) return badRequest(res, 'params/id must be integer');
  const id = Number(rawId);
  let limit;
  const tags = [];
  let sawTags = false;
  if (question !== -1) {
    for (const pair of url.slice(question + 1).split('&')) {
      if (pair === '') continue;
      const equals = pair.indexOf('=');
      const key = decode(equals === -1 ? pair : pair.slice(0, equals));
      const value = equals === -1 ? '' : decode(pair.slice(equals + 1));
      if (key === 'limit') {
        if (!INTEGER.test(value)) return badRequest(res, 'querystring/limit must be integer');
        limit = Number(value);
        if (limit < 1) return badRequest(res, 'querystring/limit must be >= 1');
        if (limit > 100) return badRequest(res, 'querystring/limit must be <= 100');
      } else if (key === 'tags') {
        sawTags = true;
        tags.push(value);
      }
    }
  }
  send(res, 200, JSON.stringify({ id, limit, tags: sawTags ? tags : undefined }));
}

function deepHandler() {
  const onRequest = [];
  const preHandler = [];
  const onSend = [];
  for (let level = 0; level < DEPTH; level++) {
    onRequest.push((state) => {
      state.hooks++;
    });
    preHandler.push((state) => {
      state.hooks++;
    });
    onSend.push((_state, payload) => payload);
  }
  return (req, res) => {
    if (req.method !== 'GET' || req.url !== deepPath) return notFound(res);
    const state = { hooks: 0 };
    for (const hook of onRequest) hook(state);
    for (const hook of preHandler) hook(state);
    let payload = JSON.stringify({ hello: 'world', hooks: state.hooks });
    for (const hook of onSend) payload = hook(state, payload);
    send(res, 200, payload);
  };
}

const handlers = { A: () => helloHandler, B: usersHandler, C: () => itemsHandler, D: deepHandler };

export async function start(scenario, options) {
  return listenServer(createServer(handlers[scenario]()), options);
}
