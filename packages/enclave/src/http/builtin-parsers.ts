/**
 * The parsers every root context starts with: `application/json` and `text/plain`.
 */
import secureJsonParse from 'secure-json-parse';
import { errorCodes } from '../errors.js';
import { parseMediaType } from './media-type.js';

/** What to do with a `__proto__` key, or a `constructor.prototype` path, in a JSON body. */
export type PoisoningAction = 'error' | 'remove' | 'ignore';

/** The callback a parser reports to. */
export type ParserDone = (err: Error | null, body?: unknown) => void;

/**
 * Built-in parsers take a body already read as a string or Buffer and report to `done`; called
 * without `done` they return the body or throw, which is handy outside a request.
 */
export type BuiltinParser = (request: unknown, body: string | Buffer, done?: ParserDone) => unknown;

function settle(done: ParserDone | undefined, err: Error | null, body?: unknown): unknown {
  if (done !== undefined) {
    done(err, body);
    return undefined;
  }
  if (err !== null) throw err;
  return body;
}

function toPoisoningAction(value: unknown): PoisoningAction {
  return value === 'remove' || value === 'ignore' ? value : 'error';
}

/**
 * JSON is utf-8 (RFC 8259 §8.1); a body announced in another charset was not decoded the way the
 * client meant, so parsing it would read something else than what was sent.
 */
function findForeignCharset(request: unknown): { essence: string; charset: string } | undefined {
  const headers = (request as { headers?: Record<string, unknown> } | null | undefined)?.headers;
  const header = headers?.['content-type'];
  // No parameters, no charset: the common `application/json` needs no parsing.
  if (typeof header !== 'string' || !header.includes(';')) return undefined;
  const mediaType = parseMediaType(header);
  const charset = mediaType?.parameters.charset;
  if (mediaType === null || charset === undefined) return undefined;
  const normalized = charset.toLowerCase();
  return normalized === 'utf-8' || normalized === 'utf8' ? undefined : { essence: mediaType.essence, charset };
}

/**
 * Creates the JSON body parser: secure-json-parse with the given poisoning actions. Empty body →
 * 400 `FST_ERR_CTP_EMPTY_JSON_BODY`; malformed JSON, or a forbidden `__proto__` /
 * `constructor.prototype` key in `'error'` mode → 400 `FST_ERR_CTP_INVALID_JSON_BODY`; a charset
 * other than utf-8 → 415 `FST_ERR_CTP_INVALID_MEDIA_TYPE`.
 *
 * @example
 * app.addContentTypeParser('application/vnd.api+json', { parseAs: 'string' }, createJsonParser('remove', 'error'))
 */
export function createJsonParser(onProtoPoisoning: PoisoningAction = 'error', onConstructorPoisoning: PoisoningAction = 'error'): BuiltinParser {
  const options = {
    protoAction: toPoisoningAction(onProtoPoisoning),
    constructorAction: toPoisoningAction(onConstructorPoisoning),
  };
  return function parseJsonBody(request: unknown, body: string | Buffer, done?: ParserDone): unknown {
    const foreign = findForeignCharset(request);
    if (foreign !== undefined) {
      return settle(
        done,
        Object.assign(errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), { cause: `unsupported charset: ${foreign.essence}; charset=${foreign.charset}` }),
      );
    }
    if (body === undefined || body === null || body.length === 0) {
      return settle(done, errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY());
    }
    let parsed: unknown;
    try {
      parsed = secureJsonParse(body, null, options);
    } catch (err) {
      // secure-json-parse reports poisoning as "Object contains forbidden prototype property".
      return settle(done, Object.assign(errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), { cause: err }));
    }
    return settle(done, null, parsed);
  };
}

/**
 * The `text/plain` parser: the body, already decoded as utf-8, unchanged.
 *
 * @example
 * app.addContentTypeParser('text/csv', { parseAs: 'string' }, parseTextBody)
 */
export function parseTextBody(_request: unknown, body: string | Buffer, done?: ParserDone): unknown {
  return settle(done, null, typeof body === 'string' ? body : body.toString('utf8'));
}
