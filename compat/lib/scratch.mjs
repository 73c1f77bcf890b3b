// Builds the scratch copy of the installed fastify package that the compat harness runs
// Fastify's test files from. The copy lives inside the repo (compat/.work/, git-ignored) so
// that module resolution from its test files walks up to the repo's node_modules: the Ajv
// plugins the tests load then resolve to the very Ajv copy enclavejs uses.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// Pure-data modules of Fastify's lib/ that stay in the copy: the symbol table and the
// deprecation-warning definitions (helper.js and ~20 test files load them at the top, so
// dropping them would fail whole files instead of the tests that really need internals).
// The copied symbols are fresh Symbol()s, unknown to either target: a test that reads an
// instance through them fails, on Fastify as on Enclave. Every other file of lib/ (request,
// reply, hooks, content-type, …) is Fastify's implementation and is left out.
const keptLib = ['symbols.js', 'warnings.js'];

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
  const targetPath = targets[target];
  if (!targetPath) throw new Error(`unknown target ${target} (enclave or fastify)`);
  if (!existsSync(targetPath)) throw new Error(`${targetPath} is missing: run npm run build`);
  const dir = join(workDir, target);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(fastifyDir, dir, {
    recursive: true,
    filter: (source) => !['lib', 'node_modules'].some((skip) => inside(source, join(fastifyDir, skip))),
  });
  mkdirSync(join(dir, 'lib'));
  for (const file of keptLib) cpSync(join(fastifyDir, 'lib', file), join(dir, 'lib', file));
  writeFileSync(join(dir, 'lib', 'errors.js'), errorsShim);
  writeFileSync(join(dir, 'fastify.js'), shim(targetPath));
  return dir;
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
