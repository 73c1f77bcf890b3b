// decorate / decorateRequest / decorateReply. Instance decorators are own properties of the
// context's instance (children inherit them through the prototype chain). Request and reply
// decorators go on the context's request/reply prototypes (functions, getters) or into the list
// of fields each request/reply is constructed with (plain values), so a decorator added in one
// context reads as undefined everywhere it is not visible, at no per-request cost.
import { errorCodes } from '../errors.js';
import type { Context } from '../state/application.js';
import { contextPath } from './context.js';
import { decoratorHint } from './plugin-meta.js';

type DecoratorKind = 'instance' | 'request' | 'reply';

interface Accessor {
  getter?: () => unknown;
  setter?: (value: unknown) => void;
}

function isAccessor(value: unknown): value is Accessor {
  return value !== null && typeof value === 'object' && (typeof (value as Accessor).getter === 'function' || typeof (value as Accessor).setter === 'function');
}

/**
 * Properties every request/reply is constructed with (the rest of the built-ins are on the
 * prototypes, where `in` finds them). They count as present, as in Fastify: a dependency on
 * `body` is met, and `decorateRequest('body', …)` is FST_ERR_DEC_ALREADY_PRESENT.
 */
const builtInFields: Record<'request' | 'reply', ReadonlySet<string>> = {
  request: new Set(['id', 'params', 'raw', 'query', 'headers', 'log', 'body']),
  reply: new Set(['raw', 'request', 'log']),
};

function isVisible(context: Context, kind: DecoratorKind, name: string): boolean {
  if (kind === 'instance') return name in context.instance;
  if (builtInFields[kind].has(name)) return true;
  const prototype = kind === 'request' ? context.requestPrototype : context.replyPrototype;
  const fields = kind === 'request' ? context.requestFields : context.replyFields;
  return name in prototype || fields.some(([field]) => field === name);
}

/**
 * Whether `name` is one of the reply's own methods (send, code, header…) that no decorator has
 * replaced yet along the chain: Fastify lets decorateReply shadow those (view engines and
 * plugins that wrap `send` rely on it), while properties and getters stay refused.
 */
function isShadowableReplyMethod(context: Context, name: string): boolean {
  let root = context;
  for (let current: Context | null = context; current !== null; current = current.parent) {
    if (Object.hasOwn(current.replyPrototype, name) || current.ownReplyFields.some(([field]) => field === name)) return false;
    root = current;
  }
  for (let proto = Object.getPrototypeOf(root.replyPrototype); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (descriptor !== undefined) return typeof descriptor.value === 'function';
  }
  return false;
}

function checkDependencies(context: Context, kind: DecoratorKind, name: string, dependencies: unknown): void {
  // `null` means "no dependencies" too: JavaScript callers pass it to reach later arguments.
  if (dependencies === undefined || dependencies === null) return;
  if (!Array.isArray(dependencies)) throw new errorCodes.FST_ERR_DEC_DEPENDENCY_INVALID_TYPE(name);
  for (const dependency of dependencies) {
    if (!isVisible(context, kind, dependency)) {
      throw new errorCodes.FST_ERR_DEC_MISSING_DEPENDENCY(dependency, name, ` (in "${contextPath(context)}")${decoratorHint(context, kind, dependency)}`);
    }
  }
}

/**
 * Adds a decorator of `kind` named `name` to `context`, after checking that the application has
 * not started, the name is free along the context chain and its dependencies are visible.
 */
export function addDecorator(context: Context, kind: DecoratorKind, name: string, value: unknown, dependencies: unknown): void {
  // onReady hooks may still decorate the instance, as in Fastify; requests and replies are
  // compiled by then.
  if (context.root.booted && !(kind === 'instance' && context.root.runningReadyHooks)) throw new errorCodes.FST_ERR_DEC_AFTER_START(name);
  if (isVisible(context, kind, name) && !(kind === 'reply' && isShadowableReplyMethod(context, name))) {
    throw new errorCodes.FST_ERR_DEC_ALREADY_PRESENT(name, ` in "${contextPath(context)}" (decorator names must be unique along a context chain)`);
  }
  checkDependencies(context, kind, name, dependencies);
  if (kind === 'instance') {
    defineOn(context.instance, name, value);
    context.decorators.instance.push(name);
    return;
  }
  // An object or array value would be one object shared by every request.
  if (value !== null && typeof value === 'object' && !isAccessor(value)) {
    throw new errorCodes.FST_ERR_DEC_REFERENCE_TYPE(name, typeof value, Array.isArray(value) ? 'array' : 'object');
  }
  const prototype = kind === 'request' ? context.requestPrototype : context.replyPrototype;
  if (typeof value === 'function' || isAccessor(value)) {
    defineOn(prototype, name, value);
  } else {
    (kind === 'request' ? context.ownRequestFields : context.ownReplyFields).push([name, value]);
  }
  context.decorators[kind].push(name);
}

function defineOn(target: object, name: string, value: unknown): void {
  if (isAccessor(value)) {
    const descriptor: PropertyDescriptor = { configurable: true, enumerable: false };
    if (value.getter) descriptor.get = value.getter;
    if (value.setter) descriptor.set = value.setter;
    Object.defineProperty(target, name, descriptor);
  } else {
    Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: true });
  }
}

/** FST_ERR_DEC_UNDECLARED for a decorator of `kind` that `context` does not see; the hint says where it is. */
export function undeclaredDecorator(context: Context, kind: DecoratorKind, name: string): Error {
  return new errorCodes.FST_ERR_DEC_UNDECLARED(name, kind, `"${contextPath(context)}"`, decoratorHint(context, kind, name));
}

/** Reads a visible instance decorator, or throws FST_ERR_DEC_UNDECLARED naming the context. */
export function getDecorator(context: Context, name: string): unknown {
  if (!(name in context.instance)) throw undeclaredDecorator(context, 'instance', name);
  // A function comes back bound to the instance, as in Fastify (a getter is read once). Read by
  // name: a decorator is a member the instance's type cannot know.
  const value: unknown = (context.instance as object as Record<string, unknown>)[name];
  return typeof value === 'function' ? value.bind(context.instance) : value;
}

export function hasDecorator(context: Context, kind: DecoratorKind, name: string): boolean {
  return isVisible(context, kind, name);
}
