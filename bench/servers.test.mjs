// Every benchmark server answers every scenario the same way — otherwise the load numbers
// compare different work. Starts each framework's server in this process (no autocannon, no
// child processes: it runs inside `npm test` and must stay fast) and compares status, JSON body
// and content-type essence with what bench/lib/scenarios.mjs expects.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { frameworkNames, scenarioNames, scenarios } from './lib/scenarios.mjs';

const modules = Object.fromEntries(await Promise.all(frameworkNames.map(async (name) => [name, await import(`./lib/servers/${name}.mjs`)])));

async function call(port, { method, path, headers, body }) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  return { status: response.status, essence: contentType.split(';')[0].trim().toLowerCase(), text };
}

const open = [];
after(() => Promise.all(open.map((server) => server.close())));

for (const scenario of scenarioNames) {
  const { title, request, expect, extra = [], invalid } = scenarios[scenario];
  describe(`scenario ${scenario}: ${title}`, () => {
    for (const framework of frameworkNames) {
      test(framework, async () => {
        const server = await modules[framework].start(scenario);
        open.push(server);
        for (const probe of [{ ...request, expect }, ...extra]) {
          const got = await call(server.port, probe);
          assert.equal(got.status, probe.expect.status, `${probe.method} ${probe.path}: ${got.text}`);
          assert.equal(got.essence, 'application/json');
          assert.deepEqual(JSON.parse(got.text), probe.expect.body);
        }
        // Invalid input: every framework must refuse with the same status and a JSON body with a
        // message. The bodies themselves differ by framework (Fastify and Enclave send their
        // FST_ERR_VALIDATION shape, the others the shape written in their server module), so
        // only the status and the presence of a message are compared.
        for (const probe of invalid) {
          const got = await call(server.port, probe);
          assert.equal(got.status, probe.expectStatus, `${probe.method} ${probe.path}: ${got.text}`);
          assert.equal(got.essence, 'application/json');
          assert.equal(typeof JSON.parse(got.text).message, 'string');
        }
        await server.close();
        open.splice(open.indexOf(server), 1);
      });
    }
  });
}
