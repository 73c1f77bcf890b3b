// `node --import tsx examples/cluster/start.ts`: the deployment, up until Ctrl-C.
// Restart process N (0-based) as a deploy would by typing N and Enter.
import { createInterface } from 'node:readline';
import { Cluster } from './cluster.js';

const cluster = new Cluster({ processes: Number(process.env.PROCESSES ?? 4) });
await cluster.start();
console.log(`
Bookshelf behind nginx: ${cluster.url}
Admin key: ${cluster.adminKey}
  curl -i ${cluster.url}/books/1
  curl -i -X POST ${cluster.url}/admin/books -H 'authorization: Bearer ${cluster.adminKey}' \\
       -H 'content-type: application/json' -d '{"title":"Dune","author":"Frank Herbert","year":1965}'
Type a process number and Enter to restart it; Ctrl-C stops everything.`);

let busy = false;
const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  const slot = Number(line.trim());
  if (busy || !Number.isInteger(slot) || cluster.instances[slot] === undefined) return;
  busy = true;
  cluster
    .restart(slot)
    .then(
      ({ fresh, stopMs, startMs }) => console.log(`stopped in ${stopMs} ms, ${fresh.name} ready ${startMs} ms later`),
      (error) => console.error(error),
    )
    .finally(() => {
      busy = false;
    });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    input.close();
    cluster.stop().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
