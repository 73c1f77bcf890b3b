// The wording of `register()`'s error for wrong plugin options (issue 15): it sits on the
// option that is wrong (the span an editor underlines is the option's name), with no overload list ending in "parameter of type
// 'never'". Compiled as a consumer of the built packages would compile it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { consumerCompilerOptions } from '../consumer-compiler-options.js';

const fixture = fileURLToPath(new URL('./fixtures/bad-plugin-options.mts', import.meta.url));

interface Reported {
  line: number;
  at: string;
  text: string;
}

function report(diagnostic: ts.Diagnostic): Reported {
  const { file, start = 0, length = 0 } = diagnostic;
  assert.ok(file, 'the diagnostic has a location');
  const related = (diagnostic.relatedInformation ?? []).map((info) => ts.flattenDiagnosticMessageText(info.messageText, '\n'));
  return {
    line: file.getLineAndCharacterOfPosition(start).line + 1,
    at: file.text.slice(start, start + length),
    text: [ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'), ...related].join('\n'),
  };
}

test('wrong plugin options are reported at the option, by name', () => {
  const program = ts.createProgram([fixture], consumerCompilerOptions);
  const reported = ts.getPreEmitDiagnostics(program).map(report);
  assert.equal(reported.length, 2, JSON.stringify(reported, null, 2));
  const [wrongType, misspelt] = reported as [Reported, Reported];

  assert.equal(wrongType.line, 6);
  assert.equal(wrongType.at, 'keys');
  assert.match(wrongType.text, /Type 'string' is not assignable to type 'readonly string\[\] \| ReadonlySet<string> \| undefined'/);

  assert.equal(misspelt.line, 7);
  assert.equal(misspelt.at, 'kyes');
  assert.match(misspelt.text, /'kyes' does not exist in type/);

  for (const { text } of reported) {
    assert.doesNotMatch(text, /No overload matches this call|parameter of type 'never'/);
  }
});
