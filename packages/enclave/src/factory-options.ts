// The factory options Enclave honours, by name. test/api-surface.test.ts compares these lists
// with the options the installed Fastify reads, and each option has a behaviour test of its own;
// a name goes here only once the option does what Fastify's does.

/** Top-level factory options. */
export const honouredFactoryOptions: readonly string[] = [
  'ajv',
  'allowErrorHandlerOverride',
  'allowUnsafeRegex',
  'bodyLimit',
  'buildPrettyMeta',
  'caseSensitive',
  'childLoggerFactory',
  'clientErrorHandler',
  'connectionTimeout',
  'constraints',
  'defaultRoute',
  'disableRequestLogging',
  'exposeHeadRoutes',
  'forceCloseConnections',
  'frameworkErrors',
  'genReqId',
  'handlerTimeout',
  'http',
  'http2',
  'http2SessionTimeout',
  'https',
  'ignoreDuplicateSlashes',
  'ignoreTrailingSlash',
  'keepAliveTimeout',
  'logger',
  'logController',
  'loggerInstance',
  'maxParamLength',
  'maxRequestsPerSocket',
  'onBadUrl',
  'onConstructorPoisoning',
  'onMaxParamLength',
  'onProtoPoisoning',
  'pluginTimeout',
  'querystringParser',
  'requestIdHeader',
  'requestIdLogLabel',
  'requestTimeout',
  'return503OnClosing',
  'rewriteUrl',
  'routerOptions',
  'schemaController',
  'schemaErrorFormatter',
  'serializerOpts',
  'serverFactory',
  'trustProxy',
  'useSemicolonDelimiter',
];

/** Keys of `routerOptions` (most are also accepted at the top level, as in Fastify). */
export const honouredRouterOptions: readonly string[] = [
  'allowUnsafeRegex',
  'buildPrettyMeta',
  'caseSensitive',
  'compile',
  'constraints',
  'defaultRoute',
  'ignoreDuplicateSlashes',
  'ignoreTrailingSlash',
  'maxParamLength',
  'onBadUrl',
  'onMaxParamLength',
  'querystringParser',
  'useSemicolonDelimiter',
];

/** The options object the factory was given, before it is checked: read by name. */
export type GivenOptions = Readonly<Record<string, unknown>>;

/** `routerOptions[name]` as given, when `routerOptions` is an object. */
export function nestedRouterOption(options: GivenOptions, name: string): unknown {
  const { routerOptions } = options;
  return routerOptions !== null && typeof routerOptions === 'object' ? (routerOptions as Record<string, unknown>)[name] : undefined;
}

/** A router option: `routerOptions[name]` wins over the (deprecated) top-level `name`, as in Fastify. */
export function routerOption(options: GivenOptions, name: string): unknown {
  return nestedRouterOption(options, name) ?? options[name];
}
