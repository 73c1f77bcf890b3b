// The reply object. Like the request, each context has its own constructor whose prototype
// chain carries the reply decorators visible there. Headers are buffered in one object and
// written with the status in a single writeHead.
import { type OutgoingHttpHeader, validateHeaderName, validateHeaderValue } from 'node:http';
import { performance } from 'node:perf_hooks';
import { finished } from 'node:stream';
import { errorCodes } from '../errors.js';
import { markHijacked } from '../http/close.js';
import type { ServerResponse } from 'node:http';
import type { ErrorPathLogger } from './error-safety.js';
import type { CompiledRoute, Context, LifecycleReply, LifecycleRequest, ReplyConstructor } from '../state/application.js';
import { NullObject } from './null-object.js';
import { callNotFound } from './handle-request.js';
import { sendPayload } from './send.js';
import { kErrorHandler, kHeaders, kHijacked, kInHandler, kInOnErrorHooks, kOnErrorDone, kRoute, kSent, kSerializer, kStartTime, kTrailers } from './symbols.js';

/** A reply as its own methods see it: the lifecycle's view, chainable, with its start time. */
interface ReplyObject extends LifecycleReply {
  code(statusCode: unknown): ReplyObject;
  header(name: string, value: unknown): ReplyObject;
  [kStartTime]: number;
}

/** What the constructor writes: every field, and the decorators' own fields by name. */
type ConstructedReply = { -readonly [Key in keyof ReplyObject]: ReplyObject[Key] } & Record<string, unknown>;

function routeOf(reply: ReplyObject): CompiledRoute {
  return reply[kRoute];
}

