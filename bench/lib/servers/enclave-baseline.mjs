// Enclave built from an earlier commit (`npm run bench -- --baseline <ref>`, lib/baseline.mjs):
// run.mjs builds it and hands its entry to the server processes in BENCH_ENCLAVE_BASELINE.
import { pathToFileURL } from 'node:url';
import { startFastifyFamily } from './fastify-family.mjs';

const entry = process.env.BENCH_ENCLAVE_BASELINE;
if (!entry) throw new Error('enclave-baseline runs only under `npm run bench -- --baseline <ref>`');
const { default: enclave } = await import(pathToFileURL(entry).href);

export function start(scenario, options) {
  return startFastifyFamily(enclave, scenario, options);
}
