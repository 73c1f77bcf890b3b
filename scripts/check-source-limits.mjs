// Two limits on the sources under a directory (issue 30), counted mechanically:
// - the `any` types: each is a place the compiler stops checking, so each must say why in a
//   comment (on its line or the line above), and there must be few of them;
// - the files' lengths: a file past 300 lines has usually grown past one concept.
// `any` is counted as the TypeScript parser's `any` keyword: one in a comment or a string is not
// a type and is not counted.
//   node scripts/check-source-limits.mjs [dir]    default: packages/enclave/src; prints both
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Every `.ts` file under `dir`, as paths relative to it with `/` separators. */
function listSources(dir, base = dir, out = []) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) listSources(path, base, out);
    else if (/\.(c|m)?ts$/.test(entry)) out.push(relative(base, path).split('\\').join('/'));
  }
  return out.sort();
}

/** Whether line `index` (0-based) has a comment, or the line above is one. */
function isCommented(lines, index) {
  const own = lines[index] ?? '';
  const above = (lines[index - 1] ?? '').trim();
  return /\/\/|\/\*/.test(own) || above.startsWith('//') || above.startsWith('*') || above.startsWith('/*') || above.endsWith('*/');
}

/** Each `any` type under `dir`: its file, its line (1-based) and whether a comment explains it. */
export function anyTypesUnder(dir) {
  const found = [];
  for (const file of listSources(dir)) {
    const text = readFileSync(join(dir, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const lines = text.split('\n');
    const visit = (node) => {
      if (node.kind === ts.SyntaxKind.AnyKeyword) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        found.push({ file, line: line + 1, commented: isCommented(lines, line) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The files under `dir` longer than `limit` lines, with their lengths. */
export function filesLongerThan(dir, limit) {
  const long = [];
  for (const file of listSources(dir)) {
    const text = readFileSync(join(dir, file), 'utf8');
    const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
    if (lines > limit) long.push({ file, lines });
  }
  return long;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const dir = resolve(process.argv[2] ?? new URL('../packages/enclave/src', import.meta.url).pathname);
  const perFile = new Map();
  const anys = anyTypesUnder(dir);
  for (const { file, commented } of anys) {
    const counts = perFile.get(file) ?? { all: 0, uncommented: 0 };
    counts.all += 1;
    if (!commented) counts.uncommented += 1;
    perFile.set(file, counts);
  }
  console.log(`${anys.length} any in ${relative(process.cwd(), dir) || '.'}`);
  for (const [file, counts] of [...perFile].sort((a, b) => b[1].all - a[1].all)) {
    console.log(`  ${String(counts.all).padStart(3)}  ${file}${counts.uncommented ? `  (${counts.uncommented} without a comment)` : ''}`);
  }
  const long = filesLongerThan(dir, 300);
  console.log(`${long.length} file(s) over 300 lines`);
  for (const { file, lines } of long) console.log(`  ${lines}  ${file}`);
}
