// Runs type-test files with tstyche and gives every check of every file an outcome, however
// many stray type errors a file has. Stock tstyche stops a file at its first type error outside
// an assertion (a test at one inside a test body): here each such error fails only the checks
// of the statement it sits in, then is neutralised in the working copy (type-working-copy.mjs),
// and the file is checked again, until no stray error is left.
import { join } from 'node:path';
import ts from 'typescript';
import { WorkingCopy } from './type-working-copy.mjs';

const maxRounds = 8;

const flatten = (text) => (Array.isArray(text) ? text.join(' ') : String(text)).replace(/\s+/g, ' ').trim();
const codeOf = (diagnostic) => Number(/\d+/.exec(diagnostic.code ?? '')?.[0] ?? 0);
const describeDiagnostic = (diagnostic) => `${flatten(diagnostic.text)}${diagnostic.code ? ` ${diagnostic.code}` : ''}`;
function describeAll(diagnostics) {
  const parts = diagnostics.flatMap((diagnostic) => [describeDiagnostic(diagnostic), ...(diagnostic.related ?? []).map(describeDiagnostic)]);
  const text = parts.join(' | ');
  return text.length > 400 ? `${text.slice(0, 399)}…` : text;
}

// What TypeScript itself reports for the working copies, one program over the scratch folder:
// per file, the errors tstyche would call stray, i.e. outside every assertion's source and
// target (tstyche gives those to the assertion). Much cheaper than a tstyche run, so the rounds
// of neutralising happen here, and tstyche runs once on the result.
// `previous.program` (the last round's) lets TypeScript reuse what did not change.
function compilerRound(dir, paths, previous) {
  const config = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, oldProgram: previous.program });
  previous.program = program;
  const byFile = new Map();
  for (const path of paths) {
    const sourceFile = program.getSourceFile(path);
    const assertions = sourceFile ? assertionArguments(sourceFile) : [];
    const diagnostics = sourceFile ? [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)] : [];
    const stray = diagnostics
      .filter((d) => d.category === ts.DiagnosticCategory.Error && d.start != null)
      .filter((d) => !assertions.some((node) => d.start >= node.pos && d.start <= node.end))
      .map((d) => ({ start: d.start, code: d.code, message: flatten(ts.flattenDiagnosticMessageText(d.messageText, ' ')) }));
    byFile.set(path, { stray, results: [] });
  }
  return byFile;
}

// The argument lists tstyche attributes errors to: an assertion's source (`expect(…)` or
// `expect<…>()`) and target (the matcher's arguments).
function assertionArguments(sourceFile) {
  const lists = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'expect') {
      lists.push(node.typeArguments ?? node.arguments);
      let chain = node.parent;
      while (chain && ts.isPropertyAccessExpression(chain)) chain = chain.parent;
      if (chain && ts.isCallExpression(chain)) lists.push(chain.typeArguments ?? chain.arguments);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return lists;
}

// One tstyche run over some files: per file, the results of its assertions and directives by
// their position in the working copy, and the stray errors.
async function tstycheRound(dir, paths) {
  const { Config, EventEmitter, Runner } = await import('tstyche/api');
  const config = Config.resolve({
    configFileOptions: { reporters: [], checkDeclarationFiles: false, testFileMatch: ['**/*.tst.ts'] },
    commandLineOptions: { root: dir, quiet: true },
  });
  const byFile = new Map(paths.map((path) => [path, { path, results: [], stray: [], error: null }]));
  let current;
  const emitter = new EventEmitter();
  emitter.addHandler({
    on([event, payload]) {
      if (event === 'file:start') current = byFile.get(payload.result.file.path);
      if (!current) return;
      if (event === 'expect:pass') current.results.push({ at: payload.result.expect.node.getStart(), status: 'pass' });
      if (event === 'expect:fail' || event === 'expect:error') {
        current.results.push({ at: payload.result.expect.node.getStart(), status: 'fail', reason: describeAll(payload.diagnostics) });
      }
      if (event === 'suppressed:match' || event === 'suppressed:ignore')
        current.results.push({ at: payload.result.suppressed.directive.start, status: 'pass' });
      if (event === 'suppressed:error') {
        const related = payload.diagnostics.flatMap((diagnostic) => diagnostic.related ?? []);
        const own = payload.diagnostics.map((diagnostic) => ({ ...diagnostic, related: [] }));
        current.results.push({ at: payload.result.suppressed.directive.start, status: 'fail', reason: `refused, but: ${describeAll([...own, ...related])}` });
      }
      if (event === 'file:error' || event === 'test:error') {
        for (const diagnostic of payload.diagnostics) {
          if (diagnostic.origin?.sourceFile?.fileName === current.path) {
            current.stray.push({ start: diagnostic.origin.start, code: codeOf(diagnostic), message: flatten(diagnostic.text) });
          } else current.error = describeAll([diagnostic]);
        }
      }
      if (event === 'collect:error' || event === 'project:error') current.error = describeAll(payload.diagnostics);
    },
  });
  try {
    await new Runner(config).run(paths);
  } finally {
    emitter.removeHandlers();
  }
  return byFile;
}

