// STUB — to be replaced by the content-type helper (issue 3, §4.7). Keep these signatures.
import type { Readable } from 'node:stream';

export interface MediaType {
  /** `type/subtype`, lower-cased. */
  essence: string;
  type: string;
  subtype: string;
  /** Parameter names lower-cased; a null-prototype object. */
  parameters: Record<string, string>;
}

export interface ContentTypeParserOptions {
  parseAs?: 'string' | 'buffer';
  bodyLimit?: number;
}

export type ContentTypeParserFunction = (this: any, request: any, body: any, done?: (err: Error | null, body?: unknown) => void) => unknown;

export interface BodyParsingOptions {
  bodyLimit: number;
  onProtoPoisoning: 'error' | 'remove' | 'ignore';
  onConstructorPoisoning: 'error' | 'remove' | 'ignore';
}

export class ContentTypeParserStore {
  static createRoot(_options: BodyParsingOptions): ContentTypeParserStore {
    return new ContentTypeParserStore();
  }
  createChild(): ContentTypeParserStore {
    return new ContentTypeParserStore();
  }
  /** `instance` is the `this` the parser runs with. */
  add(_matcher: string | RegExp | Array<string | RegExp>, _options: ContentTypeParserOptions, _parser: ContentTypeParserFunction, _instance: unknown): void {}
  has(_matcher: string | RegExp): boolean {
    return false;
  }
  remove(_matcher: string | RegExp | Array<string | RegExp>): boolean {
    return false;
  }
  removeAll(): void {}
  /** Matchers of this store, for printPlugins. */
  describe(): string[] {
    return [];
  }
}

/**
 * Parses the request body: decides whether there is one, picks the parser by the parsed
 * Content-Type, reads `payload` within `bodyLimit` (checking Content-Length), runs the parser.
 * Calls `done(err)` with a coded 4xx error, or `done(null, body, mediaTypeEssence)`.
 */
export function parseRequestBody(
  _store: ContentTypeParserStore,
  _request: any,
  _payload: Readable,
  _bodyLimit: number,
  done: (err: Error | null, body?: unknown, mediaType?: string) => void,
): void {
  done(null, undefined, undefined);
}

/** Parses a Content-Type value by the RFC 9110 grammar; null when malformed. */
export function parseMediaType(_value: string): MediaType | null {
  return null;
}
