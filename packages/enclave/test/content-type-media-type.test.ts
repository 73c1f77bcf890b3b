import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatMediaType, parameterValuesEqual, parseMediaType } from '../src/http/content-type-parser.js';

function parsed(value: string) {
  const result = parseMediaType(value);
  assert.ok(result, `expected ${JSON.stringify(value)} to parse`);
  return result;
}

describe('parseMediaType: valid forms', () => {
  test('type and subtype, lower-cased, with no parameters', () => {
    const result = parsed('Application/JSON');
    assert.equal(result.essence, 'application/json');
    assert.equal(result.type, 'application');
    assert.equal(result.subtype, 'json');
    assert.deepEqual(Object.keys(result.parameters), []);
  });

  test('every tchar is allowed in type, subtype and parameter names', () => {
    const result = parsed("a!#$%&'*+-.^_`|~9/Z!#$%&'*+-.^_`|~0; x!#-y=v");
    assert.equal(result.type, "a!#$%&'*+-.^_`|~9");
    assert.equal(result.subtype, "z!#$%&'*+-.^_`|~0");
    assert.equal(result.parameters['x!#-y'], 'v');
  });

  test('structured syntax suffix and vendor tree', () => {
    assert.equal(parsed('application/vnd.api+json').essence, 'application/vnd.api+json');
  });

  test('parameter names are lower-cased, values kept as sent', () => {
    const result = parsed('text/plain; CharSet=UTF-8; Format=Flowed');
    assert.equal(result.parameters.charset, 'UTF-8');
    assert.equal(result.parameters.format, 'Flowed');
  });

  test('surrounding SP and HTAB are trimmed', () => {
    assert.equal(parsed(' \t text/plain \t ').essence, 'text/plain');
  });

  test('OWS around ";" with spaces and tabs', () => {
    const result = parsed('text/plain \t;\t charset=utf-8 ;  a=b');
    assert.equal(result.parameters.charset, 'utf-8');
    assert.equal(result.parameters.a, 'b');
  });

  test('no whitespace at all between parameters', () => {
    assert.equal(parsed('text/plain;charset=utf-8;a=b').parameters.a, 'b');
  });

  test('quoted-string values: quotes removed, quoted-pairs unescaped', () => {
    const result = parsed('multipart/form-data; boundary="a b;c=d"; x="q\\"uo\\\\te"; e=""');
    assert.equal(result.parameters.boundary, 'a b;c=d');
    assert.equal(result.parameters.x, 'q"uo\\te');
    assert.equal(result.parameters.e, '');
  });

  test('a quoted-pair may escape any visible character', () => {
    assert.equal(parsed('a/b; x="\\a\\;"').parameters.x, 'a;');
  });

  test('obs-text (latin-1) is allowed inside quoted strings', () => {
    assert.equal(parsed('a/b; x="caf\u00e9"').parameters.x, 'caf\u00e9');
  });

  test('empty parameters between semicolons are allowed (RFC 9110 §5.6.6)', () => {
    assert.equal(parsed('text/plain;').essence, 'text/plain');
    assert.equal(parsed('text/plain; ;charset=utf-8;;').parameters.charset, 'utf-8');
  });

  test('a parameter named content-type is just a parameter', () => {
    const result = parsed('text/plain; content-type="application/json"');
    assert.equal(result.essence, 'text/plain');
    assert.equal(result.parameters['content-type'], 'application/json');
  });

  test('parameters live in a null-prototype object', () => {
    const result = parsed('a/b; __proto__=x; constructor=y; toString=z');
    assert.equal(Object.getPrototypeOf(result.parameters), null);
    assert.equal(Object.getOwnPropertyDescriptor(result.parameters, '__proto__')?.value, 'x');
    assert.equal(result.parameters.constructor, 'y');
    assert.equal(result.parameters.tostring, 'z');
    assert.equal(({} as Record<string, unknown>).x, undefined, 'Object.prototype untouched');
  });

  test('__proto__ as type or subtype is an ordinary token', () => {
    const result = parsed('__proto__/constructor');
    assert.equal(result.essence, '__proto__/constructor');
    assert.equal(result.type, '__proto__');
  });
});

