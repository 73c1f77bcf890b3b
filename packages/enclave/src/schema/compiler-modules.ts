// Ajv and fast-json-stringify, loaded the first time something is compiled. An application whose
// schemas all come from the schema cache (issue 29) never loads them: Ajv alone is 8 MB of memory
// and tens of milliseconds of start-up. Generated code needs only their small runtime helpers.
import type AjvModule from 'ajv';
import type fastJsonStringifyModule from 'fast-json-stringify';

/** The Ajv class. */
export function ajvClass(): typeof AjvModule {
  return (require('ajv') as { default: typeof AjvModule }).default;
}

/** ajv-formats' plugin function. */
export function ajvFormatsPlugin(): (ajv: AjvModule, options?: unknown) => unknown {
  return (require('ajv-formats') as { default: (ajv: AjvModule, options?: unknown) => unknown }).default;
}

/** ajv-formats' tables of format definitions (`fullFormats`, `fastFormats`). */
export function ajvFormatTables(): Record<string, Record<string, unknown>> {
  return require('ajv-formats/dist/formats') as Record<string, Record<string, unknown>>;
}

/** Ajv's `standaloneCode(ajv, validate)`. */
export function ajvStandaloneCode(): (ajv: AjvModule, validate: unknown) => string {
  return (require('ajv/dist/standalone') as { default: (ajv: AjvModule, validate: unknown) => string }).default;
}

/** fast-json-stringify's `build(schema, options)`. */
export function fastJsonStringify(): typeof fastJsonStringifyModule {
  return require('fast-json-stringify') as typeof fastJsonStringifyModule;
}
