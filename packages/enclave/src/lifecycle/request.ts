// The request object. Each context gets its own constructor whose prototype chain carries the
// request decorators visible there; the fields below are assigned in one fixed order so every
// request of a route has the same shape.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyAddr from 'proxy-addr';
import { errorCodes } from '../errors.js';
import type { HttpPart } from '../schema/contracts.js';
import type { CompiledRoute, Context, LifecycleRequest, RequestConstructor } from '../state/application.js';
import type { ErrorPathLogger } from './error-safety.js';
import { kMediaType, kReply, kRoute } from './symbols.js';

/** The raw request as the getters read it: Node's, and what rewriteUrl and TLS add to it. */
type RawRequest = IncomingMessage & { originalUrl?: string | undefined; socket: IncomingMessage['socket'] & Partial<Pick<TLSSocket, 'encrypted'>> };

/** A request as its own members see it: the lifecycle's view, and the getters they call. */
interface RequestObject extends LifecycleRequest {
  readonly raw: RawRequest;
  readonly host: string;
}

/** What the constructor writes: every field, and the decorators' own fields by name. */
type ConstructedRequest = { -readonly [Key in keyof RequestObject]: RequestObject[Key] } & Record<string, unknown>;

function trustOf(request: RequestObject): ((address: string, hop: number) => boolean) | null {
  return request[kRoute].context.root.options.trustProxy;
}

// With several proxies each appends its value; the last one was added by the proxy next to
// us (the trusted peer), the first may be whatever the client sent.
function lastForwarded(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const comma = value.lastIndexOf(',');
  return (comma === -1 ? value : value.slice(comma + 1)).trim() || undefined;
}

function isTrustedPeer(request: RequestObject): boolean {
  const trust = trustOf(request);
  const address = request.raw.socket?.remoteAddress;
  return trust !== null && typeof address === 'string' && trust(address, 0);
}

/** The prototype every context's request prototype derives from. */
export const requestBasePrototype: object = {};

Object.defineProperties(requestBasePrototype, {
  url: {
    get(this: RequestObject) {
      return this.raw.url;
    },
    enumerable: true,
  },
  originalUrl: {
    get(this: RequestObject) {
      return this.raw.originalUrl ?? this.raw.url;
    },
    enumerable: true,
  },
  method: {
    get(this: RequestObject) {
      return this.raw.method;
    },
    enumerable: true,
  },
  socket: {
    get(this: RequestObject) {
      return this.raw.socket;
    },
  },
  server: {
    get(this: RequestObject) {
      return this[kRoute].context.instance;
    },
  },
  routeOptions: {
    get(this: RequestObject) {
      return this[kRoute].routeOptions;
    },
  },
  is404: {
    get(this: RequestObject) {
      return this[kRoute].isNotFound;
    },
  },
  ip: {
    get(this: RequestObject) {
      const trust = trustOf(this);
      return trust === null ? this.raw.socket?.remoteAddress : proxyAddr(this.raw, trust);
    },
    enumerable: true,
  },
  ips: {
    get(this: RequestObject) {
      const trust = trustOf(this);
      return trust === null ? undefined : proxyAddr.all(this.raw, trust);
    },
  },
  host: {
    get(this: RequestObject) {
      const forwarded = isTrustedPeer(this) ? lastForwarded(this.raw.headers['x-forwarded-host']) : undefined;
      // '' when no Host arrived (HTTP/1.0, http.requireHostHeader: false) or a headers schema
      // removed it: Fastify's value, a string, so `request.host.split(...)` never throws.
      return forwarded ?? this.raw.headers.host ?? this.raw.headers[':authority'] ?? '';
    },
    enumerable: true,
  },
  hostname: {
    get(this: RequestObject) {
      const host = this.host;
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
    get(this: RequestObject) {
      const host: unknown = this.host;
      const match = typeof host === 'string' ? /:(\d+)$/.exec(host) : null;
      return match === null ? null : Number.parseInt(match[1] as string, 10);
    },
    enumerable: true,
  },
  protocol: {
    get(this: RequestObject) {
      if (isTrustedPeer(this)) {
        const forwarded = lastForwarded(this.raw.headers['x-forwarded-proto']);
        if (forwarded) return forwarded;
      }
      return this.raw.socket?.encrypted ? 'https' : 'http';
    },
    enumerable: true,
  },
  /** The parsed media-type essence of the body, when there was one. */
  contentType: {
    get(this: RequestObject) {
      return this[kMediaType];
    },
  },
  getValidationFunction: {
    value(this: RequestObject, httpPartOrSchema: unknown) {
      const route = this[kRoute];
      if (typeof httpPartOrSchema === 'string') return route.partValidators[httpPartOrSchema];
      return route.context.schemas.compileValidationSchema(httpPartOrSchema);
    },
  },
  compileValidationSchema: {
    value(this: RequestObject, schema: unknown, httpPart?: HttpPart) {
      return this[kRoute].context.schemas.compileValidationSchema(schema, httpPart);
    },
  },
  validateInput: {
    value(this: RequestObject, input: unknown, schemaOrPart: unknown, httpPart?: HttpPart) {
      const route: CompiledRoute = this[kRoute];
      const validate =
        typeof schemaOrPart === 'string' ? route.partValidators[schemaOrPart] : route.context.schemas.compileValidationSchema(schemaOrPart, httpPart);
      if (validate === undefined) throw new errorCodes.FST_ERR_REQ_INVALID_VALIDATION_INVOCATION(typeof schemaOrPart === 'string' ? schemaOrPart : httpPart);
      return validate(input);
    },
  },
});

/** Builds the request constructor of a context (at ready). */
export function buildRequestClass(context: Context): RequestConstructor {
  const fields = context.requestFields;
  function Request(
    this: ConstructedRequest,
    raw: RawRequest,
    params: Record<string, unknown>,
    query: Record<string, unknown>,
    id: string,
    log: ErrorPathLogger,
    route: CompiledRoute,
  ) {
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
  // A function with a prototype is a constructor at run time; TypeScript only types classes so.
  return Request as unknown as RequestConstructor;
}
