// One type-test file's working copy for the type gate (type-run.mjs): the original text plus
// the edits that neutralise its stray type errors, and the checks those errors failed.
// Neutralising, by kind of error:
// - a name the module under test does not export: the import specifier is blanked out, so each
//   statement using the name fails on its own (its reason names the missing export);
// - an unused `@ts-expect-error` (the target accepts code that should be refused): the
//   directive is blanked out, its check fails;
// - any other error: a ts-ignore comment is inserted above its line, and the checks of the
//   smallest statement around it that has any fail with the error as the reason.
import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { extractChecks } from './type-checks.mjs';

const missingExportCodes = new Set([2305, 2614, 2724]);
const unusedDirectiveCode = 2578;

// One file's working copy: the original text plus edits, all kept in original positions, so a
// position tstyche reports in the working copy maps back to the check it belongs to.
export class WorkingCopy {
  constructor(path, normalise) {
    this.path = path;
    this.original = readFileSync(path, 'utf8');
    this.extracted = extractChecks(path, this.original, normalise);
    this.byStart = new Map(this.extracted.checks.map((check) => [check.start, check]));
    this.insertions = []; // { at, text }, at: an original position (a line start)
    this.blanks = []; // [start, end) in original positions
    this.failed = new Map(); // check id -> reason, from neutralised errors
    this.missing = new Map(); // name -> reason, names whose import was blanked out
    this.broken = new Map(); // name -> reason, names declared by a statement that failed
    this.notes = [];
  }

  text() {
    let text = this.original;
    for (const [start, end] of this.blanks) text = text.slice(0, start) + text.slice(start, end).replace(/[^\n]/g, ' ') + text.slice(end);
    for (const { at, text: inserted } of [...this.insertions].sort((a, b) => b.at - a.at)) text = text.slice(0, at) + inserted + text.slice(at);
    return text;
  }

  write() {
    writeFileSync(this.path, this.text());
  }

  toOriginal(position) {
    let shift = 0;
    for (const { at, text } of [...this.insertions].sort((a, b) => a.at - b.at)) {
      if (position < at + shift) break;
      if (position < at + shift + text.length) return at;
      shift += text.length;
    }
    return position - shift;
  }

  // A reason that names a blanked import says which export is missing.
  explain(reason) {
    for (const [name, why] of this.missing) {
      if (new RegExp(`Cannot find (name|namespace) '${name}'|'${name}' only refers to a type`).test(reason)) return `${why} (used here)`;
    }
    return reason;
  }

  // An assertion that failed on its own may owe it to a declaration that did not compile (its
  // name then has TypeScript's error type, which tstyche refuses as `any`): say which.
  explainAssertion(check, reason) {
    if (reason.startsWith('missing export')) return reason;
    for (const [name, why] of this.broken) {
      if (new RegExp(`\\b${name}\\b`).test(check.id)) return `${reason} (uses ${name}, whose declaration failed: ${why})`;
    }
    return reason;
  }

  failChecks(checks, reason) {
    for (const check of checks) if (!this.failed.has(check.id)) this.failed.set(check.id, this.explain(reason));
  }

  unitAt(position) {
    return this.extracted.units.find((unit) => unit.node.getFullStart() <= position && position < unit.node.getEnd());
  }

  // The checks of the smallest statement around `position` that has any.
  checksAround(position) {
    const unit = this.unitAt(position);
    if (!unit) return [];
    let best = unit.checks;
    const visit = (node) => {
      if (node.getFullStart() > position || position >= node.getEnd()) return;
      if (ts.isStatement(node) && node !== unit.node) {
        const inside = unit.checks.filter((check) => node.getFullStart() <= check.start && check.start < node.getEnd());
        if (inside.length > 0) best = inside;
      }
      ts.forEachChild(node, visit);
    };
    visit(unit.node);
    return best;
  }

  // The import specifier a stray error says the module does not export, if it is one.
  missingExport({ position, code }) {
    if (!missingExportCodes.has(code)) return undefined;
    const token = findToken(this.extracted.sourceFile, position);
    return token && findAncestor(token, ts.isImportSpecifier);
  }

  // Handles one stray error `{ position, code, message }` (position: in the original text);
  // returns false when there was nothing left to neutralise.
  neutralise(stray) {
    const { position, code, message } = stray;
    const reason = `${message} ts(${code})`;
    const { sourceFile } = this.extracted;
    const specifier = this.missingExport(stray);
    if (specifier) {
      if (this.blanks.some(([start]) => start === specifier.getStart(sourceFile))) return false;
      if (!this.missing.has(specifier.name.text)) this.missing.set(specifier.name.text, `missing export: ${reason}`);
      const list = specifier.parent.elements;
      const next = list[list.indexOf(specifier) + 1];
      this.blanks.push([specifier.getStart(sourceFile), next ? next.getStart(sourceFile) : specifier.getEnd()]);
      if (!next && list.hasTrailingComma) this.blanks.push([specifier.getEnd(), list.end]);
      return true;
    }
    if (code === unusedDirectiveCode) {
      const check = this.extracted.checks.find((c) => c.kind === 'rejects' && c.start >= position && c.start < position + 40);
      if (!check || this.blanks.some(([start]) => start === check.start)) return false;
      this.failChecks([check], `accepted: the code compiles (${reason})`);
      this.blanks.push([check.start, check.start + '@ts-expect-error'.length]);
      return true;
    }
    const lineStart = this.original.lastIndexOf('\n', position - 1) + 1;
    if (this.insertions.some((insertion) => insertion.at === lineStart)) return false;
    this.insertions.push({ at: lineStart, text: '// @ts-ignore -- compat: neutralised\n' });
    const checks = this.checksAround(position);
    for (const name of declaredNames(this.unitAt(position)?.node)) {
      if (!this.broken.has(name)) this.broken.set(name, this.explain(reason));
    }
    if (checks.length === 0) this.notes.push(`line ${sourceFile.getLineAndCharacterOfPosition(position).line + 1}: ${reason}`);
    this.failChecks(checks, reason);
    return true;
  }
}

// The names a top-level statement declares (const a, b; type T; interface I; function f; …).
function declaredNames(statement) {
  if (!statement) return [];
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((declaration) => (ts.isIdentifier(declaration.name) ? [declaration.name.text] : []));
  }
  return statement.name && ts.isIdentifier(statement.name) ? [statement.name.text] : [];
}

function findToken(sourceFile, position) {
  let found;
  const visit = (node) => {
    if (node.getStart(sourceFile) <= position && position < node.getEnd()) {
      found = node;
      ts.forEachChild(node, visit);
    }
  };
  visit(sourceFile);
  return found;
}

function findAncestor(node, test) {
  for (let current = node; current; current = current.parent) if (test(current)) return current;
  return undefined;
}
