// Timing safety checked structurally (nothing here measures time): every key is visited,
// lengths never short-circuit or throw, and keys are prepared once.
import assert from 'node:assert/strict';
import { timingSafeEqual } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { constantTimeEqual, createKeyMatcher, digest } from '../dist/constant-time.js';

function spyEqual() {
  const calls: Array<[Buffer, Buffer]> = [];
  const equal = (left: Buffer, right: Buffer): boolean => {
    calls.push([left, right]);
    return timingSafeEqual(left, right);
  };
  return { calls, equal };
}

describe('createKeyMatcher', () => {
  const keys = ['alpha', 'bravo-longer-key', 'c', 'delta=='];

  test('compares the token with every key, whichever matches and even when none does', () => {
    for (const token of ['alpha', 'bravo-longer-key', 'delta==', 'no-such-key', '']) {
      const { calls, equal } = spyEqual();
      const matches = createKeyMatcher(keys, equal);
      assert.equal(matches(token), keys.includes(token), token);
      assert.equal(calls.length, keys.length, `all ${keys.length} keys visited for ${JSON.stringify(token)}`);
    }
  });

  test('every comparison is between equal-length digests, so length never short-circuits', () => {
    const { calls, equal } = spyEqual();
    const matches = createKeyMatcher(keys, equal);
    matches('x');
    matches('a-token-much-longer-than-any-of-the-keys-in-the-list');
    for (const [left, right] of calls) {
      assert.equal(left.length, 32);
      assert.equal(right.length, 32);
    }
    const keyDigests = new Set(calls.map(([, right]) => right.toString('hex')));
    assert.deepEqual(keyDigests, new Set(keys.map((key) => digest(key).toString('hex'))));
  });

  test('keys are digested once, when the matcher is built', () => {
    const iterated: string[] = [];
    const source = {
      *[Symbol.iterator]() {
        for (const key of ['one', 'two']) {
          iterated.push(key);
          yield key;
        }
      },
    };
    const matches = createKeyMatcher(source);
    assert.deepEqual(iterated, ['one', 'two']);
    assert.equal(matches('two'), true);
    assert.equal(matches('one'), true);
    assert.deepEqual(iterated, ['one', 'two'], 'the keys are not read again per request');
  });

  test('no keys: nothing matches', () => {
    assert.equal(createKeyMatcher([])('anything'), false);
  });

  test('property: a token matches exactly when it is one of the keys', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { maxLength: 6 }), fc.string(), (list, token) => {
        const { calls, equal } = spyEqual();
        assert.equal(createKeyMatcher(list, equal)(token), list.includes(token));
        assert.equal(calls.length, list.length);
      }),
    );
  });
});

describe('constantTimeEqual', () => {
  test('equal strings are equal', () => {
    assert.equal(constantTimeEqual('same-secret', 'same-secret'), true);
    assert.equal(constantTimeEqual('', ''), true);
  });

  test('different lengths give false without throwing (timingSafeEqual alone would throw)', () => {
    assert.throws(() => timingSafeEqual(Buffer.from('a'), Buffer.from('ab')), RangeError);
    assert.equal(constantTimeEqual('a', 'ab'), false);
    assert.equal(constantTimeEqual('', 'non-empty'), false);
    assert.equal(constantTimeEqual('secret', `secret${'x'.repeat(10_000)}`), false);
  });

  test('property: agrees with === on any pair of strings', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (left, right) => constantTimeEqual(left, right) === (left === right)));
  });
});
