// One benchmark server in its own process: `node serve.mjs <framework> <scenario>`. Listens on a
// free loopback port, prints `LISTENING <port>` on stdout, and exits cleanly on SIGTERM so that
// `--cpu-prof` gets to write its profile.
const [framework, scenario] = process.argv.slice(2);
const { start } = await import(`./servers/${framework}.mjs`);
const server = await start(scenario, { port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${server.port}\n`);

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  const force = setTimeout(() => process.exit(0), 3000);
  force.unref();
  server.close().then(
    () => process.exit(0),
    () => process.exit(0),
  );
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
