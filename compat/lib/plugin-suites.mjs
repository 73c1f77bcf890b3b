// The work copy that npm run test:compat-plugins runs the @fastify plugins' own test suites
// from: compat/.work/plugins-<target>-<pid>/node_modules/ holds a copy of each plugin package
// (its tests load it as '..') and `fastify`, the isolated copy of the fastify package whose
// fastify.js exports the target's factory. Module resolution from a plugin's test walks up
// through that node_modules first, so `require('fastify')` meets the target, while everything
// else (the real fastify-plugin, the tests' devDependencies) resolves to the repo's node_modules.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, relative } from 'node:path';
import { copyFastify, root, workDir } from './scratch.mjs';

export const pluginsDir = join(root, 'node_modules', '@fastify');
export const config = JSON.parse(readFileSync(join(root, 'compat', 'plugins', 'suites.json'), 'utf8'));
const names = Object.keys(config.plugins);
const defaultFiles = ['**/*.test.js', '**/*.test.mjs', '**/*.test.cjs'];

const globRe = (pattern) =>
  new RegExp(
    `^${pattern
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replaceAll('**/', '\u0000')
      .replaceAll('*', '[^/]*')
      .replaceAll('\u0000', '(.*/)?')}$`,
  );

export const pluginVersion = (name) => JSON.parse(readFileSync(join(pluginsDir, name, 'package.json'), 'utf8')).version;

/** The plugins of suites.json whose npm package ships no test/ folder. */
export const withoutTests = () => names.filter((name) => !existsSync(join(pluginsDir, name, 'test')));

export function prepare(target) {
  const dir = join(workDir, `plugins-${target}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  const modules = join(dir, 'node_modules');
  copyFastify(join(modules, 'fastify'), target, { tests: false });
  for (const name of names) {
    if (!existsSync(join(pluginsDir, name))) throw new Error(`@fastify/${name} is not installed: run npm ci`);
    cpSync(join(pluginsDir, name), join(modules, '@fastify', name), { recursive: true, verbatimSymlinks: true });
    // npm packs neither empty folders nor symlinks: put back the ones the tests expect.
    const fixtures = config.plugins[name].fixtures ?? {};
    const testDir = join(modules, '@fastify', name, 'test');
    for (const folder of fixtures.mkdir ?? []) mkdirSync(join(testDir, folder), { recursive: true });
    for (const [link, to] of Object.entries(fixtures.symlink ?? {})) {
      mkdirSync(join(testDir, link, '..'), { recursive: true });
      symlinkSync(to, join(testDir, link));
    }
  }
  for (const [alias, { package: real }] of Object.entries(config.aliases)) {
    mkdirSync(join(modules, alias));
    writeFileSync(join(modules, alias, 'package.json'), `${JSON.stringify({ name: alias, main: 'index.js' })}\n`);
    writeFileSync(
      join(modules, alias, 'index.js'),
      `'use strict'\n// Written by compat/lib/plugin-suites.mjs: see "aliases" in compat/plugins/suites.json.\nmodule.exports = require(${JSON.stringify(real)})\n`,
    );
  }
  return dir;
}

// Files are named `<plugin>/<path under its test/>`, e.g. rate-limit/global-rate-limit.test.js.
export function listFiles(dir) {
  const out = [];
  for (const name of names) {
    const testDir = join(dir, 'node_modules', '@fastify', name, 'test');
    if (!existsSync(testDir)) continue;
    const patterns = (config.plugins[name].files ?? defaultFiles).map(globRe);
    const walk = (folder) => {
      for (const entry of readdirSync(folder).sort()) {
        const path = join(folder, entry);
        const rel = relative(testDir, path);
        if (entry === 'node_modules') continue;
        if (statSync(path).isDirectory()) walk(path);
        else if (patterns.some((re) => re.test(rel))) out.push(`${name}/${rel}`);
      }
    };
    walk(testDir);
  }
  return out;
}

const split = (file) => {
  const at = file.indexOf('/');
  return [file.slice(0, at), file.slice(at + 1)];
};

/**
 * Each file runs from its plugin's folder (as its own `npm test` would), with that script's
 * environment and CI=true: the plugins' suites skip there what their own CI skips (a 1 GiB
 * upload, …), so a run gives the same tests on a laptop and in CI.
 */
export function locate(dir, file) {
  const [name, rel] = split(file);
  const cwd = join(dir, 'node_modules', '@fastify', name);
  const limit = (table) => Object.entries(config.plugins[name][table] ?? {}).find(([pattern]) => globRe(pattern).test(rel))?.[1];
  return {
    cwd,
    path: join(cwd, 'test', rel),
    env: { CI: 'true', ...config.plugins[name].env },
    testTimeout: limit('timeouts'),
    fileTimeout: limit('fileTimeouts'),
  };
}

function reachable({ host, port }) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('connect', () => done(true));
    socket.on('error', () => done(false));
  });
}

/** Files whose service is not reachable: [[file, why]]. */
export async function skip(files) {
  const skipped = [];
  const up = new Map();
  for (const file of files) {
    const [name, rel] = split(file);
    for (const [pattern, service] of Object.entries(config.plugins[name].services ?? {})) {
      if (!globRe(pattern).test(rel)) continue;
      const where = config.services[service];
      if (!up.has(service)) up.set(service, await reachable(where));
      if (!up.get(service)) skipped.push([file, `needs ${where.name} on ${where.host}:${where.port}, which is not reachable`]);
    }
  }
  return skipped;
}
