// What a content-type parser is registered for: a media type (with the parameters it requires),
// a RegExp, or the catch-all `*`, checked and put in canonical form once when the parser is added,
// and compared with a request's Content-Type on lookup.
import { errorCodes } from '../errors.js';
import { formatMediaType, type MediaType, parameterValuesEqual, parseMediaType } from './media-type.js';

/** A matcher in canonical form: `label` is its identity in a store and what `describe()` lists. */
export interface PreparedMatcher {
  readonly label: string;
  readonly kind: 'media-type' | 'pattern' | 'catch-all';
  readonly mediaType: MediaType | undefined;
  /** The user's RegExp without `g`/`y`, so that testing it keeps no state between requests. */
  readonly pattern: RegExp | undefined;
}

/** A matcher must be a RegExp or a non-empty string (checked before the parser, as in Fastify). */
export function assertMatcherKind(matcher: unknown): asserts matcher is string | RegExp {
  if (matcher instanceof RegExp) return;
  if (typeof matcher !== 'string') throw errorCodes.FST_ERR_CTP_INVALID_TYPE();
  if (matcher.trim().length === 0) throw errorCodes.FST_ERR_CTP_EMPTY_TYPE();
}

export function prepareMatcher(matcher: unknown): PreparedMatcher {
  assertMatcherKind(matcher);
  if (matcher instanceof RegExp) {
    const pattern = new RegExp(matcher.source, matcher.flags.replace(/[gy]/g, ''));
    return { label: String(matcher), kind: 'pattern', mediaType: undefined, pattern };
  }
  const trimmed = matcher.trim();
  if (trimmed === '*') return { label: '*', kind: 'catch-all', mediaType: undefined, pattern: undefined };
  const mediaType = parseMediaType(trimmed);
  if (mediaType === null) throw errorCodes.FST_ERR_CTP_INVALID_TYPE();
  return { label: formatMediaType(mediaType), kind: 'media-type', mediaType, pattern: undefined };
}

/** The label a lookup by `has`/`remove` means, or undefined when it cannot name any parser. */
export function labelOf(matcher: unknown): string | undefined {
  try {
    return prepareMatcher(matcher).label;
  } catch {
    return undefined;
  }
}

/** Whether every parameter the matcher names is present in the request with an equal value. */
export function parametersMatch(required: Record<string, string>, given: Record<string, string>): boolean {
  for (const name of Object.keys(required)) {
    const wanted = required[name] as string;
    const actual = given[name];
    if (actual === undefined || !parameterValuesEqual(name, wanted, actual)) return false;
  }
  return true;
}
