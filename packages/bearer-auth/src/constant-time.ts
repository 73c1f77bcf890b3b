import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// Comparing a presented token with the accepted keys must not reveal, through timing,
// how much of a key matched, how long any key is, or which key matched. Both sides are
// therefore reduced to HMAC-SHA256 digests under a key drawn once per process: digests
// always have the same length, so `timingSafeEqual` never sees a length mismatch (and
// never throws), and an attacker cannot choose inputs whose digests share a prefix with a
// key's digest because the HMAC key is secret. The only length that influences timing is
// the presented token's own, which the client already knows.

const hmacSecret = randomBytes(32);

/** HMAC-SHA256 of `value` under the per-process secret. */
export function digest(value: string): Buffer {
  return createHmac('sha256', hmacSecret).update(value, 'utf8').digest();
}

/** A comparison of two equal-length buffers; `crypto.timingSafeEqual` unless a test spies on it. */
export type EqualDigests = (left: Buffer, right: Buffer) => boolean;

/**
 * Compares two strings in time independent of their contents and of their lengths.
 *
 * @example
 * constantTimeEqual('secret', 'secret') // true
 * constantTimeEqual('secret', 'a-much-longer-guess') // false, without throwing
 */
export function constantTimeEqual(left: string, right: string): boolean {
  return timingSafeEqual(digest(left), digest(right));
}

/**
 * Digests the accepted keys once and returns a matcher that compares a presented token
 * with every one of them, with no early exit on a match, so the time taken does not depend
 * on which key (if any) matched or on how many keys precede it.
 *
 * @example
 * const matches = createKeyMatcher(['key-one', 'key-two']);
 * matches('key-two') // true
 * matches('key-three') // false
 */
export function createKeyMatcher(keys: Iterable<string>, equal: EqualDigests = timingSafeEqual): (token: string) => boolean {
  const keyDigests = Array.from(keys, digest);
  return (token) => {
    const tokenDigest = digest(token);
    let matched = 0;
    for (const keyDigest of keyDigests) matched |= equal(tokenDigest, keyDigest) ? 1 : 0;
    return matched === 1;
  };
}
