// The hooks a context keeps: a function and the instance it runs with. Types only, on the lowest
// floor: the scope, the lifecycle and the application hooks all read them.

/**
 * A hook function. Each kind takes its own arguments (a request hook `(request, reply, done)`, an
 * application hook `(done)`, onRoute `(routeOptions)`): the runners pass them, and the user's
 * functions are checked to be functions when added.
 */
export type HookFunction = (this: unknown, ...args: unknown[]) => unknown;

/** A hook as registered: the function and the instance it runs with as `this`. */
export interface HookEntry {
  fn: HookFunction;
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
