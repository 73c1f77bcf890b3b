// Loads the built `@enclavejs/plugin` package by name through require().
'use strict';
const assert = require('node:assert/strict');
const plugin = require('@enclavejs/plugin');

assert.equal(typeof plugin, 'function', 'require("@enclavejs/plugin") is the function itself');
assert.equal(plugin.default, plugin);
assert.equal(plugin.plugin, plugin);

const fn = async function cjsPlugin() {};
assert.equal(plugin(fn, { name: 'cjs-plugin' }), fn);
assert.equal(fn[Symbol.for('skip-override')], true);
assert.equal(fn[Symbol.for('fastify.display-name')], 'cjs-plugin');
console.log('require @enclavejs/plugin: function, .default, .plugin, marks ok');
