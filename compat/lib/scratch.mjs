// Builds the scratch copy of the installed fastify package that the compat harness runs
// Fastify's test files from. The copy lives inside the repo (compat/.work/, git-ignored) so
// that module resolution from its test files walks up to the repo's node_modules: the Ajv
// plugins the tests load then resolve to the very Ajv copy enclavejs uses.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
export const workDir = join(root, 'compat', '.work');
export const fastifyDir = join(root, 'node_modules', 'fastify');

// The factory each target's shim re-exports. Both live outside the scratch copy, so no test
// can reach their internals through a relative path such as ../lib/…
export const targets = {
  enclave: join(root, 'packages', 'enclave', 'dist', 'index.js'),
  fastify: join(fastifyDir, 'fastify.js'),
};

// Fastify's lib/ stays private. Two pure-data modules are kept, because helper.js and ~20
// test files load them at the top: the symbol table (fresh Symbol()s that neither target
// knows, so a test that reads an instance through them fails) and the deprecation-warning
// definitions. Every other module of lib/ (request, reply, hooks, content-type, …) is
// Fastify's implementation: it is replaced by a stand-in that throws when a test uses it, so
// only the tests that need internals fail, not every test of a file that loads one at the top.
const keptLib = ['symbols.js', 'warnings.js'];

const standIn = `'use strict'
// Written by compat/lib/scratch.mjs: Fastify's internal modules are not available to its tests
// here. Reading a property gives another stand-in, so loading succeeds; calling, constructing
// or an instanceof check throws, failing the test that needed Fastify's internals.
module.exports = function standIn (name) {
  const fail = () => { throw new Error(\`compat: Fastify internal \${name} is not available\`) }
  return new Proxy(function internal () {}, {
    get (_, key) {
      if (key === 'then' || key === Symbol.toPrimitive) return undefined
      if (key === Symbol.hasInstance) return fail
      return standIn(\`\${name}.\${String(key)}\`)
    },
    set: () => true,
    apply: fail,
    construct: fail
  })
}
`;

function shim(targetPath) {
  return `'use strict'
// Written by compat/lib/scratch.mjs: the module Fastify's tests load as '..', '../fastify',
// '../../fastify.js'. It exports the factory under test, shaped like fastify's own exports.
const target = require(${JSON.stringify(targetPath)})
const factory = typeof target === 'function' ? target : target.default
function fastify (...args) { return factory.apply(this, args) }
for (const key of Object.keys(target)) {
  if (key !== 'default') fastify[key] = target[key]
}
module.exports = fastify
module.exports.fastify = fastify
module.exports.default = fastify
module.exports.errorCodes = target.errorCodes
`;
}

// lib/errors.js in Fastify *is* the object it exports publicly as fastify.errorCodes, so the
// copy's lib/errors.js re-exports the target's public errorCodes: tests that compare errors
// with `instanceof` or `.code` meet the target's own error classes.
const errorsShim = `'use strict'
// Written by compat/lib/scratch.mjs: the target's public errorCodes.
module.exports = require('../fastify.js').errorCodes
`;

const inside = (path, dir) => path === dir || path.startsWith(`${dir}/`);

export function prepare(target) {
  // One copy per process, so two runs at once (a subset while the gate runs) do not collide.
  const dir = join(workDir, `${target}-${process.pid}`);
  copyFastify(dir, target, { tests: true });
  return dir;
}

/**
 * Writes the isolated copy of the installed fastify package into `dir`: its files without lib/
 * (only the pure-data modules, stand-ins for the rest, errors.js the target's errorCodes) and
 * `fastify.js` the shim exporting the target's factory. With `tests: false` (the plugins' suites
 * load it as the package `fastify`) its test/ and docs/ are left out.
 */
export function copyFastify(dir, target, { tests }) {
  const targetPath = targets[target];
  if (!targetPath) throw new Error(`unknown target ${target} (enclave or fastify)`);
  if (!existsSync(targetPath)) throw new Error(`${targetPath} is missing: run npm run build`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const skipped = ['lib', 'node_modules', ...(tests ? [] : ['test', 'docs'])];
  cpSync(fastifyDir, dir, {
    recursive: true,
    filter: (source) => !skipped.some((skip) => inside(source, join(fastifyDir, skip))),
  });
  mkdirSync(join(dir, 'lib'));
  writeFileSync(join(dir, 'lib', 'compat-stand-in.js'), standIn);
  for (const file of readdirSync(join(fastifyDir, 'lib'))) {
    if (!file.endsWith('.js') || file === 'errors.js') continue;
    if (keptLib.includes(file)) cpSync(join(fastifyDir, 'lib', file), join(dir, 'lib', file));
    else writeFileSync(join(dir, 'lib', file), `module.exports = require('./compat-stand-in.js')('lib/${file}')\n`);
  }
  writeFileSync(join(dir, 'lib', 'errors.js'), errorsShim);
  writeFileSync(join(dir, 'fastify.js'), shim(targetPath));
}

export function fastifyVersion() {
  return JSON.parse(readFileSync(join(fastifyDir, 'package.json'), 'utf8')).version;
}

// The Ajv the tests' plugins load must be the one enclavejs validates with.
export function ajvResolution(dir) {
  const fromTests = createRequire(join(dir, 'test', 'x.js'));
  const fromEnclave = createRequire(targets.enclave);
  const viaPlugin = (name) => createRequire(fromTests.resolve(name)).resolve('ajv');
  return {
    enclave: fromEnclave.resolve('ajv'),
    tests: fromTests.resolve('ajv'),
    'ajv-errors': viaPlugin('ajv-errors'),
    'ajv-formats': viaPlugin('ajv-formats'),
    'ajv-merge-patch': viaPlugin('ajv-merge-patch'),
    'ajv-i18n': fromTests.resolve('ajv-i18n'),
  };
}
