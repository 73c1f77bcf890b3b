// Issue 32, item 6: a developer error's `message` is Fastify's text (tests compare it), and
// Enclave's explanation rides along in `error.hint`, which must reach the developer wherever the
// error is shown: Node's printing of an error (util.inspect, console.error, an uncaught error) and
// a pino log line.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import enclave from 'enclavejs';

interface LogRecord {
  level: number;
  msg: string;
  err?: { type?: string; code?: string; message?: string; hint?: string };
}

/** An application logging through real pino into an array of parsed lines. */
function withLog(options: Record<string, unknown> = {}): { app: any; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const app = enclave({ ...options, logger: { level: 'info', stream: { write: (line: string) => records.push(JSON.parse(line)) } } } as never);
  return { app, records };
}

function thrown(fn: () => unknown): Error & { code?: string; hint?: string } {
  try {
    fn();
  } catch (error) {
    return error as Error & { code?: string; hint?: string };
  }
  assert.fail('expected a throw');
}

describe('error.hint: Fastify words the message, Enclave explains beside it', () => {
  test("a duplicate decorator: Fastify's message, the context in the hint, both printed by util.inspect and pino", () => {
    const { app, records } = withLog();
    app.decorate('db', {});
    const error = thrown(() => app.decorate('db', {}));
    assert.equal(error.code, 'FST_ERR_DEC_ALREADY_PRESENT');
    assert.equal(error.message, "The decorator 'db' has already been added!");
    assert.equal(error.name, 'FastifyError');
    assert.equal(typeof error.hint, 'string');
    assert.match(error.hint as string, /already present in "root" \(decorator names must be unique along a context chain\)/);
    assert.ok(Object.getOwnPropertyDescriptor(error, 'hint')?.enumerable, 'hint is an own enumerable property');

    const printed = inspect(error);
    // Node names the error by its constructor (the code) and its name: "FST_ERR_… [FastifyError]: …".
    assert.match(printed, /^FST_ERR_DEC_ALREADY_PRESENT \[FastifyError\]: The decorator 'db' has already been added!\n/);
    assert.match(printed, /\n {2}hint: /);
    assert.ok(printed.includes(error.hint as string), printed);

    app.log.error({ err: error }, 'boot failed');
    const line = records.find((record) => record.msg === 'boot failed');
    assert.equal(line?.err?.message, error.message);
    assert.equal(line?.err?.hint, error.hint);
  });

  test("a plugin that never finishes: Fastify's loader message, Enclave's line about it carries the hint", async () => {
    const { app, records } = withLog({ pluginTimeout: 20 });
    app.register(function forgetful(_instance: unknown, _options: unknown, _done: unknown) {});
    const error = await app.ready().then(
      () => assert.fail('ready() should reject'),
      (rejected: Error & { code?: string; hint?: string; cause?: { code?: string } }) => rejected,
    );
    assert.equal(error.code, 'FST_ERR_PLUGIN_TIMEOUT');
    assert.equal(
      error.message,
      "fastify-plugin: Plugin did not start in time: 'forgetful'. You may have forgotten to call 'done' function or to resolve a Promise",
    );
    assert.equal(error.cause?.code, 'AVV_ERR_PLUGIN_EXEC_TIMEOUT');
    assert.match(error.hint as string, /Plugin 'forgetful' did not finish within 20 ms/);
    assert.ok(inspect(error).includes(error.hint as string));

    const line = records.find((record) => record.err?.code === 'FST_ERR_PLUGIN_TIMEOUT');
    assert.ok(line, 'Enclave logs the failed plugin');
    assert.equal(line.err?.hint, error.hint);
  });

  test("a reply sent twice: the warning Enclave logs has Fastify's message and the hint", async () => {
    const { app, records } = withLog();
    app.get('/twice', async (_request: unknown, reply: any) => {
      reply.send('first');
      return 'second';
    });
    const response = await app.inject('/twice');
    assert.equal(response.body, 'first');
    const line = records.find((record) => record.err?.code === 'FST_ERR_REP_ALREADY_SENT');
    assert.ok(line, 'the second send is logged');
    assert.equal(line.msg, 'Reply was already sent, did you forget to "return reply" in "/twice" (GET)?');
    assert.match(line.err?.hint as string, /The reply to "GET \/twice" was already sent/);
    await app.close();
  });

  test('a decorator a plugin cannot see: the hint says where it lives and how to expose it', async () => {
    const { app, records } = withLog();
    app.register(async function database(instance: any) {
      instance.decorate('db', {});
    });
    app.register(async function reports(instance: any) {
      instance.getDecorator('db');
    });
    const error = await app.ready().then(
      () => assert.fail('ready() should reject'),
      (rejected: Error & { code?: string; hint?: string }) => rejected,
    );
    assert.equal(error.message, "No decorator 'db' has been declared on instance.");
    assert.match(error.hint as string, /It exists in "root > database", which is encapsulated from "root > reports"/);
    assert.match(error.hint as string, /wrap the plugin that provides it with @enclavejs\/plugin/);
    assert.ok(inspect(error).includes('@enclavejs/plugin'));
    assert.equal(records.find((record) => record.err?.code === 'FST_ERR_DEC_UNDECLARED')?.err?.hint, error.hint);
  });

  test('an error whose Fastify message already says everything has no hint', () => {
    const error = thrown(() => enclave().addContentTypeParser('application/xml', { parseAs: 'json' } as never, () => {}));
    assert.equal(error.message, "The body parser can only parse your data as 'string' or 'buffer', you asked 'json' which is not supported.");
    assert.equal('hint' in error, false);
  });
});
