// Which hooks exist, and how many arguments a callback-style ("done") version takes. The count
// tells an async hook that wrongly declares `done` from one that legitimately uses it.

/** Hooks that run for each request, in lifecycle order. */
export const requestHookNames = [
  'onRequest',
  'preParsing',
  'preValidation',
  'preHandler',
  'preSerialization',
  'onSend',
  'onResponse',
  'onError',
  'onTimeout',
  'onRequestAbort',
] as const;

/** Hooks that run for the application itself. */
export const applicationHookNames = ['onRoute', 'onRegister', 'onReady', 'onListen', 'preClose', 'onClose'] as const;

export type RequestHookName = (typeof requestHookNames)[number];
export type ApplicationHookName = (typeof applicationHookNames)[number];
export type HookName = RequestHookName | ApplicationHookName;

/** Arity of the callback style: the position of `done` plus one. */
export const doneArity: Record<HookName, number> = {
  onRequest: 3,
  preParsing: 4,
  preValidation: 3,
  preHandler: 3,
  preSerialization: 4,
  onSend: 4,
  onResponse: 3,
  onError: 4,
  onTimeout: 3,
  onRequestAbort: 2,
  onRoute: Number.POSITIVE_INFINITY,
  onRegister: Number.POSITIVE_INFINITY,
  onReady: 1,
  onListen: 1,
  preClose: 1,
  onClose: 2,
};

const allHookNames = new Set<string>([...requestHookNames, ...applicationHookNames]);

export function isHookName(name: string): name is HookName {
  return allHookNames.has(name);
}
