// State shared by every context of one application: options, router, loader and server.
import type { Server } from 'node:http';
import type Router from 'find-my-way';
import type { Milestone } from '../boot.js';
import type { LogController } from '../log-controller.js';
import type { Logger } from '../logger.js';
import type { CompiledRoute } from '../lifecycle/compiled-route.js';
import type { RouteRecord } from '../routing/route-record.js';
import type { SchemaCache } from '../schema/schema-cache.js';
import type { Context, HookEntry } from './context.js';
import type { PluginRecord } from './plugin-loader.js';

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

export interface RootState {
  readonly options: NormalizedOptions;
  /** The options the factory was given (frozen), for `initialConfig`. */
  readonly initialConfig: Readonly<Record<string, unknown>>;
  readonly router: Router.Instance<Router.HTTPVersion.V1>;
  readonly routes: RouteRecord[];
  readonly contexts: Context[];
  readonly log: Logger;
  readonly server: Server;
  /** The server's request listener, also exposed as `instance.routing`. */
  readonly requestListener: (raw: any, res: any) => void;
  /** `routerOptions.compile`: compile find-my-way's trees once every route is in (at ready). */
  readonly compileRouter: boolean;
  /** Application hooks that run once, in registration order, wherever they were added. */
  readonly applicationHooks: {
    onReady: HookEntry[];
    onListen: HookEntry[];
    preClose: HookEntry[];
    onClose: HookEntry[];
  };
  /** Not-found routes by prefix, longest first; the root's ('') is last. Built at ready. */
  notFoundRoutes: Array<{ prefix: string; route: CompiledRoute }>;
  findNotFoundRoute(url: string): CompiledRoute;
  /** What `frameworkErrors` answers through (a bad URL, an over-long parameter). Built at ready. */
  frameworkErrorRoute: CompiledRoute | null;
  /** Compiled schemas kept between starts (`schemaCache` / `ENCLAVE_SCHEMA_CACHE`), or null. */
  schemaCache: SchemaCache | null;
  /** Whether a real logger is set (per-request child loggers and request logs). */
  readonly logging: boolean;
  rootPlugin: PluginRecord | null;
  /** The plugins loading, outermost first (which one a call belongs to: plugin-attribution.ts). */
  loadingStack: PluginRecord[];
  /** The plugin whose body (or `after` callback) is running synchronously right now, if any. */
  runningBody: PluginRecord | null;
  readyPromise: Promise<void> | null;
  /** While onReady hooks run (they may still decorate the instance). */
  runningReadyHooks: boolean;
  /** Settled once every plugin has loaded and routes are compiled, before onReady hooks. */
  readonly loaded: Milestone;
  /** Set once every plugin has loaded: no more plugins, routes, hooks or decorators. */
  booted: boolean;
  listening: boolean;
  closing: boolean;
  closed: boolean;
  /** The one close under way (or done): close() is idempotent. */
  closePromise: Promise<void> | null;
  /** While true, an instance's `then` reads as undefined (resolving a promise with it). */
  thenGuard: boolean;
}
