// Issue 19: Enclave's public surface against the INSTALLED Fastify (the devDependency), read at
// test time so the comparison cannot drift when Fastify is upgraded. Compared: the instance
// (before and after ready), Request and Reply as a handler sees them, `errorCodes`, the named
// exports, and the factory options (read from Fastify's option validation and option reads).
//
// What counts as a member: every string-keyed property along the prototype chain, own or
// inherited, enumerable or not, stopping at Object.prototype / Function.prototype (those are the
// language's, not the framework's). Symbol keys are left out: Fastify keeps its internals under
// `kSomething` symbols, which are not public API, and Enclave keeps its own internals private.
// `constructor` is left out too (an implementation detail of how prototypes are built).
//
// Anything Fastify has and Enclave lacks fails, unless listed in an allowlist below. Each entry of
// `deliberateAbsences` is also explained in docs/differences.md (checked here).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { before, describe, test } from 'node:test';
import enclave from 'enclavejs';
import { honouredFactoryOptions, honouredRouterOptions } from '../src/factory-options.js';

const require = createRequire(import.meta.url);
const fastifyDir = dirname(require.resolve('fastify/package.json'));
const fastify = require('fastify') as any;
const differencesDoc = readFileSync(new URL('../../../docs/differences.md', import.meta.url), 'utf8');

/**
 * Deliberate absences: Fastify API that Enclave does not offer, on purpose. Each is explained in
 * docs/differences.md under its name (in backticks). Keys are `<area>.<name>`.
 */
const deliberateAbsences: Record<string, string> = {};

/** Not there YET: work still to do. The goal is an empty list. */
const todoMissing = new Set<string>([]);

function publicKeys(object: object): Set<string> {
  const keys = new Set<string>();
  for (let current: object | null = object; current !== null; current = Object.getPrototypeOf(current)) {
    if (current === Object.prototype || current === Function.prototype) break;
    for (const key of Object.getOwnPropertyNames(current)) if (key !== 'constructor') keys.add(key);
  }
  return keys;
}

function missing(area: string, theirs: Iterable<string>, ours: Set<string>): string[] {
  const absent: string[] = [];
  for (const key of theirs) {
    const id = `${area}.${key}`;
    if (!ours.has(key) && !(id in deliberateAbsences) && !todoMissing.has(id)) absent.push(id);
  }
  return absent.sort();
}

/** Allowlisted entries that Enclave now has: the list must shrink with the work. */
function stale(area: string, ours: Set<string>): string[] {
  return [...todoMissing, ...Object.keys(deliberateAbsences)].filter((id) => id.startsWith(`${area}.`) && ours.has(id.slice(area.length + 1))).sort();
}

function assertCovers(area: string, theirs: Iterable<string>, ours: Set<string>): void {
  assert.deepEqual(missing(area, theirs, ours), [], `Enclave lacks these Fastify ${area} members`);
  assert.deepEqual(stale(area, ours), [], `remove these from the allowlists: Enclave has them now`);
}

interface Seen {
  instance: Set<string>;
  request: Set<string>;
  reply: Set<string>;
}

async function observe(factory: (options?: any) => any): Promise<Seen & { instanceAfterReady: Set<string> }> {
  const app = factory();
  let request = new Set<string>();
  let reply = new Set<string>();
  app.post('/', (req: any, rep: any) => {
    request = publicKeys(req);
    reply = publicKeys(rep);
    return { ok: true };
  });
  const instance = publicKeys(app);
  await app.ready();
  const instanceAfterReady = publicKeys(app);
  const response = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } });
  assert.equal(response.statusCode, 200);
  await app.close();
  return { instance, instanceAfterReady, request, reply };
}

// ---- factory options, as Fastify reads them ----

function fastifySource(path: string): string {
  return readFileSync(join(fastifyDir, path), 'utf8');
}

function matchAll(source: string, pattern: RegExp): string[] {
  return [...source.matchAll(pattern)].map((match) => match[1] as string);
}

/** The JSON schema Fastify validates its initial config with (config-validator.js). */
function configSchema(): { properties: Record<string, any> } {
  for (const declaration of matchAll(fastifySource('lib/config-validator.js'), /^const schema\d+ = (\{.*\});$/gm)) {
    const schema = JSON.parse(declaration);
    if (schema.properties?.bodyLimit !== undefined) return schema;
  }
  throw new Error('config-validator.js: the options schema was not found (did its format change?)');
}

/** The part of a source file from a function's declaration to the next top-level function. */
function functionBody(source: string, name: string): string {
  const start = source.indexOf(`function ${name} (`);
  assert.notEqual(start, -1, `function ${name} not found in Fastify's sources`);
  const end = source.indexOf('\nfunction ', start + 1);
  return source.slice(start, end === -1 ? undefined : end);
}

