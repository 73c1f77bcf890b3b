/**
 * A strict scanner for media types (RFC 9110 section 8.3.1):
 *
 *   media-type = type "/" subtype parameters
 *   parameters = *( OWS ";" OWS [ parameter ] )          (RFC 9110 section 5.6.6)
 *   parameter  = token "=" ( token / quoted-string )
 *
 * It is a single left-to-right pass with no regular expression, so its cost is linear in the
 * header's length whatever a client sends.
 */

/** A parsed media type. */
export interface MediaType {
  /** `type/subtype`, lower-cased. */
  essence: string;
  type: string;
  subtype: string;
  /** Parameter names lower-cased; a null-prototype object. */
  parameters: Record<string, string>;
}

// tchar (RFC 9110 section 5.6.2): "!" "#" "$" "%" "&" "'" "*" "+" "-" "." "^" "_" "`" "|" "~" DIGIT ALPHA
const TCHAR = new Uint8Array(128);
for (const char of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
  TCHAR[char.charCodeAt(0)] = 1;
}

const SP = 0x20;
const HTAB = 0x09;
const DQUOTE = 0x22;
const BACKSLASH = 0x5c;

function isTokenChar(code: number): boolean {
  return code < 128 && TCHAR[code] === 1;
}

function isWhitespace(code: number): boolean {
  return code === SP || code === HTAB;
}

/** qdtext (RFC 9110 section 5.6.4): HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text. */
function isQuotedText(code: number): boolean {
  return code === HTAB || code === SP || code === 0x21 || (code >= 0x23 && code <= 0x5b) || (code >= 0x5d && code <= 0x7e) || (code >= 0x80 && code <= 0xff);
}

/** What may follow a backslash in a quoted-pair: HTAB / SP / VCHAR / obs-text. */
function isQuotablePairChar(code: number): boolean {
  return code === HTAB || code === SP || (code >= 0x21 && code <= 0x7e) || (code >= 0x80 && code <= 0xff);
}

/** Index of the first character at or after `start` that is not a token character. */
function scanToken(value: string, start: number, end: number): number {
  let index = start;
  while (index < end && isTokenChar(value.charCodeAt(index))) index++;
  return index;
}

/**
 * Whether the value starts with a readable `type/subtype` (optional whitespace around it, then
 * the end or a `;`), whatever its parameters. Fastify tells a Content-Type it cannot read at all
 * (refused on the headers alone, 415 even for no route) from one it has no parser for by this.
 *
 * @example
 * hasReadableEssence('text/xml; charset') // → true
 * hasReadableEssence('undefined') // → false
 */
export function hasReadableEssence(value: string): boolean {
  const end = value.length;
  let index = 0;
  while (index < end && isWhitespace(value.charCodeAt(index))) index++;
  const slash = scanToken(value, index, end);
  if (slash === index || value.charCodeAt(slash) !== 0x2f) return false;
  const subtypeEnd = scanToken(value, slash + 1, end);
  if (subtypeEnd === slash + 1) return false;
  index = subtypeEnd;
  while (index < end && isWhitespace(value.charCodeAt(index))) index++;
  return index === end || value.charCodeAt(index) === 0x3b;
}

/**
 * Parses a Content-Type field value. Returns null for anything the grammar does not produce:
 * an empty value, a missing subtype, whitespace inside the type, trailing garbage, an unbalanced
 * quote, whitespace around `=`, or a parameter given twice (RFC 6838 section 4.3 forbids repeats, and a
 * repeat would let two readers of the same header disagree on its value).
 *
 * @example
 * parseMediaType('Application/JSON; charset="UTF-8"')
 * // → { essence: 'application/json', type: 'application', subtype: 'json', parameters: { charset: 'UTF-8' } }
 * parseMediaType('text/plain; content-type="application/json"')?.essence // → 'text/plain'
 * parseMediaType('application/json garbage') // → null
 */
export function parseMediaType(value: string): MediaType | null {
  if (typeof value !== 'string') return null;
  let start = 0;
  let end = value.length;
  while (start < end && isWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isWhitespace(value.charCodeAt(end - 1))) end--;

  const typeEnd = scanToken(value, start, end);
  if (typeEnd === start || typeEnd >= end || value.charCodeAt(typeEnd) !== 0x2f /* / */) return null;
  const subtypeStart = typeEnd + 1;
  const subtypeEnd = scanToken(value, subtypeStart, end);
  if (subtypeEnd === subtypeStart) return null;

  const type = value.slice(start, typeEnd).toLowerCase();
  const subtype = value.slice(subtypeStart, subtypeEnd).toLowerCase();
  const parameters: Record<string, string> = Object.create(null);

  let index = subtypeEnd;
  while (index < end) {
    // OWS ";" OWS
    while (index < end && isWhitespace(value.charCodeAt(index))) index++;
    if (index >= end || value.charCodeAt(index) !== 0x3b /* ; */) return null;
    index++;
    while (index < end && isWhitespace(value.charCodeAt(index))) index++;
    if (index >= end) break;
    if (value.charCodeAt(index) === 0x3b) continue; // an empty parameter: allowed by §5.6.6

    const nameEnd = scanToken(value, index, end);
    if (nameEnd === index || nameEnd >= end || value.charCodeAt(nameEnd) !== 0x3d /* = */) return null;
    const name = value.slice(index, nameEnd).toLowerCase();
    index = nameEnd + 1;

    let parameterValue: string;
    if (index < end && value.charCodeAt(index) === DQUOTE) {
      index++;
      let unquoted = '';
      let closed = false;
      while (index < end) {
        const code = value.charCodeAt(index);
        if (code === DQUOTE) {
          closed = true;
          index++;
          break;
        }
        if (code === BACKSLASH) {
          if (index + 1 >= end || !isQuotablePairChar(value.charCodeAt(index + 1))) return null;
          unquoted += value[index + 1];
          index += 2;
          continue;
        }
        if (!isQuotedText(code)) return null;
        unquoted += value[index];
        index++;
      }
      if (!closed) return null;
      parameterValue = unquoted;
    } else {
      const valueEnd = scanToken(value, index, end);
      if (valueEnd === index) return null;
      parameterValue = value.slice(index, valueEnd);
      index = valueEnd;
    }

    if (Object.hasOwn(parameters, name)) return null;
    parameters[name] = parameterValue;
  }

  return { essence: `${type}/${subtype}`, type, subtype, parameters };
}

/**
 * Whether two values of the parameter `name` are equal: `charset` values are case-insensitive
 * (RFC 9110 section 8.3.2), every other value is compared exactly.
 *
 * @example
 * parameterValuesEqual('charset', 'UTF-8', 'utf-8') // → true
 */
export function parameterValuesEqual(name: string, left: string, right: string): boolean {
  return name === 'charset' ? left.toLowerCase() === right.toLowerCase() : left === right;
}

/**
 * A canonical text for a media type, equal for equal media types: the essence, then the
 * parameters sorted by name, values quoted. Used as the identity of string matchers.
 *
 * @example
 * formatMediaType(parseMediaType('Text/Plain; Charset=UTF-8')!) // → 'text/plain; charset="utf-8"'
 */
export function formatMediaType(mediaType: MediaType): string {
  const names = Object.keys(mediaType.parameters).sort();
  let text = mediaType.essence;
  for (const name of names) {
    const raw = mediaType.parameters[name] as string;
    const canonical = name === 'charset' ? raw.toLowerCase() : raw;
    text += `; ${name}="${canonical.replace(/["\\]/g, '\\$&')}"`;
  }
  return text;
}