// Rounds of `round(paths)` until no file has a stray error left to neutralise; returns the
// last result of each file.
async function untilStable(copies, paths, round, last, progress) {
  let pending = paths;
  for (let n = 1; pending.length > 0 && n <= maxRounds; n++) {
    for (const path of pending) copies.get(path).write();
    const results = await round(pending);
    const again = [];
    for (const path of pending) {
      const result = results.get(path);
      last.set(path, result);
      let changed = false;
      const copy = copies.get(path);
      // Positions of this round's working copy, mapped before any of them is neutralised.
      const strays = result.stray.map((stray) => ({ ...stray, position: copy.toOriginal(stray.start) }));
      // A missing export makes errors elsewhere (an implicit any where the type was meant to
      // apply): when there are any, only they are neutralised this round, so that the next
      // round's errors name the missing export.
      const imports = strays.filter((stray) => copy.missingExport(stray));
      for (const stray of imports.length ? imports : strays) changed = copy.neutralise(stray) || changed;
      if (changed) again.push(path);
    }
    progress?.(n, pending.length, again.length);
    pending = again;
  }
  return pending;
}

// A check's outcome once the rounds are done.
function outcome(copy, check, seen, result) {
  if (copy.failed.has(check.id)) return { status: 'fail', reason: copy.failed.get(check.id) };
  if (seen.has(check.id)) return seen.get(check.id);
  const clean = result.stray.length === 0 && !result.error;
  if (check.kind === 'compiles' && clean) return { status: 'pass' };
  return { status: 'fail', reason: `not reported${result.error ? `: ${result.error}` : ''}` };
}

/**
 * Runs the type-test files `names` of the scratch folder `dir` (type-scratch.mjs) until every
 * check has an outcome; the files are edited in place. `normalise` rewrites source text before
 * it goes into a check's id (type-checks.mjs).
 * @returns {Promise<Record<string, { tests: Record<string, {status, reason?}>, note?: string }>>}
 */
export async function runTypeTests(dir, names, { progress, normalise } = {}) {
  const copies = new Map(names.map((name) => [join(dir, name), new WorkingCopy(join(dir, name), normalise)]));
  const paths = [...copies.keys()];
  const last = new Map();
  const previous = {};
  await untilStable(
    copies,
    paths,
    async (pending) => compilerRound(dir, pending, previous),
    last,
    (n, files, again) => progress?.(`tsc round ${n}`, files, again),
  );
  const unstable = await untilStable(
    copies,
    paths,
    (pending) => tstycheRound(dir, pending),
    last,
    (n, files, again) => progress?.(`tstyche round ${n}`, files, again),
  );
  const out = {};
  for (const [path, copy] of copies) {
    const result = last.get(path);
    const seen = new Map();
    for (const { at, status, reason } of result.results) {
      const check = copy.byStart.get(copy.toOriginal(at));
      if (check) seen.set(check.id, status === 'pass' ? { status } : { status, reason: copy.explainAssertion(check, copy.explain(reason)) });
    }
    const tests = Object.fromEntries(copy.extracted.checks.map((check) => [check.id, { kind: check.kind, ...outcome(copy, check, seen, result) }]));
    const notes = [...copy.notes, ...(unstable.includes(path) ? [`still had stray errors after ${maxRounds} runs`] : [])];
    out[path.slice(dir.length + 1)] = { tests, ...(notes.length ? { note: notes.join('; ') } : {}) };
  }
  return out;
}
