// The JSON body reader of the hand-written and Koa servers: what a framework's JSON parser does
// at its least — check the media type, cap the size (1 MiB, Fastify's and Enclave's default),
// collect, parse — so those servers do not skip work the frameworks do.

export const BODY_LIMIT = 1024 * 1024;

export class HttpError extends Error {
  constructor(statusCode, error, message) {
    super(message);
    this.statusCode = statusCode;
    this.error = error;
  }
}

function isJsonMediaType(header) {
  if (typeof header !== 'string') return false;
  const semicolon = header.indexOf(';');
  const essence = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  return essence === 'application/json';
}

/** Resolves the parsed body of a node:http request, or rejects with an HttpError. */
export function readJsonBody(req) {
  return new Promise((resolve, reject) => {
    if (!isJsonMediaType(req.headers['content-type'])) {
      req.resume();
      reject(new HttpError(415, 'Unsupported Media Type', 'content type must be application/json'));
      return;
    }
    const declared = Number(req.headers['content-length']);
    if (declared > BODY_LIMIT) {
      req.resume();
      reject(new HttpError(413, 'Payload Too Large', 'request body is too large'));
      return;
    }
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        req.removeAllListeners('data');
        req.resume();
        reject(new HttpError(413, 'Payload Too Large', 'request body is too large'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > BODY_LIMIT) return;
      const text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new HttpError(400, 'Bad Request', 'body is not valid JSON'));
      }
    });
    req.on('error', reject);
  });
}

/** The 400 body the non-Fastify-family servers send when Ajv rejects input. */
export function validationErrorBody(where, validate) {
  const first = validate.errors?.[0];
  const path = first ? `${where}${first.instancePath}` : where;
  return { statusCode: 400, error: 'Bad Request', message: `${path} ${first?.message ?? 'is invalid'}` };
}
