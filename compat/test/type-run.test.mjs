// The type gate's stray-error isolation (compat/lib/type-run.mjs): a type error outside an
// assertion fails the checks of its own statement and nothing else, where stock tstyche would
// stop the whole file at it. Runs tstyche on a small project in compat/.work/ (inside the
// repository, so that `tstyche` and `typescript` resolve).
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runTypeTests } from '../lib/type-run.mjs';
import { workDir } from '../lib/scratch.mjs';

const library = `export interface Box<T> { value: T }
export declare function box<T>(value: T): Box<T>
`;

const sample = `import { expect, test } from 'tstyche'
import { box, Missing, type Box } from './library.js'

expect(box(1)).type.toBe<Box<number>>()
const broken: number = 'text'
expect(broken).type.toBe<number>()
expect<Missing>().type.toBe<string>()
;[1, 2].forEach((n) => {
  expect(n).type.toBe<number>()
  const wrong: string = n
  box(n).value.toFixed(1)
})
// @ts-expect-error  Argument of type 'string' is not assignable
box<number>('x')
// @ts-expect-error  Argument of type
box(2)
// @ts-expect-error  Expected 3 arguments
box(3, 4)
box(true).value.nope()
expect(box(true)).type.toBe<Box<boolean>>()
test('one test', () => {
  const early: string = 1
  expect(early).type.toBe<string>()
  expect(box('a').value).type.toBe<string>()
})
`;

describe('stray type errors fail their own statement only', () => {
  const dir = join(workDir, `type-run-test-${process.pid}`);
  let outcome;
  before(async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'library.ts'), library);
    writeFileSync(join(dir, 'sample.tst.ts'), sample);
    const compilerOptions = { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, types: [] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
    outcome = (await runTypeTests(dir, ['sample.tst.ts']))['sample.tst.ts'];
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const status = (id) => {
    const test = outcome.tests[id];
    assert.ok(test, `a check named ${id}; got ${Object.keys(outcome.tests).join(' | ')}`);
    return test;
  };

  test('checks after a stray error still run and pass', () => {
    assert.equal(status('expect(box(1)).type.toBe<Box<number>>()').status, 'pass');
    assert.equal(status('expect(broken).type.toBe<number>()').status, 'pass');
    assert.equal(status('expect(box(true)).type.toBe<Box<boolean>>()').status, 'pass');
    assert.equal(status("one test > expect(box('a').value).type.toBe<string>()").status, 'pass');
  });

  test('a statement with an error fails with the TypeScript diagnostic as its reason', () => {
    const declaration = status("compiles: const broken: number = 'text'");
    assert.equal(declaration.status, 'fail');
    assert.match(declaration.reason, /Type 'string' is not assignable to type 'number'\. ts\(2322\)/);
    assert.match(status('compiles: box(true).value.nope()').reason, /Property 'nope' does not exist .* ts\(2339\)/);
    const inTest = status('one test > compiles: const early: string = 1');
    assert.match(inTest.reason, /ts\(2322\)/);
  });

  test('an error inside a callback fails the checks of the smallest statement around it that has any', () => {
    const inLoop = status('[1, 2].forEach((n) => { > expect(n).type.toBe<number>()');
    assert.equal(inLoop.status, 'fail');
    assert.match(inLoop.reason, /Type 'number' is not assignable to type 'string'\. ts\(2322\)/);
  });

  test('a name the module does not export fails the checks that use it, naming the export', () => {
    const missing = status('expect<Missing>().type.toBe<string>()');
    assert.equal(missing.status, 'fail');
    assert.match(missing.reason, /^missing export: Module '"\.\/library\.js"' has no exported member 'Missing'\. ts\(2305\)/);
  });

  test('@ts-expect-error: refused code passes, accepted code fails, and the message is compared', () => {
    assert.equal(status("@ts-expect-error box<number>('x') (Argument of type 'string' is not assignable)").status, 'pass');
    const accepted = status('@ts-expect-error box(2) (Argument of type)');
    assert.equal(accepted.status, 'fail');
    assert.match(accepted.reason, /^accepted: the code compiles \(Unused '@ts-expect-error' directive\. ts\(2578\)\)/);
    const otherMessage = status('@ts-expect-error box(3, 4) (Expected 3 arguments)');
    assert.equal(otherMessage.status, 'fail');
    assert.match(otherMessage.reason, /did not match.*Expected 1 arguments, but got 2/);
  });

  test('every check has an outcome, and nothing is left unreported', () => {
    assert.equal(Object.keys(outcome.tests).length, 13);
    for (const [id, test] of Object.entries(outcome.tests)) assert.doesNotMatch(test.reason ?? '', /not reported/, id);
  });
});
