// Micro-benchmark of response serialization (SPEC §7.2, §2): the default serializer compiler
// (fast-json-stringify, through Enclave's own factory) against plain JSON.stringify, and against
// a candidate — "strip undeclared fields with a compiled function, then JSON.stringify".
//
// Run:  node bench/serializer.bench.mjs            (needs no build: it loads the TypeScript
//       sources of packages/enclave/src through tsx's `tsImport`)
//       BENCH_MS=1000 BENCH_SAMPLES=9 node bench/serializer.bench.mjs   for longer runs
//       (defaults: 7 rounds of 300 ms per contender)
//
// Numbers are ops/s (higher is better), the median of the rounds, the contenders taking turns; ratios are against
// JSON.stringify, and "vs default" is the candidate against fast-json-stringify. JSON.stringify is not a real alternative — it writes every property, declared
// or not — it is the yardstick. The candidate is only here to decide whether a compiler of our
// own is worth writing; SPEC §2 keeps fast-json-stringify unless one wins on Node 20 and 24 and
// passes the differential tests in packages/enclave/test/serialization-differential.test.ts.
import assert from 'node:assert/strict';
import { tsImport } from 'tsx/esm/api';

const { createDefaultSerializerCompilerFactory } = await tsImport('../packages/enclave/src/schema/response-serializers.ts', import.meta.url);

const SAMPLE_MS = Number(process.env.BENCH_MS ?? 300);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 7);

// ─── the candidate: a schema-compiled field strip, then JSON.stringify ─────────────────────────

/**
 * Generates a function returning a new value holding only what the schema declares, coerced the
 * way fast-json-stringify coerces. Covers the keywords these benchmark schemas use (object with
 * properties, array with items, the scalar types, nullable); enough to measure, not a product.
 */
function compileFieldStrip(schema) {
  let counter = 0;
  const functions = [];
  const build = (node) => {
    const name = `strip${counter++}`;
    const nullable = node.nullable === true;
    let body;
    switch (node.type) {
      case 'object': {
        const lines = Object.entries(node.properties ?? {}).map(([key, child]) => {
          const quoted = JSON.stringify(key);
          return `x = v[${quoted}]; if (x !== undefined) o[${quoted}] = ${build(child)}(x);`;
        });
        body = `if (v === null) return ${nullable ? 'null' : '{}'}; const o = {}; let x; ${lines.join(' ')} return o;`;
        break;
      }
      case 'array':
        body = `if (v === null) return ${nullable ? 'null' : '[]'}; if (!Array.isArray(v)) throw new TypeError('not an array'); const f = ${build(node.items ?? {})}; const a = new Array(v.length); for (let i = 0; i < v.length; i++) a[i] = f(v[i]); return a;`;
        break;
      case 'string':
        body = `if (typeof v === 'string') return v; if (v === null) return ${nullable ? 'null' : "''"}; if (v instanceof Date) return v.toISOString(); return String(v);`;
        break;
      case 'number':
        body = `if (v === null${nullable ? '' : ' && false'}) return null; const n = Number(v); if (n !== n) throw new Error('not a number'); return n;`;
        break;
      case 'integer':
        body = `if (v === null${nullable ? '' : ' && false'}) return null; if (Number.isInteger(v)) return v; const n = Math.trunc(v); if (!Number.isFinite(n)) throw new Error('not an integer'); return n;`;
        break;
      case 'boolean':
        body = `if (v === null${nullable ? '' : ' && false'}) return null; return !!v;`;
        break;
      case 'null':
        body = 'return null;';
        break;
      default:
        body = 'return v;';
    }
    functions.push(`function ${name}(v) { ${body} }`);
    return name;
  };
  const root = build(schema);
  const strip = new Function(`${functions.join('\n')}\nreturn ${root};`)();
  return (data) => JSON.stringify(strip(data));
}

// ─── cases ────────────────────────────────────────────────────────────────────────────────────

const userSchema = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' }, admin: { type: 'boolean' } },
};
const user = { id: 42, name: 'Ada Lovelace', email: 'ada@example.com', admin: false };

const taskSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      title: { type: 'string' },
      done: { type: 'boolean' },
      score: { type: 'number' },
      tags: { type: 'array', items: { type: 'string' } },
    },
  },
};
const tasks = Array.from({ length: 100 }, (_, index) => ({
  id: index,
  title: `Task number ${index}`,
  done: index % 3 === 0,
  score: index * 1.5,
  tags: ['work', `t${index % 7}`],
}));

