#!/usr/bin/env node
// npm run test:compat: Fastify's own test files against Enclave, gated by compat/baseline.json.
// Usage and options: compat/README.md. The run itself (ceiling, --update, the gate) is
// compat/lib/gate.mjs, shared with npm run test:compat-plugins.
import { join } from 'node:path';
import { listFiles } from './lib/execute.mjs';
import { main } from './lib/gate.mjs';
import { ajvResolution, fastifyVersion, prepare, root, workDir } from './lib/scratch.mjs';

await main({
  label: 'compat',
  command: 'npm run test:compat',
  paths: {
    baseline: join(root, 'compat', 'baseline.json'),
    ceiling: join(root, 'compat', 'ceiling.json'),
    rules: join(root, 'compat', 'categories.json'),
  },
  workDir,
  defaults: { testTimeout: '6000', fileTimeout: '180000' },
  report: new URL('./report.mjs', import.meta.url).href,
  prepare,
  listFiles,
  check(dir) {
    const ajv = ajvResolution(dir);
    // ajv-i18n only holds message tables; the others must load the Ajv enclavejs validates with.
    const copies = new Set(
      Object.entries(ajv)
        .filter(([k]) => k !== 'ajv-i18n')
        .map(([, v]) => v),
    );
    if (copies.size !== 1) {
      console.error('Ajv resolves to different copies:', ajv);
      process.exit(1);
    }
    return `ajv: enclavejs, the tests, ajv-errors, ajv-formats and ajv-merge-patch all load ${[...copies][0].replace(`${root}/`, '')}`;
  },
  meta: () => ({ fastify: fastifyVersion(), node: process.version }),
  heading: (files, target, runs) =>
    `compat: ${files.length} test files of Fastify ${fastifyVersion()} against ${target}, Node ${process.version}, ${runs} run(s)`,
});
