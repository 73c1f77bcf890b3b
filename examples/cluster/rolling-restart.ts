// `npm run test:cluster`: the deployment on loopback, then two checks.
//   1. The rate limit is shared through Redis (see shared-limit.ts).
//   2. A rolling restart under load: while mixed GET/POST traffic runs through nginx over
//      keep-alive connections, each process in turn gets SIGTERM, must exit 0, and is replaced;
//      the next one goes only once nginx sends traffic to the replacement. Every request must
//      succeed. Prints requests sent, answered and failed, and latency steady vs restarting.
// Environment: PROCESSES (4), LOAD_RATE (1000 per second), LOAD_CONNECTIONS (32),
// DRAIN_TIMEOUT_MS (4000; 0 to watch what happens without the drain), KEEP_FILES=1.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Cluster } from './cluster.js';
import { Load, type Sample, type Summary, summarize } from './load.js';
import { checkSharedLimit } from './shared-limit.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const processes = env('PROCESSES', 4);
const rateLimitMax = 100;
const steadyMs = 6000;
const rate = env('LOAD_RATE', 1000);
// The load's bound: two minutes at full pace, more than the whole run needs.
const maxRequests = rate * 120;

const log = (line: string) => console.log(line);
const format = (s: Summary) =>
  `${String(s.requests).padStart(6)} requests ${String(s.failed).padStart(4)} failed   ` +
  `p50 ${s.p50.toFixed(1).padStart(6)} ms   p99 ${s.p99.toFixed(1).padStart(6)} ms   max ${s.max.toFixed(1).padStart(6)} ms   ` +
  `${s.perSecond.toFixed(0)} req/s`;

const cluster = new Cluster({ processes, rateLimitMax, drainTimeoutMs: env('DRAIN_TIMEOUT_MS', 4000), log });
let ok = false;
// Interrupted (Ctrl-C, a CI timeout): take everything down before going.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the cluster`);
    cluster.stop({ keepDir: true }).finally(() => process.exit(1));
  });
}
try {
  log(`── starting: ${processes} processes, nginx, redis`);
  await cluster.start();

  log('\n── rate limit shared through Redis');
  for (const line of await checkSharedLimit(cluster, rateLimitMax)) log(`  ${line}`);

  log('\n── rolling restart under load');
  const load = new Load({
    url: cluster.url,
    adminKey: cluster.adminKey,
    connections: env('LOAD_CONNECTIONS', 32),
    rate,
    maxRequests,
    // At most maxRequests / clientKeys = 25 requests per key, far below the limit of 100.
    clientKeys: Math.ceil(maxRequests / 25),
  });
  const t0 = performance.now();
  const at = (time: number) => `${((time - t0) / 1000).toFixed(2).padStart(6)} s`;
  load.start();
  await sleep(steadyMs);
  const restartBegan = performance.now();
  for (const instance of [...cluster.instances]) {
    const began = performance.now();
    const { fresh, stopMs, startMs } = await cluster.restart(instance.slot);
    // nginx took the old process out after a failure; it tries the port again after
    // fail_timeout. Wait (bounded) until the replacement has answered load through nginx.
    const seenBy = performance.now();
    const deadline = seenBy + 20_000;
    while (!load.samples.some((sample) => sample.instance === fresh.name && sample.start >= began)) {
      if (performance.now() > deadline || load.done) throw new Error(`nginx never sent load to ${fresh.name}`);
      await sleep(50);
    }
    log(
      `  ${at(began)}  SIGTERM ${instance.name}: drained, closed, exit 0 in ${stopMs} ms; ` +
        `${fresh.name} ready ${startMs} ms later, serving through nginx ${((performance.now() - seenBy) / 1000).toFixed(1)} s after that`,
    );
  }
  const restartEnded = performance.now();
  await sleep(3000);
  await load.stop();
  const stopped = performance.now();

  const samples = load.samples;
  const within = (from: number, to: number) => samples.filter((sample: Sample) => sample.start >= from && sample.start < to);
  const steady = summarize(within(t0 + 1000, restartBegan));
  const restarting = summarize(within(restartBegan, restartEnded));
  const after = summarize(within(restartEnded, stopped));
  const all = summarize(samples);
  const answered = samples.filter((sample) => sample.status !== 0).length;
  const byMethod = (method: string) => samples.filter((sample) => sample.method === method).length;
  const byInstance = new Map<string, number>();
  for (const sample of samples) if (sample.instance) byInstance.set(sample.instance, (byInstance.get(sample.instance) ?? 0) + 1);

  log(`\n  requests sent ${samples.length} (GET ${byMethod('GET')}, POST ${byMethod('POST')}), answered ${answered}, failed ${all.failed}`);
  log(`  steady (before)   ${format(steady)}   (first second left out: warm-up)`);
  log(`  during restarts   ${format(restarting)}`);
  log(`  steady (after)    ${format(after)}`);
  log(`  answered by: ${[...byInstance].map(([name, count]) => `${name} ${count}`).join(', ')}`);

  // nginx's view: requests it had to send to a second process (the first said 503 or refused).
  const access = readFileSync(join(cluster.dir, 'nginx-access.log'), 'utf8').trim().split('\n');
  const retried = access.filter((line) => /"[^"]*,[^"]*"\s+\S+$/.test(line));
  const retriedBy = new Map<string, number>();
  for (const line of retried) {
    const statuses = /"([^"]*)"\s+\S+$/.exec(line)?.[1] ?? '';
    const label = `${line.split(' ')[0]} ${statuses}`;
    retriedBy.set(label, (retriedBy.get(label) ?? 0) + 1);
  }
  log(
    `  nginx retried ${retried.length} of ${access.length} requests on another process` +
      (retried.length > 0 ? `: ${[...retriedBy].map(([label, count]) => `${label} ×${count}`).join('; ')}` : ''),
  );

  const failures = samples.filter((sample) => sample.failure !== undefined);
  for (const sample of failures.slice(0, 20)) {
    log(`  FAILED at ${at(sample.start)} after ${sample.ms.toFixed(0)} ms: ${sample.method} ${sample.path} → ${sample.failure}`);
  }
  ok = failures.length === 0;
  log(ok ? '\n✔ zero failed requests; rate limit shared' : `\n✖ ${failures.length} failed requests`);
} catch (error) {
  console.error('\n✖', error);
} finally {
  try {
    await cluster.stop({ keepDir: process.env.KEEP_FILES === '1' || !ok });
    log(ok ? '── stopped nginx, processes and redis' : `── stopped nginx, processes and redis; logs kept in ${cluster.dir}`);
  } catch (error) {
    console.error('✖', error);
    ok = false;
  }
}
process.exit(ok ? 0 : 1);
