// The application's options once the factory has checked them and filled in the defaults: what
// every later module reads instead of the options object the user gave. Types only.
import type { LogController } from '../log-controller.js';

/** The factory's options, checked and with their defaults (server.ts builds them). */
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
  /** `true`, or a function deciding per request (`false` logs every request). */
  disableRequestLogging: boolean | ((request: any) => boolean);
  allowErrorHandlerOverride: boolean;
  /** Milliseconds a route's handler may take before a 503 (0: no limit); routes may override. */
  handlerTimeout: number;
  /** Rewrites each request's URL before routing, with the root instance as `this`. */
  rewriteUrl: ((this: unknown, raw: any) => string) | null;
  /** Answers the router's own errors (bad URL, over-long parameter) instead of the error handlers. */
  frameworkErrors: ((error: Error, request: any, reply: any) => unknown) | null;
  /** The `LogController` writing the per-request log lines: the option's, else a default one. */
  logController: LogController;
  /** `;` also starts the query string (`/a;b=1` is `/a` with `b=1`). */
  useSemicolonDelimiter: boolean;
  requestIdHeader: string | false;
  requestIdLogLabel: string;
  genReqId: (raw: any) => string;
  querystringParser: (query: string) => Record<string, unknown>;
  trustProxy: ((address: string, hop: number) => boolean) | null;
  onProtoPoisoning: 'error' | 'remove' | 'ignore';
  onConstructorPoisoning: 'error' | 'remove' | 'ignore';
  forceCloseConnections: boolean | 'idle';
}
