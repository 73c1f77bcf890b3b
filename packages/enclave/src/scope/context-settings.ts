// Per-context settings that plugins inherit and may override for their own subtree, as Fastify
// keeps them on its instance prototype chain: the request-id generator, the child-logger
// factory, and the request loggers' level and serializers (register options `logLevel` and
// `logSerializers`). Kept beside the context (not in it) so the core context stays small.
import type { IncomingMessage } from 'node:http';
import type { Context } from '../state/application.js';
import type { LogSerializers } from '../state/options.js';
import type { ChildLoggerFactory } from '../types.js';

export type { ChildLoggerFactory, LogSerializers };

export interface ContextSettings {
  genReqId: (raw: IncomingMessage) => string;
  childLoggerFactory: ChildLoggerFactory;
  logLevel: string;
  /** This context's own serializers; `logSerializersOf` merges them with the ancestors'. */
  logSerializers: LogSerializers;
}

const own = new WeakMap<Context, Partial<ContextSettings>>();
/** Contexts that set an error handler themselves (for `allowErrorHandlerOverride: false`). */
const errorHandlerSet = new WeakSet<Context>();

export function setContextSetting<Key extends keyof ContextSettings>(context: Context, key: Key, value: ContextSettings[Key]): void {
  const settings = own.get(context) ?? {};
  settings[key] = value;
  own.set(context, settings);
}

/** The setting as seen from `context`: its own, else the nearest ancestor's. */
export function contextSetting<Key extends keyof ContextSettings>(context: Context, key: Key): ContextSettings[Key] | undefined {
  for (let current: Context | null = context; current !== null; current = current.parent) {
    const value = own.get(current)?.[key];
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The request loggers' serializers in `context`: the ancestors', each context's own winning. */
export function logSerializersOf(context: Context): LogSerializers | undefined {
  let merged: LogSerializers | undefined;
  for (let current: Context | null = context; current !== null; current = current.parent) {
    const serializers = own.get(current)?.logSerializers;
    if (serializers !== undefined) merged = { ...serializers, ...merged };
  }
  return merged;
}

/** Records an error handler set in `context`; returns whether one was set there before. */
export function markErrorHandlerSet(context: Context): boolean {
  const before = errorHandlerSet.has(context);
  errorHandlerSet.add(context);
  return before;
}

/** Fastify's default: a child of the application's logger with the request's bindings. */
export const defaultChildLoggerFactory: ChildLoggerFactory = (logger, bindings, options) => logger.child(bindings, options);
