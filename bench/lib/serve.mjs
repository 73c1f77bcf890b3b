// One benchmark server in its own process: `node serve.mjs <framework> <scenario>`. Listens on a
// free loopback port, prints `LISTENING <port>` on stdout, and exits cleanly on SIGTERM so that
// `--cpu-prof` gets to write its profile. With BENCH_HEAP_OUT set (the instruction benchmark),
// writes the heap in use and the number of garbage collections to that file when stopped: with
// no collection, the heap grew by exactly what was allocated.
import { writeFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

let collections = 0;
if (process.env.BENCH_HEAP_OUT) {
  new PerformanceObserver((list) => {
    collections += list.getEntries().length;
  }).observe({ entryTypes: ['gc'] });
}
const [framework, scenario] = process.argv.slice(2);
const { start } = await import(`./servers/${framework}.mjs`);
const server = await start(scenario, { port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${server.port}\n`);

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  if (process.env.BENCH_HEAP_OUT) {
    writeFileSync(process.env.BENCH_HEAP_OUT, JSON.stringify({ heapUsed: getHeapStatistics().used_heap_size, collections }));
  }
  const force = setTimeout(() => process.exit(0), 3000);
  force.unref();
  server.close().then(
    () => process.exit(0),
    () => process.exit(0),
  );
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
