// Parsing of the Authorization request header for the bearer scheme.
//
// RFC 6750 §2.1:  credentials = "Bearer" 1*SP b64token
//                 b64token    = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
// The scheme name is a `token` (RFC 9110 §5.6.2) and is case-insensitive (RFC 9110 §11.1).
// We accept exactly one space between scheme and token, and nothing before or after:
// any padding, tab or second space is refused rather than trimmed, so that one token has
// one spelling and a proxy or a logger cannot disagree with us about what was sent.

/** An RFC 9110 `token`, the form a scheme name such as `bearerType` must have. */
export const tokenPattern = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** An RFC 6750 `b64token`, the form a bearer key must have. */
export const b64TokenPattern = /^[A-Za-z0-9\-._~+/]+=*$/;

// One pass, anchored, no overlapping repetitions: linear in the header's length.
const credentialsPattern = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([A-Za-z0-9\-._~+/]+=*)$/;

/** How the scheme name in the header is compared with the configured `bearerType`. */
export type SchemeMatching = 'case-insensitive' | 'exact';

/**
 * Returns the token of a well-formed `<bearerType> <b64token>` header value, or `undefined`
 * when the value is malformed or names another scheme.
 *
 * @example
 * readBearerToken('bearer abc=', 'Bearer', 'case-insensitive') // 'abc='
 * readBearerToken('Bearer  abc', 'Bearer', 'case-insensitive') // undefined (two spaces)
 */
export function readBearerToken(value: string, bearerType: string, matching: SchemeMatching): string | undefined {
  const match = credentialsPattern.exec(value);
  if (match === null) return undefined;
  const [, scheme = '', token] = match;
  const sameScheme = matching === 'exact' ? scheme === bearerType : scheme.toLowerCase() === bearerType.toLowerCase();
  return sameScheme ? token : undefined;
}