describe('parseMediaType: malformed forms are null', () => {
  const malformed: Array<[string, string]> = [
    ['empty', ''],
    ['only whitespace', ' \t '],
    ['no slash', 'json'],
    ['missing subtype', 'application/'],
    ['missing type', '/json'],
    ['two slashes', 'application/json/x'],
    ['space inside type', 'appli cation/json'],
    ['space before slash', 'application /json'],
    ['space after slash', 'application/ json'],
    ['trailing garbage after space', 'application/json garbage'],
    ['trailing garbage after parameter', 'text/plain; a=b c'],
    ['garbage after a quoted value', 'text/plain; a="b"c'],
    ['leading semicolon', ';text/plain'],
    ['semicolon only', ';'],
    ['parameter without value', 'text/plain; charset'],
    ['parameter with empty token value', 'text/plain; charset='],
    ['parameter without name', 'text/plain; =utf-8'],
    ['space before =', 'text/plain; charset =utf-8'],
    ['space after =', 'text/plain; charset= utf-8'],
    ['unbalanced quote', 'text/plain; charset="utf-8'],
    ['quote ending in a backslash', 'text/plain; x="abc\\"'],
    ['lone backslash at the end', 'text/plain; x="\\'],
    ['control character in quotes', 'text/plain; x="a\u0001b"'],
    ['DEL in quotes', 'text/plain; x="a\u007fb"'],
    ['non-latin-1 character', 'text/pl\u0101in'],
    ['non-latin-1 in quotes', 'text/plain; x="\u0101"'],
    ['comma-separated list', 'text/plain, application/json'],
    ['CR LF inside', 'text/plain;\r\n charset=utf-8'],
    ['newline at the end', 'text/plain\n'],
    ['separator in type', 'text(x)/plain'],
    ['at sign in subtype', 'text/pl@in'],
    ['duplicate parameter', 'text/plain; charset=utf-8; charset=latin1'],
    ['duplicate parameter differing in case', 'text/plain; charset=utf-8; CHARSET=latin1'],
    ['wildcard parameter list', 'text/*;;=;'],
  ];
  for (const [name, value] of malformed) {
    test(name, () => {
      assert.equal(parseMediaType(value), null, JSON.stringify(value));
    });
  }

  test('non-string input', () => {
    assert.equal(parseMediaType(undefined as unknown as string), null);
    assert.equal(parseMediaType(['a/b'] as unknown as string), null);
  });

  test('a long hostile value is scanned in linear time', () => {
    const hostile = `a/b${'; x="\\"'.repeat(20_000)}`;
    const started = process.hrtime.bigint();
    assert.equal(parseMediaType(hostile), null);
    assert.equal(parseMediaType(`a/b;${' '.repeat(100_000)}x`), null);
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(elapsedMs < 1000, `took ${elapsedMs} ms`);
  });
});

describe('formatMediaType and parameterValuesEqual', () => {
  test('equal media types format equally', () => {
    const left = formatMediaType(parsed('Text/Plain; B=2; Charset=UTF-8'));
    const right = formatMediaType(parsed('text/plain;charset="utf-8";b="2"'));
    assert.equal(left, right);
    assert.equal(left, 'text/plain; b="2"; charset="utf-8"');
  });

  test('values other than charset stay case-sensitive', () => {
    assert.notEqual(formatMediaType(parsed('a/b; v=X')), formatMediaType(parsed('a/b; v=x')));
    assert.equal(parameterValuesEqual('charset', 'UTF-8', 'utf-8'), true);
    assert.equal(parameterValuesEqual('version', 'A', 'a'), false);
  });

  test('quotes and backslashes are re-escaped so the text parses back', () => {
    const text = formatMediaType(parsed('a/b; x="q\\"\\\\"'));
    assert.equal(parsed(text).parameters.x, 'q"\\');
  });
});
