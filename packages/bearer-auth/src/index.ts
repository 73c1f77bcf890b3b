import type { BearerAuthError as BearerAuthErrorType } from './errors';
import type {
  BearerAuthHook as BearerAuthHookType,
  BearerAuthInstance as BearerAuthInstanceType,
  BearerAuthReply as BearerAuthReplyType,
  BearerAuthRequest as BearerAuthRequestType,
  HookDone as HookDoneType,
  VerifyBearerAuth as VerifyBearerAuthType,
} from './host';
import { type BearerAuthFunction as BearerAuthFunctionType, type BearerAuthOptions as BearerAuthOptionsType, resolveOptions } from './options';
import { createBearerAuthHook, createRequestCheck, createVerifyBearerAuth } from './verify';

/** The plugin function, which also carries itself as `default` and `bearerAuth` for every import style. */
interface BearerAuthPlugin {
  (instance: BearerAuthInstanceType, options: BearerAuthOptionsType): Promise<void>;
  readonly default: BearerAuthPlugin;
  readonly bearerAuth: BearerAuthPlugin;
}

async function registerBearerAuth(instance: BearerAuthInstanceType, options: BearerAuthOptionsType): Promise<void> {
  const resolved = resolveOptions(options);
  const check = createRequestCheck(resolved);
  if (resolved.addHook) instance.addHook('onRequest', createBearerAuthHook(check, resolved));
  else instance.decorate('verifyBearerAuth', createVerifyBearerAuth(check, resolved));
}

// The plugin-wrapper protocol (SPEC §3.3), stamped here rather than through
// `@enclavejs/plugin` so that neither package needs the other at build time. Skipping the
// override makes the hook (or decorator) land in the context that registers the plugin,
// which is what limits protection to that context and its descendants: registered inside
// a child, it guards the child's routes and its descendants', never a parent's or a
// sibling's. Without it the hook would sit in a fresh context of its own, guarding nothing.
const pluginName = '@enclavejs/bearer-auth';
Object.defineProperties(registerBearerAuth, {
  [Symbol.for('skip-override')]: { value: true },
  [Symbol.for('fastify.display-name')]: { value: pluginName },
  [Symbol.for('plugin-meta')]: { value: { name: pluginName } },
  default: { value: registerBearerAuth, enumerable: true },
  bearerAuth: { value: registerBearerAuth, enumerable: true },
});

/**
 * Bearer-token authentication (RFC 6750) for the context it is registered in and its
 * descendants. A request without a valid `Authorization: Bearer <token>` header is answered
 * with 401 and a `WWW-Authenticate` challenge before any handler runs.
 *
 * @example
 * import enclave from 'enclavejs';
 * import bearerAuth from '@enclavejs/bearer-auth';
 *
 * const app = enclave();
 * app.get('/health', async () => ({ ok: true })); // public
 * app.register(async (api) => {
 *   await api.register(bearerAuth, { keys: new Set(['token-for-ci', 'token-for-ops']) });
 *   api.get('/api/orders', async () => []); // needs `Authorization: Bearer token-for-ci`
 * });
 */
const bearerAuth = registerBearerAuth as BearerAuthPlugin;

// Types ride on a namespace merged with the value, because `export =` (which makes
// `require('@enclavejs/bearer-auth')` return the function itself) allows no other exports.
declare namespace bearerAuth {
  export type BearerAuthOptions = BearerAuthOptionsType;
  export type BearerAuthFunction = BearerAuthFunctionType;
  export type BearerAuthError = BearerAuthErrorType;
  export type BearerAuthRequest = BearerAuthRequestType;
  export type BearerAuthReply = BearerAuthReplyType;
  export type BearerAuthInstance = BearerAuthInstanceType;
  export type BearerAuthHook = BearerAuthHookType;
  export type VerifyBearerAuth = VerifyBearerAuthType;
  export type HookDone = HookDoneType;
}

export = bearerAuth;
