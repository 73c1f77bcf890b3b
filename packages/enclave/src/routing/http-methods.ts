// The HTTP methods an application supports (`supportedMethods`, extended by `addHttpMethod`),
// and which of them carry a body. `all()` covers every supported method.
import { METHODS } from 'node:http';
import { errorCodes } from '../errors.js';

export interface MethodSets {
  readonly bodyless: Set<string>;
  readonly withBody: Set<string>;
  /** `bodyless.has('GET')`, kept in step by addHttpMethod: the common request skips the Set lookup. */
  getIsBodyless: boolean;
  /** The last other method asked about and its answer ('' once addHttpMethod changed the sets). */
  lastMethod: string;
  lastIsBodyless: boolean;
}

const byRoot = new WeakMap<object, MethodSets>();

/** The method sets of one application (keyed by its root state), created on first use. */
export function methodSets(root: object): MethodSets {
  let sets = byRoot.get(root);
  if (sets === undefined) {
    // Fastify's defaults: QUERY (RFC 10008) is a method with a body.
    sets = {
      bodyless: new Set(['GET', 'HEAD', 'TRACE']),
      withBody: new Set(['DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'QUERY']),
      getIsBodyless: true,
      lastMethod: '',
      lastIsBodyless: false,
    };
    byRoot.set(root, sets);
  }
  return sets;
}

/**
 * Whether a request's method is body-less. Asked per request: GET is answered by a flag and any
 * other method by the last answer when it is the same method again, since a Set lookup costs
 * ~0.1k instructions (the set stays live: addHttpMethod works after ready, and resets both).
 */
export function isBodylessMethod(sets: MethodSets, method: string): boolean {
  if (method === 'GET') return sets.getIsBodyless;
  if (method === sets.lastMethod) return sets.lastIsBodyless;
  const answer = sets.bodyless.has(method);
  sets.lastMethod = method;
  sets.lastIsBodyless = answer;
  return answer;
}

export function supportedMethods(root: object): string[] {
  const { bodyless, withBody } = methodSets(root);
  return [...bodyless, ...withBody];
}

let redeclarationWarned = false;

/** Adds (or re-declares) a method; returns the shorthand name to decorate when it is new. */
export function addHttpMethod(root: object, method: unknown, hasBody: boolean, overrideExisting: boolean): string {
  if (typeof method !== 'string' || !METHODS.includes(method)) {
    throw new errorCodes.FST_ERR_ROUTE_METHOD_INVALID(`'${String(method)}'`);
  }
  const sets = methodSets(root);
  const { bodyless, withBody } = sets;
  // Fastify's deprecation: re-declaring a method will need `overrideExisting: true`.
  if (!overrideExisting && !redeclarationWarned && (bodyless.has(method) || withBody.has(method))) {
    redeclarationWarned = true;
    process.emitWarning(`addHttpMethod('${method}') re-declares a supported method; pass { overrideExisting: true } to do it on purpose`, {
      type: 'FastifyDeprecation',
      code: 'FSTDEP025',
    });
  }
  (hasBody ? withBody : bodyless).add(method);
  (hasBody ? bodyless : withBody).delete(method);
  sets.getIsBodyless = bodyless.has('GET');
  sets.lastMethod = '';
  return method.toLowerCase();
}
