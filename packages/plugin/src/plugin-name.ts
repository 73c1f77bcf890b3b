import { basename, extname } from 'node:path';

/**
 * Names an unnamed plugin after what a reader would recognise: the function's own name, or
 * else the file that called `plugin()` (usually the plugin's module), or `anonymous`.
 *
 * @param fn - the plugin function being marked
 * @param caller - the function whose caller is the plugin's module (frames from it up are skipped)
 * @returns a readable name, never empty
 * @example
 * ```ts
 * derivePluginName(async function database() {}, plugin); // 'database'
 * derivePluginName(async () => {}, plugin); // 'db-plugin' when called from db-plugin.mjs
 * ```
 */
export function derivePluginName(fn: Function, caller: Function): string {
  if (typeof fn.name === 'string' && fn.name.length > 0) return fn.name;
  const file = callerFileName(caller);
  if (file === undefined) return 'anonymous';
  // Both `/home/x/db.mjs` and `file:///C:/x/db.mjs` (ESM) end in the module's file name.
  const fileName = basename(file.replaceAll('\\', '/'));
  return basename(fileName, extname(fileName)) || 'anonymous';
}

/**
 * Reads the file name of the first stack frame above `caller`, through V8's structured
 * call sites rather than by parsing the formatted stack text (which tools may rewrite).
 */
function callerFileName(caller: Function): string | undefined {
  const previousPrepare = Error.prepareStackTrace;
  const previousLimit = Error.stackTraceLimit;
  try {
    Error.prepareStackTrace = (_error, callSites) => callSites;
    Error.stackTraceLimit = 1;
    const holder: { stack?: unknown } = {};
    Error.captureStackTrace(holder, caller);
    const callSites = holder.stack as NodeJS.CallSite[] | undefined;
    return callSites?.[0]?.getFileName() ?? undefined;
  } catch {
    return undefined;
  } finally {
    Error.prepareStackTrace = previousPrepare;
    Error.stackTraceLimit = previousLimit;
  }
}

/**
 * Turns a plugin name into the identifier under which it is also reachable as a property of
 * itself, so that `import { myPlugin } from 'my-plugin'` works for a CommonJS plugin.
 *
 * @example
 * ```ts
 * toIdentifierName('@acme/rate-limit'); // 'acmeRateLimit'
 * toIdentifierName('db-pool'); // 'dbPool'
 * ```
 */
export function toIdentifierName(name: string): string {
  const unscoped = name.startsWith('@') ? name.slice(1).replace('/', '-') : name;
  return unscoped.replace(/-(.)/g, (_dash, letter: string) => letter.toUpperCase());
}
