#!/usr/bin/env node
// npm run test:compat-plugins: the @fastify plugins' own test suites (shipped in their npm
// packages) against Enclave, gated by compat/plugins/baseline.json. Usage: compat/README.md.
import { join } from 'node:path';
import { main } from './lib/gate.mjs';
import { listFiles, locate, pluginVersion, prepare, config, skip, withoutTests } from './lib/plugin-suites.mjs';
import { fastifyVersion, root, workDir } from './lib/scratch.mjs';

const plugins = Object.keys(config.plugins);

await main({
  label: 'compat-plugins',
  command: 'npm run test:compat-plugins',
  paths: {
    baseline: join(root, 'compat', 'plugins', 'baseline.json'),
    ceiling: join(root, 'compat', 'plugins', 'ceiling.json'),
    rules: join(root, 'compat', 'plugins', 'categories.json'),
  },
  workDir: join(workDir, 'plugins'),
  // Borp, which three of these suites use, gives a test 30 s; node --test gives it no limit.
  defaults: { testTimeout: '10000', fileTimeout: '180000' },
  ceilingRef: 'fails on Fastify in this harness too',
  report: new URL('./report.mjs', import.meta.url).href,
  prepare,
  listFiles,
  locate,
  skip,
  check: () => {
    const none = withoutTests();
    return none.length ? `ship no tests in their npm package (not run): ${none.map((n) => `@fastify/${n}`).join(', ')}` : '';
  },
  meta: () => ({
    fastify: fastifyVersion(),
    node: process.version,
    plugins: Object.fromEntries(plugins.map((name) => [name, pluginVersion(name)])),
  }),
  heading: (files, target, runs) =>
    `compat-plugins: ${files.length} test files of ${plugins.length} @fastify plugins against ${target}, Node ${process.version}, ${runs} run(s)`,
});
