// Router callbacks a Fastify app may pass in `routerOptions` (or, deprecated, at the top level):
// they replace Enclave's answer for an unmatched URL, a malformed one, or an over-long parameter.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalidOption } from '../errors.js';
import { type GivenOptions, nestedRouterOption, routerOption } from '../factory-options.js';

type RawHandler = (raw: IncomingMessage, res: ServerResponse) => void;
type PathHandler = (path: string, raw: IncomingMessage, res: ServerResponse) => void;

export interface RouterHooks {
  readonly defaultRoute: RawHandler | null;
  readonly onBadUrl: PathHandler | null;
  readonly onMaxParamLength: PathHandler | null;
  /** `routerOptions.compile`: have find-my-way compile its trees at ready. */
  readonly compile: boolean;
}

/** The user's callback, checked to be a function (the router calls it with what its type says). */
function hook<Fn>(options: GivenOptions, name: string): Fn | null {
  const value = routerOption(options, name);
  if (value === undefined || value === null) return null;
  if (typeof value !== 'function') throw invalidOption(`routerOptions.${name}`, 'must be a function', value);
  return value as Fn;
}

export function routerHooks(options: GivenOptions): RouterHooks {
  const compile = nestedRouterOption(options, 'compile') ?? false;
  if (typeof compile !== 'boolean') throw invalidOption('routerOptions.compile', 'must be boolean', compile);
  return {
    defaultRoute: hook<RawHandler>(options, 'defaultRoute'),
    onBadUrl: hook<PathHandler>(options, 'onBadUrl'),
    onMaxParamLength: hook<PathHandler>(options, 'onMaxParamLength'),
    compile,
  };
}
