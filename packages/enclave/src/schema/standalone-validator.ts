// Ajv's standalone code for one compiled validator, for the schema cache (issue 29), or the reason
// there can be none. Ajv writes a module from what a validator's code refers to; a reference with
// no code of its own (a keyword that validates with a function, a format defined by the
// application) makes the module impossible, and a format whose code names ajv-formats' table
// while the application defined it differently would make it wrong: both are refused here.
import type Ajv from 'ajv';
import type { AnyValidateFunction, SourceCode } from 'ajv/dist/types';
import { ajvFormatTables, ajvStandaloneCode } from './compiler-modules.js';

/** A validator module's code, or why the validator has none. */
export type StandaloneValidator = { code: string; async: boolean } | { unsupported: string };

/**
 * The modules generated code may load, and where from: the runtime helpers of the Ajv that
 * generated it, ajv-formats' tables and fast-json-stringify's serializer runtime. A module that
 * loads anything else is not cached, so that loading a bundle can never reach further.
 */
export const ALLOWED_MODULES = /^(ajv\/dist\/runtime\/[a-z_0-9]+|ajv-formats\/dist\/formats|fast-json-stringify\/lib\/serializer)$/;

/** The modules a piece of generated code requires. */
export function requiredModules(code: string): string[] {
  const modules: string[] = [];
  // A search, not a regular expression: this runs on every module a cold boot writes.
  for (let at = code.indexOf('require('); at !== -1; at = code.indexOf('require(', at + 8)) {
    const literal = /^require\((["'])([^"'\\]*)\1\)/.exec(code.slice(at, at + 200));
    // A require of anything but a plain string literal names no module we can check.
    modules.push(literal?.[2] ?? '(a computed module name)');
  }
  return modules;
}

/**
 * The module text of `validate` (compiled by `ajv`, which must have `code.source`), or why there
 * is none.
 *
 * @example
 * const result = writeStandaloneValidator(ajv, ajv.compile({ type: 'string', format: 'email' }))
 * if ('code' in result) store(result.code)
 */
export function writeStandaloneValidator(ajv: Ajv, validate: AnyValidateFunction): StandaloneValidator {
  const format = findUnportableFormat(ajv, validate.source, new Set());
  if (format !== undefined) return { unsupported: format };
  useCompiledText(validate);
  let code: string;
  try {
    code = ajvStandaloneCode()(ajv, validate);
  } catch (error) {
    // A keyword that validates with a function (`validate` or `compile`) has no code to write.
    return { unsupported: `Ajv cannot write it as a module (${error instanceof Error ? error.message : String(error)})` };
  }
  const foreign = requiredModules(code).find((id) => !ALLOWED_MODULES.test(id));
  if (foreign !== undefined) return { unsupported: `its code loads the module '${foreign}'` };
  return { code: dropUnusedSchemaConstants(code, validate.source), async: (validate as { $async?: unknown }).$async === true };
}

// Ajv's `source.validateCode` is the text of the validator function as its code generator built
// it, from thousands of small strings joined lazily: the first search of a module holding it
// copied them into one (145 µs a validator, ~4% of a cold start's ready(); Ajv's own compile
// copied them too, but into a new string, leaving this one in pieces). Ajv compiles that very text
// (`return <validateCode>` is the body it hands to `new Function`), so the function's own source
// text, which V8 keeps in one piece, is the same: same start (the function keyword opens it) and,
// checked, same length. Anything else keeps Ajv's text.
function useCompiledText(validate: AnyValidateFunction): void {
  const { source } = validate;
  if (source === undefined) return;
  const compiled = Function.prototype.toString.call(validate);
  if (compiled.length === source.validateCode.length) source.validateCode = compiled;
}

// Ajv writes every schema its code could quote (`const schema11 = {…}`), used or not; a validator
// quotes its schema only with `verbose`. An unused copy costs a bundle bytes and a boot an object
// with its own hidden class per schema, so the exact declaration goes when nothing else names it.
function dropUnusedSchemaConstants(code: string, source: SourceCode | undefined): string {
  let result = code;
  for (const name of source?.scopeValues.schema ?? []) {
    // Found by its short start, then checked whole in place: searching for the whole declaration
    // (a copy of the schema) and cutting it out before knowing it is unused cost more.
    const opening = `const ${name} = `;
    const start = result.indexOf(opening);
    const value = name.value?.code;
    if (start === -1 || value === undefined) continue;
    const end = start + opening.length + String(value).length + 1;
    if (!result.startsWith(String(value), start + opening.length) || result[end - 1] !== ';') continue;
    if (!containsIdentifier(result, String(name), start, end)) result = result.slice(0, start) + result.slice(end);
  }
  return result;
}

const IDENTIFIER_PART = /[\w$]/;

// Whether `identifier` occurs in `code` as a whole name, outside the span [skipFrom, skipTo).
function containsIdentifier(code: string, identifier: string, skipFrom: number, skipTo: number): boolean {
  for (let at = code.indexOf(identifier); at !== -1; at = code.indexOf(identifier, at + 1)) {
    if (at >= skipFrom && at < skipTo) {
      at = skipTo - 1;
      continue;
    }
    const before = at === 0 ? '' : (code[at - 1] as string);
    const after = code[at + identifier.length] ?? '';
    if (!IDENTIFIER_PART.test(before) && !IDENTIFIER_PART.test(after)) return true;
  }
  return false;
}

// Formats reach a module as `<code.formats>.<name>`: right only when the format the application
// compiled with is the very one of the ajv-formats table that expression names.
function findUnportableFormat(ajv: Ajv, source: SourceCode | undefined, seen: Set<SourceCode>): string | undefined {
  if (source === undefined || seen.has(source)) return undefined;
  seen.add(source);
  for (const [prefix, names] of Object.entries(source.scopeValues)) {
    for (const name of names ?? []) {
      const value = name.value;
      if (value === undefined) continue;
      if (prefix === 'formats') {
        const problem = checkFormat(ajv, value.key, value.ref);
        if (problem !== undefined) return problem;
      } else if (prefix === 'validate' || prefix === 'root' || prefix === 'wrapper') {
        // Referenced schemas are written into the same module: their formats count too.
        const referenced = nestedSource(value.ref);
        const problem = findUnportableFormat(ajv, referenced, seen);
        if (problem !== undefined) return problem;
      }
    }
  }
  return undefined;
}

// A referenced validator function (`validate`), or a schema environment holding one (`root`, `wrapper`).
function nestedSource(ref: unknown): SourceCode | undefined {
  if (typeof ref === 'function') return (ref as { source?: SourceCode }).source;
  if (typeof ref === 'object' && ref !== null) return (ref as { validate?: { source?: SourceCode } }).validate?.source;
  return undefined;
}

function checkFormat(ajv: Ajv, name: unknown, definition: unknown): string | undefined {
  // A regular expression is written into the code itself.
  if (definition instanceof RegExp) return undefined;
  if (typeof name !== 'string') return 'a format chosen at run time ($data) needs the formats of the Ajv instance';
  const table = /^require\("ajv-formats\/dist\/formats"\)\.(fullFormats|fastFormats)$/.exec(String(ajv.opts.code.formats))?.[1];
  const tables = ajvFormatTables();
  if (table !== undefined && tables[table]?.[name] === definition) return undefined;
  return `the format "${name}" is not one of ajv-formats' own definitions`;
}