const address = { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' }, zip: { type: 'string' } } };
const orderSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    createdAt: { type: 'string' },
    customer: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, shipping: address, billing: address } },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          sku: { type: 'string' },
          quantity: { type: 'integer' },
          unitPrice: { type: 'number' },
          product: { type: 'object', properties: { name: { type: 'string' }, category: { type: 'string' }, weight: { type: 'number' } } },
        },
      },
    },
    totals: { type: 'object', properties: { net: { type: 'number' }, tax: { type: 'number' }, gross: { type: 'number' } } },
    note: { type: 'string', nullable: true },
  },
};
const order = {
  id: 'ord_0001',
  createdAt: '2024-05-01T10:00:00.000Z',
  customer: {
    id: 7,
    name: 'Grace Hopper',
    shipping: { street: '1 Navy Way', city: 'Arlington', zip: '22201' },
    billing: { street: '1 Navy Way', city: 'Arlington', zip: '22201' },
  },
  lines: Array.from({ length: 10 }, (_, index) => ({
    sku: `SKU-${index}`,
    quantity: index + 1,
    unitPrice: 9.99 + index,
    product: { name: `Product ${index}`, category: index % 2 ? 'books' : 'tools', weight: 0.5 * index },
  })),
  totals: { net: 100.5, tax: 19.1, gross: 119.6 },
  note: null,
};

const cases = [
  { name: 'small object (4 fields)', schema: userSchema, data: user },
  { name: '100-item array', schema: taskSchema, data: tasks },
  { name: 'nested document', schema: orderSchema, data: order },
];

// ─── measuring ────────────────────────────────────────────────────────────────────────────────

let sink = 0;

// One sampler per contender, each compiled from its own source text, so that the `fn(data)` call
// site inside stays monomorphic instead of seeing all three contenders.
function createSampler() {
  return new Function(
    'fn',
    'data',
    'sampleMs',
    `
    let operations = 0;
    let length = 0;
    const start = process.hrtime.bigint();
    const deadline = start + BigInt(sampleMs) * 1000000n;
    let now = start;
    // Read the clock every 64 calls so that it does not dominate small cases, and divide by the
    // time actually spent, not the time asked for.
    while (now < deadline) {
      for (let index = 0; index < 64; index++) length += fn(data).length;
      operations += 64;
      now = process.hrtime.bigint();
    }
    return { opsPerSecond: operations / (Number(now - start) / 1e9), length };
  `,
  );
}

/**
 * Medians of interleaved samples: the contenders take turns, so that a burst of load on a shared
 * machine slows all of them rather than whichever happened to be running.
 */
function measureInterleaved(contenders, data) {
  const samplers = contenders.map(() => createSampler());
  const samples = contenders.map(() => []);
  const run = (index) => {
    const { opsPerSecond, length } = samplers[index](contenders[index], data, SAMPLE_MS);
    sink += length;
    return opsPerSecond;
  };
  for (let index = 0; index < contenders.length; index++) run(index); // warm-up: let the JIT settle
  for (let round = 0; round < SAMPLES; round++) {
    for (let index = 0; index < contenders.length; index++) samples[index].push(run(index));
  }
  return samples.map((values) => values.sort((left, right) => left - right)[Math.floor(values.length / 2)]);
}

const format = (opsPerSecond) => Math.round(opsPerSecond).toLocaleString('en-US').padStart(13);
const ratio = (value, base) => `${(value / base).toFixed(2)}x`.padStart(7);

const compiler = createDefaultSerializerCompilerFactory()({});
console.log(`serializer micro-benchmark — Node ${process.version}, ${SAMPLES} × ${SAMPLE_MS} ms samples, median ops/s\n`);
console.log(
  `${'case'.padEnd(26)}${'JSON.stringify'.padStart(15)}${'default (fjs)'.padStart(15)}${'ratio'.padStart(8)}${'strip+stringify'.padStart(17)}${'ratio'.padStart(8)}${'vs default'.padStart(12)}`,
);
for (const { name, schema, data } of cases) {
  const serializers = {
    json: JSON.stringify,
    fjs: compiler({ schema, method: 'GET', url: '/bench', httpStatus: '200' }),
    strip: compileFieldStrip(schema),
  };
  // The three must agree on the document before their speed means anything.
  for (const serialize of Object.values(serializers)) assert.deepEqual(JSON.parse(serialize(data)), data);
  const [json, fjs, strip] = measureInterleaved([serializers.json, serializers.fjs, serializers.strip], data);
  console.log(
    `${name.padEnd(26)}${format(json).padStart(15)}${format(fjs).padStart(15)}${ratio(fjs, json)} ${format(strip).padStart(16)}${ratio(strip, json)}${ratio(strip, fjs).padStart(12)}`,
  );
}
if (sink === 0) console.log('(unreachable: keeps the results alive)');
