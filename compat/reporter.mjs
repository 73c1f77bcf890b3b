// node:test reporter for the compat harness: one JSON line per finished test, with the
// test's full name (ancestors joined by " > "), on stdout behind a marker (tests print there
// too). Not a --test-reporter-destination file: --test-force-exit can exit before it is flushed. Node reports a test's subtests before the
// test itself, so completed records wait at their nesting level until their parent reports.
export const marker = '@@compat-result ';
const pending = new Map();

const brief = (value) => {
  const text = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

// The error's first line; for an assertion, what was compared (rules in categories.json and
// the people reading the baseline both need it).
function describeError(error) {
  const cause = error?.cause ?? error;
  const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  let line = text.split('\n')[0].slice(0, 300);
  if (cause?.code === 'ERR_ASSERTION' && 'expected' in cause) {
    line += ` | actual ${brief(cause.actual)} expected ${brief(cause.expected)}`;
  }
  return line;
}

export default async function* compatReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, nesting, details, skip, todo } = event.data;
    const children = pending.get(nesting + 1) ?? [];
    pending.delete(nesting + 1);
    const record = {
      path: [name],
      ms: Math.round(details?.duration_ms ?? 0),
      suite: details?.type === 'suite',
      status: skip !== undefined ? 'skip' : todo !== undefined ? 'todo' : event.type === 'test:pass' ? 'pass' : 'fail',
    };
    if (record.status === 'fail') {
      record.kind = details?.error?.failureType ?? 'unknown';
      record.reason = describeError(details?.error);
    }
    const family = [record, ...children.map((child) => ({ ...child, path: [name, ...child.path] }))];
    if (nesting === 0) {
      for (const entry of family) yield `\n${marker}${JSON.stringify(entry)}\n`;
    } else {
      const siblings = pending.get(nesting) ?? [];
      siblings.push(...family);
      pending.set(nesting, siblings);
    }
  }
}
