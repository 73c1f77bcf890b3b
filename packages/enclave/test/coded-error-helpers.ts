// Shared by the tests of developer errors (issue 32): an error's message is Fastify's text for its
// code, and what Enclave explains beyond it is in `error.hint`.
import assert from 'node:assert/strict';
import fastify from 'fastify';

const fastifyCodes = (fastify as unknown as { errorCodes: Record<string, new (...args: unknown[]) => Error> }).errorCodes;

/** Fastify's template for `code` (from the installed fastify package) as a regex: `%s` is any text. */
function fastifyTemplate(code: string): RegExp {
  const Coded = fastifyCodes[code];
  assert.ok(Coded, `${code} is one of Fastify's error codes`);
  const escaped = new Coded().message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replaceAll('%s', '[\\s\\S]*')}$`);
}

/** What a developer reads of an error: its message, then Enclave's hint. */
export function explanation(error: unknown): string {
  const { message, hint } = error as { message: string; hint?: string };
  return hint === undefined ? message : `${message}\n${hint}`;
}

/**
 * Asserts that `error` has `code`, that its message is Fastify's text for that code, and that
 * every pattern is in what the developer reads (the message or the hint). For assert.throws.
 */
export function assertCoded(error: unknown, code: string, ...patterns: RegExp[]): true {
  const { code: actual, message } = error as { code?: string; message: string };
  assert.equal(actual, code, message);
  assert.match(message, fastifyTemplate(code));
  for (const pattern of patterns) assert.match(explanation(error), pattern);
  return true;
}
