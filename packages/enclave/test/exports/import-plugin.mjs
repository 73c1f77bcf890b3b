// Loads the built `@enclavejs/plugin` package by name through import.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import plugin, { plugin as named } from '@enclavejs/plugin';

assert.equal(typeof plugin, 'function', 'the default import is the function');
assert.equal(named, plugin);
assert.equal(createRequire(import.meta.url)('@enclavejs/plugin'), plugin, 'import and require share one instance');

const fn = async function esmPlugin() {};
assert.equal(plugin(fn, { name: 'esm-plugin', encapsulate: true }), fn);
assert.equal(fn[Symbol.for('skip-override')], false);
assert.equal(fn[Symbol.for('fastify.display-name')], 'esm-plugin');
console.log('import @enclavejs/plugin: default, { plugin }, same instance as require, marks ok');
