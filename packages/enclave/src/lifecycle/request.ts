// The request object. Each context gets its own constructor whose prototype chain carries the
// request decorators visible there; the fields below are assigned in one fixed order so every
// request of a route has the same shape.
import proxyAddr from 'proxy-addr';
import { errorCodes } from '../errors.js';
import type { Context } from '../scope/context.js';
import type { CompiledRoute } from './compiled-route.js';
import { kMediaType, kReply, kRoute } from './symbols.js';

function trustOf(request: any): ((address: string, hop: number) => boolean) | null {
  return (request[kRoute] as CompiledRoute).context.root.options.trustProxy;
}

// With several proxies each appends its value; the last one was added by the proxy next to
// us (the trusted peer), the first may be whatever the client sent.
function lastForwarded(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const comma = value.lastIndexOf(',');
  return (comma === -1 ? value : value.slice(comma + 1)).trim() || undefined;
}

function isTrustedPeer(request: any): boolean {
  const trust = trustOf(request);
  const address = request.raw.socket?.remoteAddress;
  return trust !== null && typeof address === 'string' && trust(address, 0);
}

/** The prototype every context's request prototype derives from. */
export const requestBasePrototype: Record<PropertyKey, any> = {};

Object.defineProperties(requestBasePrototype, {
  url: { get() { return this.raw.url; }, enumerable: true },
  originalUrl: { get() { return this.raw.originalUrl ?? this.raw.url; }, enumerable: true },
  method: { get() { return this.raw.method; }, enumerable: true },
  socket: { get() { return this.raw.socket; } },
  server: { get() { return (this[kRoute] as CompiledRoute).context.instance; } },
  routeOptions: { get() { return (this[kRoute] as CompiledRoute).routeOptions; } },
  is404: { get() { return (this[kRoute] as CompiledRoute).isNotFound; } },
  ip: {
    get() {
      const trust = trustOf(this);
      return trust === null ? this.raw.socket?.remoteAddress : proxyAddr(this.raw, trust);
    },
    enumerable: true,
  },
  ips: {
    get() {
      const trust = trustOf(this);
      return trust === null ? undefined : proxyAddr.all(this.raw, trust);
    },
  },
  host: {
    get() {
      const forwarded = isTrustedPeer(this) ? lastForwarded(this.raw.headers['x-forwarded-host']) : undefined;
      // '' when no Host arrived (HTTP/1.0, http.requireHostHeader: false) or a headers schema
      // removed it: Fastify's value, a string, so `request.host.split(...)` never throws.
      return forwarded ?? this.raw.headers.host ?? this.raw.headers[':authority'] ?? '';
    },
    enumerable: true,
  },
  hostname: {
    get() {
      const host: string = this.host;
      if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
      const colon = host.indexOf(':');
      return colon === -1 ? host : host.slice(0, colon);
    },
    enumerable: true,
  },
  port: {
    // Only the Host (or the trusted X-Forwarded-Host) says which port the client used: the
    // socket's local port is the server's own, wrong behind a proxy (issue 17). No port in the
    // host: null, as in Fastify, so URLs built from host, protocol and port stay right.
    get() {
      const host: unknown = this.host;
      const match = typeof host === 'string' ? /:(\d+)$/.exec(host) : null;
      return match === null ? null : Number.parseInt(match[1] as string, 10);
    },
    enumerable: true,
  },
  protocol: {
    get() {
      if (isTrustedPeer(this)) {
        const forwarded = lastForwarded(this.raw.headers['x-forwarded-proto']);
        if (forwarded) return forwarded;
      }
      return this.raw.socket?.encrypted ? 'https' : 'http';
    },
    enumerable: true,
  },
  /** The parsed media-type essence of the body, when there was one. */
  contentType: { get() { return this[kMediaType]; } },
  getValidationFunction: {
    value(this: any, httpPartOrSchema: unknown) {
      const route = this[kRoute] as CompiledRoute;
      if (typeof httpPartOrSchema === 'string') return route.partValidators[httpPartOrSchema];
      return route.context.schemas.compileValidationSchema(httpPartOrSchema);
    },
  },
  compileValidationSchema: {
    value(this: any, schema: unknown, httpPart?: any) {
      return (this[kRoute] as CompiledRoute).context.schemas.compileValidationSchema(schema, httpPart);
    },
  },
  validateInput: {
    value(this: any, input: unknown, schemaOrPart: unknown, httpPart?: any) {
      const validate =
        typeof schemaOrPart === 'string'
          ? (this[kRoute] as CompiledRoute).partValidators[schemaOrPart]
          : (this[kRoute] as CompiledRoute).context.schemas.compileValidationSchema(schemaOrPart, httpPart);
      if (validate === undefined) throw new errorCodes.FST_ERR_REQ_INVALID_VALIDATION_INVOCATION(typeof schemaOrPart === 'string' ? schemaOrPart : httpPart);
      return validate(input);
    },
  },
});

/** Builds the request constructor of a context (at ready). */
export function buildRequestClass(context: Context): new (raw: any, params: any, query: any, id: string, log: any, route: CompiledRoute) => any {
  const fields = context.requestFields;
  function Request(this: any, raw: any, params: any, query: any, id: string, log: any, route: CompiledRoute) {
    this.id = id;
    this.raw = raw;
    this.params = params;
    this.query = query;
    this.headers = raw.headers;
    this.body = undefined;
    this.log = log;
    this.validationError = undefined;
    this[kRoute] = route;
    this[kMediaType] = undefined;
    // The request's reply, set right after it is built (request.signal asks whether it was sent).
    this[kReply] = null;
    for (let index = 0; index < fields.length; index++) {
      const field = fields[index] as [string, unknown];
      this[field[0]] = field[1];
    }
  }
  Request.prototype = context.requestPrototype;
  return Request as any;
}
