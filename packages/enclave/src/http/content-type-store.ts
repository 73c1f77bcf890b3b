/**
 * The content-type parsers of one encapsulation context. A child starts with a copy of its
 * parent's parsers taken when it is created; what either adds or removes later stays its own.
 */
import type { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';
import { errorCodes } from '../errors.js';
import { createJsonParser, type PoisoningAction, parseTextBody } from './builtin-parsers.js';
import { assertMatcherKind, labelOf, type PreparedMatcher, parametersMatch, prepareMatcher } from './content-type-matchers.js';
import { type MediaType, parseMediaType } from './media-type.js';

/** Options of `addContentTypeParser`. */
export interface ContentTypeParserOptions {
  parseAs?: 'string' | 'buffer';
  bodyLimit?: number;
}

/** What a parser is given: the request's stream, or with `parseAs` its body as a string or Buffer. */
export type ContentTypeParserInput = Readable | string | Buffer;

/**
 * A content-type parser: `(request, payload, done)` for stream parsers, `(request, body, done)`
 * with `parseAs`, `this` the instance that added it. It may call `done(err, body)` or return a
 * promise. Declared as a method so that a parser may declare the one input its `parseAs` gives
 * it (a string, a Buffer or the stream): method parameters are compared both ways.
 */
export type ContentTypeParserFunction = {
  parse(this: unknown, request: unknown, body: ContentTypeParserInput, done: (err: unknown, body?: unknown) => void): unknown;
}['parse'];

/** Factory options that shape body parsing. */
export interface BodyParsingOptions {
  bodyLimit: number;
  onProtoPoisoning: 'error' | 'remove' | 'ignore';
  onConstructorPoisoning: 'error' | 'remove' | 'ignore';
}

/** One registered parser, immutable once created (so that parent and child can share it). */
export interface ContentTypeParserEntry extends PreparedMatcher {
  readonly parser: ContentTypeParserFunction;
  readonly parseAs: 'string' | 'buffer' | undefined;
  readonly bodyLimit: number | undefined;
  readonly instance: unknown;
  /** A built-in parser may be replaced without removing it first. */
  readonly builtin: boolean;
  readonly owner: ContentTypeParserStore;
}

/** 1 MiB, the default `bodyLimit`. */
export const DEFAULT_BODY_LIMIT = 1_048_576;

/** How many distinct Content-Type headers a store remembers. */
const LOOKUP_CACHE_LIMIT = 100;

/** A Content-Type header resolved: its parsed media type and the parser it selects. */
export interface HeaderLookup {
  readonly mediaType: MediaType;
  readonly entry: ContentTypeParserEntry;
}

/**
 * The parsers visible in one context. Client-controlled strings are only ever looked up in Maps,
 * and lookups are not cached, so nothing grows with what clients send.
 *
 * @example
 * const root = ContentTypeParserStore.createRoot({ bodyLimit: 1_048_576, onProtoPoisoning: 'error', onConstructorPoisoning: 'error' })
 * const child = root.createChild()
 * child.add('application/xml', { parseAs: 'string' }, (request, body) => parseXml(body), instance)
 */
export class ContentTypeParserStore {
  /** String matchers by essence; within an essence, the ones naming more parameters first. */
  private readonly byEssence: Map<string, ContentTypeParserEntry[]>;
  private readonly patterns: ContentTypeParserEntry[];
  private catchAll: ContentTypeParserEntry | undefined;
  /** The factory `bodyLimit`, used when a caller gives no valid route limit. */
  readonly defaultBodyLimit: number;
  /**
   * Content-Type header → what it selects (null: refused), so a repeated header is parsed and
   * matched once. The keys come from clients, so the map is capped (oldest entry out first) and
   * cleared whenever the parsers change.
   */
  private readonly lookups = new Map<string, HeaderLookup | null>();
  // The last header and its answer: comparing a client's repeated Content-Type (a fresh string
  // each request) with it is cheaper than hashing it for the Map (~400 instructions a request).
  private lastHeader: string | undefined = undefined;
  private lastLookup: HeaderLookup | null = null;

  constructor(parent?: ContentTypeParserStore, defaultBodyLimit = DEFAULT_BODY_LIMIT) {
    this.byEssence = new Map();
    if (parent !== undefined) {
      for (const [essence, entries] of parent.byEssence) this.byEssence.set(essence, entries.slice());
    }
    this.patterns = parent === undefined ? [] : parent.patterns.slice();
    this.catchAll = parent?.catchAll;
    this.defaultBodyLimit = parent?.defaultBodyLimit ?? defaultBodyLimit;
  }

  /** The store of the root context, holding the built-in JSON and text parsers. */
  static createRoot(options: BodyParsingOptions): ContentTypeParserStore {
    const limit = options?.bodyLimit;
    const store = new ContentTypeParserStore(undefined, Number.isInteger(limit) && limit > 0 ? limit : DEFAULT_BODY_LIMIT);
    const jsonParser = createJsonParser(options?.onProtoPoisoning as PoisoningAction, options?.onConstructorPoisoning as PoisoningAction);
    store.insert({
      ...prepareMatcher('application/json'),
      parser: jsonParser,
      parseAs: 'string',
      bodyLimit: undefined,
      instance: undefined,
      builtin: true,
      owner: store,
    });
    store.insert({
      ...prepareMatcher('text/plain'),
      parser: parseTextBody,
      parseAs: 'string',
      bodyLimit: undefined,
      instance: undefined,
      builtin: true,
      owner: store,
    });
    return store;
  }

  /** A store for a child context: a copy of this one's parsers as they are now. */
  createChild(): ContentTypeParserStore {
    return new ContentTypeParserStore(this);
  }

  /**
   * Registers `parser` for one or more matchers; all of them are checked before any is added.
   * `instance` is the `this` the parser runs with.
   */
  add(
    matcher: string | RegExp | Array<string | RegExp>,
    options: ContentTypeParserOptions,
    parser: ContentTypeParserFunction | undefined,
    instance: unknown,
  ): void {
    const matchers: unknown[] = Array.isArray(matcher) ? matcher : [matcher];
    if (matchers.length === 0) throw errorCodes.FST_ERR_CTP_INVALID_TYPE();
    // Fastify's order: the matcher's kind, then the parser, then whether the string is a media type.
    for (const each of matchers) assertMatcherKind(each);
    if (typeof parser !== 'function') throw errorCodes.FST_ERR_CTP_INVALID_HANDLER();
    const prepared = matchers.map(prepareMatcher);
    const parseAs = options?.parseAs;
    if (parseAs !== undefined && parseAs !== 'string' && parseAs !== 'buffer') throw errorCodes.FST_ERR_CTP_INVALID_PARSE_TYPE(parseAs);
    const bodyLimit = options?.bodyLimit;
    if (bodyLimit !== undefined && !(Number.isInteger(bodyLimit) && bodyLimit > 0)) throw errorCodes.FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT(bodyLimit);

    const seen = new Set<string>();
    for (const { label } of prepared) {
      const existing = this.find(label);
      // Replacing a built-in, or a parser inherited from the parent, is allowed; two parsers
      // registered for the same matcher in the same context are a mistake.
      if (seen.has(label) || (existing !== undefined && existing.owner === this && !existing.builtin)) {
        throw errorCodes.FST_ERR_CTP_ALREADY_PRESENT(label);
      }
      seen.add(label);
    }
    for (const entry of prepared) {
      this.insert({ ...entry, parser, parseAs, bodyLimit, instance, builtin: false, owner: this });
    }
  }

  /** Whether a parser is registered for exactly this matcher (`'*'`, a media type or a RegExp). */
  has(matcher: string | RegExp): boolean {
    // Asking about anything else is a mistake worth reporting, as in Fastify, not a quiet false.
    if (typeof matcher !== 'string' && !(matcher instanceof RegExp)) throw errorCodes.FST_ERR_CTP_INVALID_TYPE();
    const label = labelOf(matcher);
    return label !== undefined && this.find(label) !== undefined;
  }

  /** Removes the parsers of these matchers from this context; true when at least one was removed. */
  remove(matcher: string | RegExp | Array<string | RegExp>): boolean {
    const matchers: unknown[] = Array.isArray(matcher) ? matcher : [matcher];
    let removed = false;
    for (const one of matchers) {
      const label = labelOf(one);
      if (label !== undefined && this.delete(label)) removed = true;
    }
    return removed;
  }

  /** Removes every parser of this context, built-ins and catch-all included. */
  removeAll(): void {
    this.forgetLookups();
    this.byEssence.clear();
    this.patterns.length = 0;
    this.catchAll = undefined;
  }

  /** Matchers of this store, for printPlugins: media types, then RegExps, then `*`. */
  describe(): string[] {
    const labels: string[] = [];
    for (const entries of this.byEssence.values()) for (const entry of entries) labels.push(entry.label);
    for (const entry of this.patterns) labels.push(entry.label);
    if (this.catchAll !== undefined) labels.push('*');
    return labels;
  }

  /**
   * The parser for a parsed request media type: the media-type matcher of the same essence whose
   * parameters are all present (the one naming the most parameters wins), else the first RegExp
   * that matches the essence, else the catch-all.
   */
  match(mediaType: MediaType): ContentTypeParserEntry | undefined {
    const candidates = this.byEssence.get(mediaType.essence);
    if (candidates !== undefined) {
      for (const entry of candidates) {
        if (parametersMatch((entry.mediaType as MediaType).parameters, mediaType.parameters)) return entry;
      }
    }
    for (const entry of this.patterns) {
      if ((entry.pattern as RegExp).test(mediaType.essence)) return entry;
    }
    return this.catchAll;
  }

  /** The catch-all parser, used for bodies sent without a Content-Type. */
  getCatchAll(): ContentTypeParserEntry | undefined {
    return this.catchAll;
  }

  private find(label: string): ContentTypeParserEntry | undefined {
    if (label === '*') return this.catchAll;
    for (const entry of this.patterns) if (entry.label === label) return entry;
    const essence = parseMediaType(label)?.essence;
    const entries = essence === undefined ? undefined : this.byEssence.get(essence);
    return entries?.find((entry) => entry.label === label);
  }

  /** Parses a Content-Type header and picks its parser: null when malformed or unsupported. */
  lookup(header: string): HeaderLookup | null {
    if (header === this.lastHeader) return this.lastLookup;
    let result = this.lookups.get(header);
    if (result === undefined) {
      const mediaType = parseMediaType(header);
      const entry = mediaType === null ? undefined : this.match(mediaType);
      result = mediaType === null || entry === undefined ? null : { mediaType, entry };
      if (this.lookups.size >= LOOKUP_CACHE_LIMIT) this.lookups.delete(this.lookups.keys().next().value as string);
      this.lookups.set(header, result);
    }
    this.lastHeader = header;
    this.lastLookup = result;
    return result;
  }

  private forgetLookups(): void {
    this.lookups.clear();
    this.lastHeader = undefined;
    this.lastLookup = null;
  }

  private delete(label: string): boolean {
    this.forgetLookups();
    if (label === '*') {
      const had = this.catchAll !== undefined;
      this.catchAll = undefined;
      return had;
    }
    const patternIndex = this.patterns.findIndex((entry) => entry.label === label);
    if (patternIndex !== -1) {
      this.patterns.splice(patternIndex, 1);
      return true;
    }
    const essence = parseMediaType(label)?.essence;
    const entries = essence === undefined ? undefined : this.byEssence.get(essence);
    const index = entries === undefined ? -1 : entries.findIndex((entry) => entry.label === label);
    if (entries === undefined || essence === undefined || index === -1) return false;
    // In place: a child sliced its own arrays when it was created.
    entries.splice(index, 1);
    if (entries.length === 0) this.byEssence.delete(essence);
    return true;
  }

  private insert(entry: ContentTypeParserEntry): void {
    this.delete(entry.label);
    if (entry.kind === 'catch-all') {
      this.catchAll = entry;
    } else if (entry.kind === 'pattern') {
      this.patterns.push(entry);
    } else {
      const mediaType = entry.mediaType as MediaType;
      const entries = this.byEssence.get(mediaType.essence) ?? [];
      const count = Object.keys(mediaType.parameters).length;
      // Stable: after every entry naming as many parameters or more.
      let index = entries.findIndex((other) => Object.keys((other.mediaType as MediaType).parameters).length < count);
      if (index === -1) index = entries.length;
      entries.splice(index, 0, entry);
      this.byEssence.set(mediaType.essence, entries);
    }
  }
}
