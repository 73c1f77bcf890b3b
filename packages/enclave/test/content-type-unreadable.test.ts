// A Content-Type whose type/subtype cannot be read is a 415 even for a URL with no route, and
// the reply already carries that 415 when the error handlers run; a readable type that no
// parser takes stays a plain 404 there (the body is skipped), as in Fastify.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import enclave from 'enclavejs';

describe('a request body with an unreadable Content-Type', () => {
  test('for a URL with no route: 415 when the type is unreadable, 404 when it is only unsupported', async () => {
    const app = enclave();
    app.post('/books', async () => 'stored');
    const statusFor = async (method: 'PUT' | 'OPTIONS' | 'PATCH', contentType: string) =>
      (await app.inject({ method, url: '/nowhere', payload: 'some text', headers: { 'content-type': contentType } })).statusCode;
    for (const method of ['PUT', 'OPTIONS', 'PATCH'] as const) {
      assert.equal(await statusFor(method, 'undefined'), 415, `${method} undefined`);
      assert.equal(await statusFor(method, 'text /xml'), 415, `${method} text /xml`);
      assert.equal(await statusFor(method, '/xml'), 415, `${method} /xml`);
      assert.equal(await statusFor(method, 'text/xml'), 404, `${method} text/xml`);
      assert.equal(await statusFor(method, ' text/xml ; q'), 404, `${method} text/xml ; q`);
    }
  });

  test('an error handler that fails leaves the 415 in place; other errors still fall back to 500', async () => {
    const app = enclave();
    const seen: number[] = [];
    app.setErrorHandler((_error, _request, reply) => {
      seen.push(reply.statusCode);
      throw new TypeError('the handler itself broke');
    });
    app.post('/books', async () => 'stored');
    const unreadable = await app.inject({ method: 'POST', url: '/books', payload: 'x', headers: { 'content-type': 'not a type' } });
    assert.equal(unreadable.statusCode, 415);
    assert.equal(unreadable.json().message, 'the handler itself broke');
    const unsupported = await app.inject({ method: 'POST', url: '/books', payload: 'x', headers: { 'content-type': 'text/xml' } });
    assert.equal(unsupported.statusCode, 500);
    assert.deepEqual(seen, [415, 200]);
  });
});
