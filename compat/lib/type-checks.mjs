// The checks of one type-test file, read from its source with the TypeScript parser. A check is
// one thing the file asserts about the types under test:
// - `expect`: one tstyche assertion, `expect(...).type[.not].matcher(...)`;
// - `rejects`: one `// @ts-expect-error` directive (the next line must not compile);
// - `compiles`: a statement holding neither (a declaration, a call, a `declare module` block),
//   which asserts by compiling.
// Every check gets an id that survives line shifts: its enclosing `test()` names, the first line
// of its statement when it sits inside one (a hook, a route), its own source text, and an
// ordinal when that is not yet unique in the file.
import ts from 'typescript';

const testFunctions = new Set(['test', 'it', 'describe']);
const directivePattern = /^[ \t/*{]*@ts-expect-error!?:? *(.*?)(?:\*\/.*)?$/gm;
// Source text as it goes into an id: on one line, `normalise`d, at most `max` characters.
const oneLine = (text, max = 160, normalise = (t) => t) => {
  const collapsed = normalise(text).replace(/\s+/g, ' ').trim();
  return collapsed.length > max ? `${collapsed.slice(0, max - 1)}…` : collapsed;
};

// `test('name', () => { ... })` and the like: the statements of its body are units of their own.
function testBlock(statement, sourceFile) {
  if (!ts.isExpressionStatement(statement) || !ts.isCallExpression(statement.expression)) return null;
  const call = statement.expression;
  const callee = ts.isPropertyAccessExpression(call.expression) ? call.expression.expression : call.expression;
  const [name, body] = call.arguments;
  if (!ts.isIdentifier(callee) || !testFunctions.has(callee.text) || !name || !body) return null;
  if (!(ts.isArrowFunction(body) || ts.isFunctionExpression(body)) || !ts.isBlock(body.body)) return null;
  return { name: ts.isStringLiteralLike(name) ? name.text : name.getText(sourceFile), statements: body.body.statements };
}

// The statements that fail together when one of their lines does not compile: the file's
// top-level statements and those of each test body. Import declarations are not units.
function collectUnits(sourceFile) {
  const units = [];
  const visit = (statements, context) => {
    for (const statement of statements) {
      if (ts.isImportDeclaration(statement)) continue;
      const block = testBlock(statement, sourceFile);
      if (block) visit(block.statements, [...context, block.name]);
      else units.push({ node: statement, context, checks: [] });
    }
  };
  visit(sourceFile.statements, []);
  return units;
}

// `expect(...)` → the whole chain up to the matcher call, or null when it is not one.
function assertionChain(node) {
  if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== 'expect') return null;
  let chain = node.parent;
  if (!chain || !ts.isPropertyAccessExpression(chain) || chain.name.text !== 'type') return null;
  if (ts.isPropertyAccessExpression(chain.parent) && chain.parent.name.text === 'not') chain = chain.parent;
  const matcher = chain.parent;
  if (!matcher || !ts.isPropertyAccessExpression(matcher) || !ts.isCallExpression(matcher.parent)) return null;
  return matcher.parent;
}

const unitAt = (units, position) => units.find((unit) => unit.node.getFullStart() <= position && position < unit.node.getEnd());

/**
 * Reads the checks of one type-test file; `normalise` rewrites source text before it goes into
 * an id (so that a check has the same id whichever package the file imports).
 * @returns {{ sourceFile: ts.SourceFile, units: object[], checks: object[] }} checks in source
 *   order, each `{ id, kind, start, unit }`: `start` is where tstyche's result points (the
 *   `expect` call, or the directive's `@ts-expect-error`).
 */
export function extractChecks(fileName, text, normalise = (t) => t) {
  const line = (snippet, max) => oneLine(snippet, max, normalise);
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const units = collectUnits(sourceFile);
  const found = [];
  for (const unit of units) {
    const visit = (node) => {
      const chain = assertionChain(node);
      if (chain) found.push({ kind: 'expect', start: node.getStart(sourceFile), text: line(chain.getText(sourceFile)), unit, node: chain });
      ts.forEachChild(node, visit);
    };
    visit(unit.node);
  }
  for (const match of text.matchAll(directivePattern)) {
    const start = match.index + match[0].indexOf('@ts-expect-error');
    const unit = unitAt(units, start);
    if (!unit) continue;
    const after = text
      .slice(match.index + match[0].length)
      .split('\n')
      .map((line) => line.trim());
    const next = after.find((line) => line && !line.startsWith('//')) ?? '';
    found.push({ kind: 'rejects', start, text: `@ts-expect-error ${line(next, 100)}${match[1] ? ` (${line(match[1], 80)})` : ''}`, unit });
  }
  for (const unit of units) {
    if (!found.some((check) => check.unit === unit))
      found.push({ kind: 'compiles', start: unit.node.getStart(sourceFile), text: `compiles: ${line(unit.node.getText(sourceFile))}`, unit });
  }
  found.sort((a, b) => a.start - b.start);
  const seen = new Map();
  const checks = found.map(({ kind, start, text, unit, node }) => {
    // A check that is its whole statement (or a directive just above it) needs no heading; one
    // inside a hook or a route does.
    const wholeUnit = kind === 'compiles' || (node && ts.isExpressionStatement(unit.node) && unit.node.expression === node);
    const heading = !wholeUnit && !(kind === 'rejects' && start < unit.node.getStart(sourceFile));
    const scope = [...unit.context, ...(heading ? [line(unit.node.getText(sourceFile).split('\n')[0], 100)] : [])];
    const base = [...scope, text].join(' > ');
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const check = { id: n === 1 ? base : `${base} #${n}`, kind, start, unit };
    unit.checks.push(check);
    return check;
  });
  return { sourceFile, units, checks };
}
