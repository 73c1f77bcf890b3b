// Issue 20: the real @fastify/otel, unmodified, on Enclave, with OpenTelemetry's in-memory
// exporter: one `request` span per request with the route, method and status, and child spans
// for the route handler and hooks, which the plugin wires in through onRoute.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import enclave from 'enclavejs';

const tracingFixture = join(import.meta.dirname, 'fixtures', 'otel-http-tracing.cjs');

/** The fixture's report for one framework and one order of set-up, from a process of its own. */
async function httpTracing(target: 'enclavejs' | 'fastify', order: 'first' | 'late'): Promise<any> {
  const { stdout } = await promisify(execFile)(process.execPath, [tracingFixture, target, order], { cwd: import.meta.dirname });
  return JSON.parse(stdout);
}

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const instrumentation = new FastifyOtelInstrumentation();
  instrumentation.setTracerProvider(provider);
  return { exporter, instrumentation };
}

describe('@fastify/otel', () => {
  test('a request produces a request span and a handler span with the route’s attributes', async () => {
    const { exporter, instrumentation } = tracing();
    const app = enclave();
    await app.register(instrumentation.plugin());
    app.addHook('preHandler', async function checkSomething() {});
    app.get('/books/:id', async function showBook(request: any) {
      return { id: request.params.id };
    });
    const response = await app.inject('/books/7');
    assert.deepEqual(response.json(), { id: '7' });

    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.name === 'request');
    assert.ok(request, `a request span among ${spans.map((span) => span.name).join(', ')}`);
    assert.equal(request.attributes['http.route'], '/books/:id');
    assert.equal(request.attributes['http.request.method'], 'GET');
    assert.equal(request.attributes['http.response.status_code'], 200);
    const handler = spans.find((span) => span.name === 'handler - showBook');
    assert.ok(handler, `a handler span among ${spans.map((span) => span.name).join(', ')}`);
    assert.equal(handler.attributes['http.route'], '/books/:id');
    assert.ok(spans.some((span) => span.name === 'preHandler - checkSomething'));
    await app.close();
  });

  test('a route with config.otel = false is not traced', async () => {
    const { exporter, instrumentation } = tracing();
    const app = enclave();
    await app.register(instrumentation.plugin());
    app.get('/health', { config: { otel: false } }, async () => 'up');
    assert.equal((await app.inject('/health')).body, 'up');
    assert.deepEqual(exporter.getFinishedSpans(), []);
    await app.close();
  });

  // Issue 32: @fastify/otel's own suite enables @opentelemetry/instrumentation-http after loading
  // the framework. The instrumentation patches http.Server's emit on the next require('node:http'),
  // which on Fastify is the first inject() loading light-my-request; Enclave loaded it at start-up,
  // so nothing patched the server and the plugin's request span stayed SERVER. And inject() went
  // through server.emit('request'), so a properly set-up instrumentation traced injected requests
  // as network ones, which Fastify's inject() never does.
  for (const order of ['first', 'late'] as const) {
    test(`with instrumentation-http set up ${order === 'first' ? 'before' : 'after'} the framework, spans are Fastify's`, async () => {
      const [onEnclave, onFastify] = await Promise.all([httpTracing('enclavejs', order), httpTracing('fastify', order)]);
      assert.deepEqual(onEnclave, onFastify);
      assert.equal(onEnclave.loadedAtStart, false, 'light-my-request is loaded by the first inject(), not by the framework');
      assert.deepEqual(
        onEnclave.injected,
        { status: 200, lightMyRequestLoaded: true, httpSpans: 0, requestKind: 1, requestUnderHttpSpan: false },
        'an injected request is no network request: no HTTP span, the request span is SERVER',
      );
      assert.deepEqual(
        onEnclave.network,
        { status: 200, text: 'hello', httpSpans: 1, requestKind: 0, requestUnderHttpSpan: true },
        "a network request: the request span is INTERNAL, under instrumentation-http's SERVER span",
      );
    });
  }
});
