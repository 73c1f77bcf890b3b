// `inject()` and `listen()`: what they take and what they resolve to. Bottom floor: no other
// type file is imported.
import type { Readable } from 'node:stream';

/** `app.inject()` options (light-my-request's). */
export interface InjectOptions {
  method?: string;
  url?: string | { pathname: string; protocol?: string; hostname?: string; port?: string | number; query?: string | Record<string, unknown> };
  path?: string;
  query?: Record<string, unknown> | string;
  headers?: Record<string, string | string[] | number | undefined>;
  payload?: unknown;
  body?: unknown;
  cookies?: Record<string, string>;
  remoteAddress?: string;
  authority?: string;
  simulate?: { end?: boolean; split?: boolean; error?: boolean; close?: boolean };
  signal?: AbortSignal;
}

/** The response of `app.inject()`. `json()` is `any` unless you name the type: it is test tooling reading a body you wrote. */
export interface InjectResponse {
  statusCode: number;
  statusMessage: string;
  headers: Record<string, string | string[] | number | undefined>;
  payload: string;
  body: string;
  rawPayload: Buffer;
  trailers: Record<string, string>;
  /** The body parsed as JSON; name the type you expect. */
  json<Body = any>(): Body;
  stream(): Readable;
  cookies: Array<{ name: string; value: string; [attribute: string]: unknown }>;
}

/** `app.inject()` without arguments: a chain that builds the request and sends it on `end()` or `await`. */
export interface InjectChain extends PromiseLike<InjectResponse> {
  get(url: string): InjectChain;
  head(url: string): InjectChain;
  post(url: string): InjectChain;
  put(url: string): InjectChain;
  delete(url: string): InjectChain;
  options(url: string): InjectChain;
  patch(url: string): InjectChain;
  trace(url: string): InjectChain;
  body(payload: unknown): InjectChain;
  payload(payload: unknown): InjectChain;
  headers(headers: Record<string, string | string[] | number | undefined>): InjectChain;
  query(query: Record<string, unknown> | string): InjectChain;
  cookies(cookies: Record<string, string>): InjectChain;
  end(): Promise<InjectResponse>;
  end(callback: (error: Error | null, response?: InjectResponse) => void): void;
}

/** `listen()` options. */
export interface ListenOptions {
  port?: number | string;
  /** Default `'localhost'`. */
  host?: string;
  backlog?: number;
  /** A Unix socket (or Windows pipe) to listen on instead of a port. */
  path?: string;
  readableAll?: boolean;
  writableAll?: boolean;
  exclusive?: boolean;
  ipv6Only?: boolean;
  /** Aborting it closes the application. */
  signal?: AbortSignal;
  listenTextResolver?: (address: string) => string;
}

/**
 * Fastify's name for `inject()`'s callback (light-my-request's `CallbackFunc`). Enclave calls it
 * with `null` as the error on success, as Fastify does; Fastify's type says `undefined`, and a
 * callback written for either that tests `if (error)` reads both.
 */
export type LightMyRequestCallback = (error: Error | undefined, response: InjectResponse | undefined) => void;