/** The prototype every context's reply prototype derives from. */
export const replyBasePrototype: Record<PropertyKey, unknown> = {
  code(this: ReplyObject, statusCode: unknown) {
    const code = Number(statusCode);
    if (!(code >= 100 && code <= 599)) throw new errorCodes.FST_ERR_BAD_STATUS_CODE(String(statusCode));
    // 404.5 is 404, as in Fastify (Node truncates at writeHead); truncated here so that the
    // status read back is the one written.
    this.raw.statusCode = Math.trunc(code);
    return this;
  },
  header(this: ReplyObject, name: string, value: unknown) {
    const key = String(name).toLowerCase();
    // Node's own checks: CR, LF and other invalid characters in names or values are refused here,
    // where the caller can see them, instead of failing later in writeHead.
    validateHeaderName(key);
    // The value is kept as given (getHeader returns it), but checked in its written form, which
    // is what writeHead makes of it: typed as the header it becomes.
    const headerValue = (value === undefined ? '' : value) as OutgoingHttpHeader;
    for (const single of Array.isArray(headerValue) ? headerValue : [headerValue]) validateHeaderValue(key, String(single));
    const headers = this[kHeaders];
    const previous = headers[key];
    if (key === 'set-cookie' && previous !== undefined) {
      headers[key] = [...(Array.isArray(previous) ? previous : [previous]), ...[headerValue].flat()] as string[];
    } else {
      headers[key] = headerValue;
    }
    return this;
  },
  headers(this: ReplyObject, values: Record<string, unknown>) {
    for (const name of Object.keys(values)) this.header(name, values[name]);
    return this;
  },
  getHeader(this: ReplyObject, name: string) {
    const key = String(name).toLowerCase();
    return this[kHeaders][key] ?? this.raw.getHeader(key);
  },
  getHeaders(this: ReplyObject) {
    return { ...this.raw.getHeaders(), ...this[kHeaders] };
  },
  hasHeader(this: ReplyObject, name: string) {
    const key = String(name).toLowerCase();
    return this[kHeaders][key] !== undefined || this.raw.hasHeader(key);
  },
  removeHeader(this: ReplyObject, name: string) {
    const key = String(name).toLowerCase();
    delete this[kHeaders][key];
    if (!this.raw.headersSent) this.raw.removeHeader(key);
    return this;
  },
  type(this: ReplyObject, contentType: string) {
    return this.header('content-type', contentType);
  },
  send(this: ReplyObject, payload?: unknown) {
    sendPayload(this, payload);
    return this;
  },
  serializer(this: ReplyObject, fn: (payload: unknown) => string) {
    this[kSerializer] = fn;
    return this;
  },
  serialize(this: ReplyObject, payload: unknown) {
    if (this[kSerializer] !== null) return this[kSerializer](payload);
    const serialize = routeOf(this).serializerFor?.(this.raw.statusCode, undefined);
    return serialize ? serialize(payload) : JSON.stringify(payload);
  },
  getSerializationFunction(this: ReplyObject, schemaOrStatus: unknown, contentType?: string) {
    if (typeof schemaOrStatus === 'number' || typeof schemaOrStatus === 'string') {
      return routeOf(this).serializerFor?.(Number(schemaOrStatus), contentType);
    }
    return routeOf(this).context.schemas.compileSerializationSchema(schemaOrStatus);
  },
  compileSerializationSchema(this: ReplyObject, schema: unknown, httpStatus?: string, contentType?: string) {
    return routeOf(this).context.schemas.compileSerializationSchema(schema, httpStatus, contentType);
  },
  serializeInput(this: ReplyObject, input: unknown, schemaOrStatus: unknown, httpStatus?: string, contentType?: string) {
    const serialize =
      typeof schemaOrStatus === 'number' || typeof schemaOrStatus === 'string'
        ? routeOf(this).serializerFor?.(Number(schemaOrStatus), contentType)
        : routeOf(this).context.schemas.compileSerializationSchema(schemaOrStatus, httpStatus, contentType);
    if (serialize === undefined) {
      if (contentType !== undefined) throw new errorCodes.FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN(String(schemaOrStatus), contentType);
      throw new errorCodes.FST_ERR_MISSING_SERIALIZATION_FN(String(schemaOrStatus));
    }
    return serialize(input);
  },
  redirect(this: ReplyObject, url: string, code?: number) {
    const status = code ?? (this.raw.statusCode >= 300 && this.raw.statusCode < 400 ? this.raw.statusCode : 302);
    return this.header('location', url).code(status).send();
  },
  callNotFound(this: ReplyObject) {
    callNotFound(this);
    return this;
  },
  hijack(this: ReplyObject) {
    this[kHijacked] = true;
    markHijacked(this.raw);
    return this;
  },
  then(this: ReplyObject, fulfilled?: () => void, rejected?: (error: Error) => void) {
    if (this.raw.writableFinished) {
      fulfilled?.();
      return;
    }
    finished(this.raw, (error) => {
      if (error && (error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') rejected?.(error);
      else fulfilled?.();
    });
  },
};
replyBasePrototype.status = replyBasePrototype.code;
// Defaults read through the prototype until a reply sets its own (rarely: trailers, onError
// hooks): the constructor stays as small as before, so V8 still inlines it, and the clock read
// in it, into the request path.
replyBasePrototype[kInOnErrorHooks] = false;
replyBasePrototype[kTrailers] = null;

Object.defineProperties(replyBasePrototype, {
  statusCode: {
    get(this: ReplyObject) {
      return this.raw.statusCode;
    },
    set(this: ReplyObject, value: number) {
      this.code(value);
    },
    enumerable: true,
  },
  sent: {
    get(this: ReplyObject) {
      return this[kSent] === true || this[kHijacked] === true || this.raw.writableEnded === true;
    },
    set(this: ReplyObject, value: unknown) {
      if (value !== true) throw new errorCodes.FST_ERR_REP_SENT_VALUE();
      this[kHijacked] = true;
      markHijacked(this.raw);
    },
  },
  elapsedTime: {
    get(this: ReplyObject) {
      return performance.now() - this[kStartTime];
    },
  },
  server: {
    get(this: ReplyObject) {
      return routeOf(this).context.instance;
    },
  },
  routeOptions: {
    get(this: ReplyObject) {
      return routeOf(this).routeOptions;
    },
  },
});

/** Builds the reply constructor of a context (at ready). */
export function buildReplyClass(context: Context): ReplyConstructor {
  const fields = context.replyFields;
  function Reply(this: ConstructedReply, raw: ServerResponse, request: LifecycleRequest, log: ErrorPathLogger, route: CompiledRoute) {
    this.raw = raw;
    this.request = request;
    this.log = log;
    this[kRoute] = route;
    this[kHeaders] = new NullObject();
    this[kSent] = false;
    this[kHijacked] = false;
    this[kSerializer] = null;
    this[kErrorHandler] = route.errorHandler;
    this[kOnErrorDone] = false;
    this[kInHandler] = false;
    this[kStartTime] = performance.now();
    for (let index = 0; index < fields.length; index++) {
      const field = fields[index] as [string, unknown];
      this[field[0]] = field[1];
    }
  }
  Reply.prototype = context.replyPrototype;
  // A function with a prototype is a constructor at run time; TypeScript only types classes so.
  return Reply as unknown as ReplyConstructor;
}
