// Decorator values and the `decorate*` method types (Fastify's shapes): a name declared on the
// decorated type takes a value of its declared type. Bottom floor: imports no other type file.

/** A decorator given as accessors; `this` is the decorated object. */
export interface DecoratorAccessors<Value, Target> {
  getter(this: Target): Value;
  setter?(this: Target, value: Value): void;
}

/** The type a decorator must have: the one declared on `Target` under that name, else any. */
export type DeclaredDecorator<Target, Name> = Name extends keyof Target ? Target[Name] : unknown;

/**
 * A decorator's value (Fastify's name, which its diagnostics show): the value itself (a function
 * gets the decorated object as `this`) or accessors. A conditional on `Value`, so that an arrow
 * function given for a declared method is typed from the declaration (`decorate('greet', name => …)`).
 */
export type GetterSetter<Target, Value> =
  // any: matches every function type, whatever its parameters (unknown[] would not).
  (Value extends (...args: any[]) => unknown ? (this: Target, ...args: Parameters<Value>) => ReturnType<Value> : Value) | DecoratorAccessors<Value, Target>;

/** `decorateRequest` and `decorateReply` (Fastify's name): `Target` is what they decorate. */
export interface DecorationMethod<Target, Return> {
  <Value extends DeclaredDecorator<Target, Name>, Name extends string | symbol = string | symbol>(
    name: Name,
    value: GetterSetter<Target, Value>,
    dependencies?: string[],
  ): Return;
  /** Declares a decorator without a value (`null` until set), for the dependency check. */
  (name: string | symbol): Return;
  (name: string | symbol, value: null | undefined, dependencies: string[]): Return;
}
