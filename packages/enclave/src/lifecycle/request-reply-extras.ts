// Request and reply members that sit beside the core ones of request.ts and reply.ts: decorator
// access by name, the parsed media types, `request.signal`, early hints and trailers.
import { parseMediaType } from '../http/media-type.js';
import { hasDecorator, undeclaredDecorator } from '../scope/decorators.js';
import type { LifecycleReply, LifecycleRequest } from '../state/application.js';
import { replyBasePrototype } from './reply.js';
import { requestBasePrototype } from './request.js';
import { requestSignal } from './request-signal.js';
import { kRoute } from './symbols.js';
import { trailerMethods } from './trailers.js';

function essence(value: unknown): string | undefined {
  return typeof value === 'string' ? parseMediaType(value)?.essence : undefined;
}

/** A request or a reply, whose decorators are read and written by name. */
type Decorated = (LifecycleRequest | LifecycleReply) & Record<string, unknown>;

/** A visible decorator of `kind`; functions come back bound to the object, as in Fastify. */
function readDecorator(target: Decorated, kind: 'request' | 'reply', name: string): unknown {
  assertDeclared(target, kind, name);
  const value = target[name];
  return typeof value === 'function' ? value.bind(target) : value;
}

function assertDeclared(target: Decorated, kind: 'request' | 'reply', name: string): void {
  const route = target[kRoute];
  if (!hasDecorator(route.context, kind, name)) throw undeclaredDecorator(route.context, kind, name);
}

/** Adds the members above to the base request and reply prototypes (idempotent). */
export function extendRequestAndReply(): void {
  if (Object.hasOwn(requestBasePrototype, 'signal')) return;
  Object.defineProperties(requestBasePrototype, {
    /** The essence of the request's Content-Type header (`application/json`), if it has a valid one. */
    mediaType: {
      get(this: LifecycleRequest) {
        return essence(this.raw.headers['content-type']);
      },
    },
    signal: {
      get(this: LifecycleRequest) {
        return requestSignal(this);
      },
    },
    getDecorator: {
      value(this: Decorated, name: string) {
        return readDecorator(this, 'request', name);
      },
    },
    setDecorator: {
      value(this: Decorated, name: string, value: unknown) {
        assertDeclared(this, 'request', name);
        this[name] = value;
      },
    },
  });

  Object.assign(replyBasePrototype, trailerMethods, {
    getDecorator(this: Decorated, name: string) {
      return readDecorator(this, 'reply', name);
    },
    /** Sends a 103 Early Hints response now, before the real one. */
    writeEarlyHints(this: LifecycleReply, hints: Record<string, string | string[]>, callback?: () => void) {
      this.raw.writeEarlyHints(hints, callback);
      return this;
    },
  });

  Object.defineProperty(replyBasePrototype, 'mediaType', {
    get(this: { getHeader(name: string): unknown }) {
      return essence(this.getHeader('content-type'));
    },
  });
}
