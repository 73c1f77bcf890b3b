// fast-json-stringify's standalone code for one response schema, for the schema cache (issue 29).
// A cold start serves with serializers built as usual and builds their modules here once ready()
// has resolved, for the bundle; a warm start loads them; without a cache, nothing here runs.
import type { Options as SerializerOptions, Schema as SerializerSchema } from 'fast-json-stringify';
import { fastJsonStringify } from './compiler-modules.js';
import type { SerializeFunction } from './contracts.js';
import { compileModule, loadModule, moduleRequire } from './schema-cache-modules.js';
import { ALLOWED_MODULES, requiredModules } from './standalone-validator.js';

/** A serializer module's code and the serializer made from it, or why there is none. */
export type StandaloneSerializer = { code: string; serializer: SerializeFunction } | { unsupported: string };

type FunctionConstructorHolder = { Function: FunctionConstructor };

/**
 * Builds the serializer of `schema` as a module: its text, for the cache, and the serializer the
 * module makes (a module that makes none is not stored). Validators that `anyOf`, `oneOf` and `if` need are written into the
 * module (`inlineValidators`), so loading it compiles nothing. Undefined serializer and a reason
 * when there can be no module: then the caller builds the serializer as usual (and so reports the
 * schema's own error, if it has one).
 *
 * fast-json-stringify makes a module by compiling its serializer with
 * `new Function('validator', 'serializer', code)` and writing that function's text out. The
 * serializer returned is that very function, caught while it is made, and called as the module
 * would call it: compiling the module's text again cost 0.6 G instructions per 1,000
 * serializers (two thirds of fast-json-stringify's own work), a seventh of a cold boot. Only when
 * the module's text does not end as expected is it compiled whole.
 *
 * @example
 * const built = buildStandaloneSerializer({ type: 'object', properties: { id: { type: 'integer' } } }, {})
 * if ('code' in built) built.serializer({ id: '7' }) // '{"id":7}'
 */
export function buildStandaloneSerializer(schema: SerializerSchema, options: SerializerOptions): StandaloneSerializer {
  const global = globalThis as unknown as FunctionConstructorHolder;
  const original = global.Function;
  let context: CaughtFunction | undefined;
  // For the span of one synchronous call, `new Function` also hands the function it made to us.
  global.Function = new Proxy(original, {
    construct(target, args) {
      const made = Reflect.construct(target, args);
      if (args.length === 3 && args[0] === 'validator' && args[1] === 'serializer' && typeof args[2] === 'string') context = { made, body: args[2] };
      return made;
    },
  });
  let code: string;
  try {
    code = fastJsonStringify()(schema, { ...options, mode: 'standalone', inlineValidators: true }) as unknown as string;
  } catch (error) {
    return { unsupported: `fast-json-stringify cannot write it as a module (${error instanceof Error ? error.message : String(error)})` };
  } finally {
    global.Function = original;
  }
  const start = contextStart(code, context);
  // The caught function's body is compiled by `new Function`, where `require` is not defined (a
  // body calling it would fail in this very boot): only the prelude loads modules, so only the
  // prelude is searched, not the body, most of the text. Loading still goes through the
  // restricted require (schema-cache.ts), whatever the text holds.
  const foreign = requiredModules(start === -1 ? code : code.slice(0, start)).find((id) => !ALLOWED_MODULES.test(id));
  if (foreign !== undefined) return { unsupported: `its code loads the module '${foreign}'` };
  const serializer = makeSerializer(code, context, start);
  if (typeof serializer !== 'function') return { unsupported: 'its module exports no function' };
  return { code: withoutIndentation(code), serializer: serializer as SerializeFunction };
}

// fast-json-stringify indents its code for reading: a fifth of a serializer module's bytes, which
// every warm start reads, checksums and copies into a string (8% of the bundle of 1,000 routes).
// Spaces and tabs after a line break and blank lines change nothing in JavaScript outside
// template literals and strings continued over a line break: code holding either keeps them.
const INDENTATION = /\n[\t ]*(?:\n[\t ]*)*/g;

function withoutIndentation(code: string): string {
  if (code.includes('`') || /\\[\r\n\u2028\u2029]/.test(code)) return code;
  return code.replace(INDENTATION, '\n');
}

type CaughtFunction = { made: (validator: unknown, serializer: unknown) => unknown; body: string };

// The module is `<prelude>module.exports = <the caught function's text>(validator, serializer)`:
// the prelude (the serializer runtime, inline validators) runs, then the caught function is called.
// The function's text is what the language makes of `new Function`'s arguments (ECMA-262,
// CreateDynamicFunction): checked by its length and both ends rather than by comparing the whole
// text, which cost a cold boot of 1,000 routes 45 M instructions (a copy and a comparison of 4 MB).
const CONTEXT_START = 'module.exports = function anonymous(validator,serializer\n) {\n';
const CONTEXT_END = '\n}(validator, serializer)';

// Where the caught function's text starts in the module, or -1 when the module is not shaped so.
function contextStart(code: string, context: CaughtFunction | undefined): number {
  const start = context === undefined ? -1 : code.length - (CONTEXT_START.length + context.body.length + CONTEXT_END.length);
  return start >= 0 && code.startsWith(CONTEXT_START, start) && code.endsWith(CONTEXT_END) ? start : -1;
}

function makeSerializer(code: string, context: CaughtFunction | undefined, start: number): unknown {
  if (context === undefined || start === -1) return loadModule('serializer', compileModule(code, 'enclave-schema-cache:serializer'));
  const prelude = new Function('require', `${code.slice(0, start)}\nreturn [validator, serializer];`);
  const [validator, serializer] = prelude(moduleRequire('serializer')) as [unknown, unknown];
  return context.made(validator, serializer);
}

/**
 * Why serializers built with these `serializerOpts` cannot be modules, or undefined. A module
 * restores the options from JSON, and its validators' formats from ajv-formats' table: options
 * that JSON or that table cannot carry would change its behaviour.
 */
export function refuseSerializerOptions(options: Record<string, unknown> | undefined): string | undefined {
  if (holdsFunction(options)) return 'serializerOpts hold a function, which a module cannot restore';
  const ajvOptions = (options as { ajv?: Record<string, unknown> } | undefined)?.ajv;
  if (ajvOptions !== undefined && ['formats', 'keywords', 'code'].some((name) => ajvOptions[name] !== undefined)) {
    return "serializerOpts.ajv defines formats, keywords or code options, which fast-json-stringify's modules do not carry";
  }
  return undefined;
}

function holdsFunction(value: unknown, depth = 0): boolean {
  if (typeof value === 'function') return true;
  if (typeof value !== 'object' || value === null || depth > 32) return false;
  return Object.values(value).some((member) => holdsFunction(member, depth + 1));
}
