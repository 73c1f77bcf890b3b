import bearerAuth from '../index.js';

export default bearerAuth;
export { bearerAuth };
export type {
  BearerAuthError,
  BearerAuthFunction,
  BearerAuthHook,
  BearerAuthInstance,
  BearerAuthOptions,
  BearerAuthReply,
  BearerAuthRequest,
  HookDone,
  VerifyBearerAuth,
} from '../index.js';
