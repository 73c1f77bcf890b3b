// The hook and error-handler entries a context keeps: a function and the instance it runs with.
// Types only, on the lowest floor: the scope, the lifecycle and the application hooks all read them.

/** A hook as registered: the function and the instance it runs with as `this`. */
export interface HookEntry {
  fn: (...args: any[]) => any;
  instance: object;
  /** When the hook took effect, across the application: a route runs its hooks in this order. */
  order?: number;
  /**
   * The function is an arrow function, whose `this` is its own, so the runners call it directly
   * rather than through Function.prototype.call. Decided when the hook is added (a route's own
   * hooks: when the route is compiled).
   */
  lexicalThis?: boolean;
}

/** A link in the error-handler chain: a handler that rethrows passes the error to `parent`. */
export interface ErrorHandlerEntry {
  fn: (this: any, error: any, request: any, reply: any) => unknown;
  instance: object;
  /** The next handler up; null only for the default handler, which ends every chain. */
  parent: ErrorHandlerEntry | null;
}