/**
 * Every top-level factory option Fastify reads: the validated ones (config-validator.js), those
 * read as `options.x` by the factory (fastify.js), by the server and logger set-up, the schema
 * controller's `serverOptions.x`, the router's, and the ones taken by destructuring in the
 * request wrapper. Internal router hooks that Fastify fills in itself are router options below.
 */
function fastifyFactoryOptions(): { top: Set<string>; router: Set<string> } {
  const schema = configSchema();
  const optionRead = /\boptions\.([A-Za-z_]\w*)/g;
  const routerKeys = /const routerKeys = \[([^\]]*)\]/.exec(fastifySource('lib/route.js'));
  assert.ok(routerKeys, 'lib/route.js: routerKeys not found');
  const router = new Set([...Object.keys(schema.properties.routerOptions?.properties ?? {}), ...matchAll(routerKeys[1] as string, /'(\w+)'/g)]);
  const wrapRouting = /function wrapRouting \(router, \{([^}]*)\}\)/.exec(fastifySource('fastify.js'));
  assert.ok(wrapRouting, 'fastify.js: wrapRouting not found');
  const top = new Set([
    ...Object.keys(schema.properties),
    ...matchAll(functionBody(fastifySource('fastify.js'), 'processOptions'), optionRead),
    ...matchAll(fastifySource('fastify.js'), optionRead),
    ...matchAll(functionBody(fastifySource('lib/server.js'), 'getServerInstance'), optionRead),
    ...matchAll(fastifySource('lib/logger-factory.js'), optionRead),
    ...matchAll(fastifySource('lib/schema-controller.js'), /\bserverOptions\.([A-Za-z_]\w*)/g),
    ...matchAll(fastifySource('lib/route.js'), /Object\.hasOwn\(options, '(\w+)'\)/g),
    ...(wrapRouting[1] as string).split(',').map((name) => name.trim()),
  ]);
  // Router keys are also accepted at the top level (deprecated there, still honoured).
  for (const key of router) if (key !== 'compile') top.add(key);
  return { top, router };
}

describe('the public API against the installed Fastify', () => {
  test('the installed Fastify is 5.x', () => {
    const { version } = JSON.parse(fastifySource('package.json'));
    assert.match(version, /^5\./);
  });

  let theirs: Awaited<ReturnType<typeof observe>>;
  let ours: Awaited<ReturnType<typeof observe>>;
  before(async () => {
    theirs = await observe(fastify);
    ours = await observe(enclave);
  });

  test('the walk sees the members it should on both sides (no vacuous comparison)', () => {
    for (const seen of [theirs, ours]) {
      assert.ok(seen.instance.has('register') && seen.instance.has('inject') && seen.instanceAfterReady.has('listen'));
      assert.ok(seen.request.has('params') && seen.request.has('raw'));
      assert.ok(seen.reply.has('send') && seen.reply.has('code'));
    }
  });

  test('the instance has every Fastify member, before and after ready', () => {
    assertCovers('instance', theirs.instance, ours.instance);
    assertCovers('instance', theirs.instanceAfterReady, ours.instanceAfterReady);
  });

  test('the request has every Fastify member', () => {
    assertCovers('request', theirs.request, ours.request);
  });

  test('the reply has every Fastify member', () => {
    assertCovers('reply', theirs.reply, ours.reply);
  });

  test('errorCodes has every Fastify code, each with the same status code', () => {
    const ours = new Set(Object.keys(enclave.errorCodes));
    assert.ok(Object.keys(fastify.errorCodes).length > 80);
    assertCovers('errorCodes', Object.keys(fastify.errorCodes), ours);
    for (const code of Object.keys(fastify.errorCodes)) {
      const mine = (enclave.errorCodes as Record<string, any>)[code];
      if (mine === undefined) continue;
      const probe = new fastify.errorCodes[code]('a', 'b', 'c');
      assert.equal(new mine('a', 'b', 'c').statusCode, probe.statusCode, `${code} status code`);
      assert.equal(mine.code ?? new mine().code, code);
    }
  });

  test('the package has every named export of Fastify', () => {
    assertCovers('export', Object.keys(fastify), publicKeys(enclave));
  });

  test('every factory option Fastify accepts is honoured', () => {
    const { top, router } = fastifyFactoryOptions();
    // Sanity: options everybody knows are found in Fastify's sources.
    for (const name of ['logger', 'bodyLimit', 'genReqId', 'http2', 'serverFactory', 'rewriteUrl']) assert.ok(top.has(name), name);
    assert.ok(router.has('querystringParser'));
    assertCovers('option', top, new Set(honouredFactoryOptions));
    assertCovers('routerOption', router, new Set(honouredRouterOptions));
  });

  test('each deliberate absence is explained in docs/differences.md', () => {
    for (const id of Object.keys(deliberateAbsences)) {
      const name = id.slice(id.indexOf('.') + 1);
      assert.ok(differencesDoc.includes(`\`${name}\``), `docs/differences.md does not mention \`${name}\``);
    }
  });
});
