// Minifying the generated modules a bundle is written with (issue 29). A warm start reads the
// bundle and copies it into a string, and V8 keeps that string as the source of every validator
// and serializer. Each fresh 4 KB page costs a process 10–15 µs on the machines we measure, so
// the bundle's size is most of what a warm start pays for it: Ajv's and fast-json-stringify's
// standalone code (9.4 MB for 1,000 routes) minifies to 5.9 MB, and a warm start took 28 ms less.
//
// Identifiers and whitespace only: no compression pass. Renaming locals and dropping spaces
// cannot change what the code does; a compressor rewrites statements, which is more than a cache
// needs to risk for another 15%. Function names are kept (`validate.name` reads the same).
// oxc-minify runs on libuv's thread pool, after ready(), while the application serves; it is
// loaded then, never by a warm start.
import { pathToFileURL } from 'node:url';

type OxcMinify = typeof import('oxc-minify', { with: { 'resolution-mode': 'import' }});
type Minify = OxcMinify['minify'];

const OPTIONS = {
  compress: false,
  // The module is a script here: its top-level names are the wrapper function's locals, so they
  // are renamed too. `require`, `module` and `exports` are free names, left alone.
  mangle: { toplevel: true, keepNames: true },
  // A bundle of ASCII text is read into a one-byte string, half the size of a two-byte one.
  codegen: { asciiOnly: true },
} as const;

let minifier: Promise<Minify | string> | undefined;

// The minifier, or why there is none (a platform without its native binding). An ES module,
// imported once, by its resolved file: a bare specifier in `import()` is resolved against the
// importing module's URL, which test loaders that compile this file on the fly do not give.
function loadMinifier(): Promise<Minify | string> {
  minifier ??= Promise.resolve()
    .then(() => import(pathToFileURL(require.resolve('oxc-minify')).href) as Promise<OxcMinify>)
    .then(
      (loaded: OxcMinify) => loaded.minify,
      (error: unknown) => `oxc-minify cannot be loaded (${describe(error)})`,
    );
  return minifier;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A module's minified code, or the code as given and why it was not minified. */
export type MinifiedModule = { code: string } | { code: string; notMinified: string };

/**
 * The generated code of one module (the body of a CommonJS module), minified. Never rejects:
 * when the minifier is missing or reports an error, the code is kept as given.
 *
 * @example
 * const { code } = await minifyModule('"use strict";module.exports = validate10;function validate10(data){…}')
 */
export async function minifyModule(code: string): Promise<MinifiedModule> {
  const minify = await loadMinifier();
  if (typeof minify === 'string') return { code, notMinified: minify };
  try {
    const result = await minify('module.js', code, OPTIONS);
    const [error] = result.errors;
    if (error !== undefined) return { code, notMinified: `oxc-minify reported: ${error.message}` };
    return { code: result.code };
  } catch (error) {
    return { code, notMinified: `oxc-minify failed (${describe(error)})` };
  }
}
