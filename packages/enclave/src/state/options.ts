// The application's options once the factory has checked them and filled in the defaults: what
// every later module reads instead of the options object the user gave. Types only.
import type { IncomingMessage } from 'node:http';
import type { LogController } from '../log-controller.js';

/** The factory's options, checked and with their defaults (normalize-options.ts builds them). */
export interface NormalizedOptions {
  bodyLimit: number;
  pluginTimeout: number;
  exposeHeadRoutes: boolean;
  prefixTrailingSlash: 'slash' | 'no-slash' | 'both';
  maxParamLength: number;
  caseSensitive: boolean;
  ignoreTrailingSlash: boolean;
  ignoreDuplicateSlashes: boolean;
  return503OnClosing: boolean;
  /** `true`, or a function of the request deciding for it (`false` logs every request). */
  disableRequestLogging: boolean | ((request: object) => boolean);
  allowErrorHandlerOverride: boolean;
  /** Milliseconds a route's handler may take before a 503 (0: no limit); routes may override. */
  handlerTimeout: number;
  /** Rewrites each request's URL before routing, with the root instance as `this`. */
  rewriteUrl: ((this: unknown, raw: IncomingMessage) => unknown) | null;
  /** Answers the router's own errors (bad URL, over-long parameter) instead of the error handlers. */
  frameworkErrors: ((error: Error, request: object, reply: object) => unknown) | null;
  /** The `LogController` writing the per-request log lines: the option's, else a default one. */
  logController: LogController;
  /** `;` also starts the query string (`/a;b=1` is `/a` with `b=1`). */
  useSemicolonDelimiter: boolean;
  requestIdHeader: string | false;
  requestIdLogLabel: string;
  genReqId: (raw: IncomingMessage) => string;
  querystringParser: (query: string) => Record<string, unknown>;
  trustProxy: ((address: string, hop: number) => boolean) | null;
  onProtoPoisoning: 'error' | 'remove' | 'ignore';
  onConstructorPoisoning: 'error' | 'remove' | 'ignore';
  forceCloseConnections: boolean | 'idle';
}

/** The request loggers' serializers, by the name of the field they serialize. */
export type LogSerializers = Record<string, (value: never) => unknown>;

/** Options for a request's child logger. */
export interface LogOptions {
  level?: string;
  serializers?: LogSerializers;
}
