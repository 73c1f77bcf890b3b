// Running the modules of the schema cache (issue 29): a stored validator or serializer is the body
// of a CommonJS module, called with a `require` that reaches only its runtime helpers.
import { createRequire } from 'node:module';
import vm from 'node:vm';
import type { ModuleFunction } from './schema-cache-files.js';
import { ALLOWED_MODULES } from './standalone-validator.js';

/** What a compiler keeps in the cache: a validator or serializer module, or why there is none. */
export type CompiledKind = 'validator' | 'serializer';

type Require = (id: string) => unknown;
let requires: Record<CompiledKind, Require> | undefined;

// Generated modules load their runtime helpers from the packages that generated them (Ajv's from
// Enclave's Ajv, the serializer's from fast-json-stringify's), and nothing else.
function moduleRequires(): Record<CompiledKind, Require> {
  const restrict = (from: string): Require => {
    const base = createRequire(from);
    // A thousand modules load the same two or three helpers: resolve each once.
    const loaded = new Map<string, unknown>();
    return (id) => {
      if (loaded.has(id)) return loaded.get(id);
      if (!ALLOWED_MODULES.test(id)) throw new Error(`a schema cache module may not load '${id}'`);
      const exported = base(id);
      loaded.set(id, exported);
      return exported;
    };
  };
  requires ??= { validator: restrict(__filename), serializer: restrict(require.resolve('fast-json-stringify')) };
  return requires;
}

/**
 * Compiles a module's text into a function, without `eval` or `new Function` (the text is a
 * script, as a file would be).
 */
export function compileModule(code: string, filename: string): ModuleFunction {
  return vm.compileFunction(code, ['require', 'module', 'exports'], { filename }) as ModuleFunction;
}

/** The `require` a generated module of this kind is given: its runtime helpers, nothing else. */
export function moduleRequire(kind: CompiledKind): Require {
  return moduleRequires()[kind];
}

/** Runs a stored module and returns its exports. */
export function loadModule(kind: CompiledKind, module: ModuleFunction): unknown {
  const holder = { exports: {} as unknown };
  module(moduleRequires()[kind], holder, holder.exports);
  return holder.exports;
}
