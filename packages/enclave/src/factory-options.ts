// The factory options Enclave honours, by name. test/api-surface.test.ts compares these lists
// with the options the installed Fastify reads, and each option has a behaviour test of its own;
// a name goes here only once the option does what Fastify's does.

/** Top-level factory options. */
export const honouredFactoryOptions: readonly string[] = [
  'ajv',
  'allowUnsafeRegex',
  'bodyLimit',
  'caseSensitive',
  'connectionTimeout',
  'constraints',
  'disableRequestLogging',
  'exposeHeadRoutes',
  'forceCloseConnections',
  'genReqId',
  'http2',
  'http2SessionTimeout',
  'https',
  'ignoreDuplicateSlashes',
  'ignoreTrailingSlash',
  'keepAliveTimeout',
  'logger',
  'loggerInstance',
  'maxParamLength',
  'maxRequestsPerSocket',
  'onConstructorPoisoning',
  'onProtoPoisoning',
  'pluginTimeout',
  'querystringParser',
  'requestIdHeader',
  'requestIdLogLabel',
  'requestTimeout',
  'return503OnClosing',
  'routerOptions',
  'schemaController',
  'schemaErrorFormatter',
  'serverFactory',
  'trustProxy',
];

/** Keys of `routerOptions` (most are also accepted at the top level, as in Fastify). */
export const honouredRouterOptions: readonly string[] = [
  'allowUnsafeRegex',
  'caseSensitive',
  'constraints',
  'ignoreDuplicateSlashes',
  'ignoreTrailingSlash',
  'maxParamLength',
  'querystringParser',
];
