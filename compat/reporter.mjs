// node:test reporter for the compat harness: one JSON line per finished test, with the
// test's full name (ancestors joined by " > "). Node reports a test's subtests before the
// test itself, so completed records wait at their nesting level until their parent reports.
const pending = new Map();

function firstLine(error) {
  const cause = error?.cause ?? error;
  const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  return text.split('\n')[0].slice(0, 300);
}

export default async function* compatReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, nesting, details, skip, todo } = event.data;
    const children = pending.get(nesting + 1) ?? [];
    pending.delete(nesting + 1);
    const record = {
      path: [name],
      suite: details?.type === 'suite',
      status: skip !== undefined ? 'skip' : todo !== undefined ? 'todo' : event.type === 'test:pass' ? 'pass' : 'fail',
    };
    if (record.status === 'fail') {
      record.kind = details?.error?.failureType ?? 'unknown';
      record.reason = firstLine(details?.error);
    }
    const family = [record, ...children.map((child) => ({ ...child, path: [name, ...child.path] }))];
    if (nesting === 0) {
      for (const entry of family) yield `${JSON.stringify(entry)}\n`;
    } else {
      const siblings = pending.get(nesting) ?? [];
      siblings.push(...family);
      pending.set(nesting, siblings);
    }
  }
}
