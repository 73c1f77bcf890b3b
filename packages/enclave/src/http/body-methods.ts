// Which methods can carry a request body. Fastify's "bodyless" set: GET, HEAD and TRACE bodies
// have no defined meaning (RFC 9110 §9.3.1, §9.3.2, §9.3.8), so they are never parsed and a body
// schema on them is refused at start-up. Every other method's body (DELETE and OPTIONS included)
// is parsed when sent and validated when the route has a body schema (issue 17).

/** Methods whose requests never have a body to parse or validate. */
export const BODYLESS_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'TRACE']);

/**
 * Whether requests of `method` may carry a body that is parsed and validated.
 *
 * @example
 * canCarryBody('DELETE') // true
 * canCarryBody('GET') // false
 */
export function canCarryBody(method: string): boolean {
  return !BODYLESS_METHODS.has(method.toUpperCase());
}
