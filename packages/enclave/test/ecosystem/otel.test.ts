// Issue 20: the real @fastify/otel, unmodified, on Enclave, with OpenTelemetry's in-memory
// exporter: one `request` span per request with the route, method and status, and child spans
// for the route handler and hooks, which the plugin wires in through onRoute.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import enclave from 'enclavejs';

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
});
