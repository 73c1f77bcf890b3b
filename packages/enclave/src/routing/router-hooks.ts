// Router callbacks a Fastify app may pass in `routerOptions` (or, deprecated, at the top level):
// they replace Enclave's answer for an unmatched URL, a malformed one, or an over-long parameter.
import { invalidOption } from '../errors.js';

type RawHandler = (raw: any, res: any) => void;
type PathHandler = (path: string, raw: any, res: any) => void;

export interface RouterHooks {
  readonly defaultRoute: RawHandler | null;
  readonly onBadUrl: PathHandler | null;
  readonly onMaxParamLength: PathHandler | null;
  /** `routerOptions.compile`: have find-my-way compile its trees at ready. */
  readonly compile: boolean;
}

function hook<Fn>(options: Record<string, any>, name: string): Fn | null {
  const value = options.routerOptions?.[name] ?? options[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'function') throw invalidOption(`routerOptions.${name}`, 'must be a function', value);
  return value as Fn;
}

export function routerHooks(options: Record<string, any>): RouterHooks {
  const compile = options.routerOptions?.compile ?? false;
  if (typeof compile !== 'boolean') throw invalidOption('routerOptions.compile', 'must be boolean', compile);
  return {
    defaultRoute: hook<RawHandler>(options, 'defaultRoute'),
    onBadUrl: hook<PathHandler>(options, 'onBadUrl'),
    onMaxParamLength: hook<PathHandler>(options, 'onMaxParamLength'),
    compile,
  };
}
