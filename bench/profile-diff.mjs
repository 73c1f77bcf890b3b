// Compares two .cpuprofile files of servers that ran the same scenario, per response rather than
// per second: both servers write each response to the socket with one write system call, so
// every function's self time is divided by the time spent in those calls (writev on Node 20,
// writeUtf8String on Node 24, …). The two servers usually served different numbers of requests
// in different conditions; the ratio to the write syscall cancels most of that.
//
//   node bench/profile-diff.mjs fastify-B-round1.cpuprofile enclave-B-round1.cpuprofile [rows]
//
// Columns: self time per 1,000 units of write-syscall time in the first profile, in the second,
// and the difference; rows sorted by the size of the difference. "(idle)" is time the process
// waited for input: a server that is often idle was limited by the load generator, not its CPU.
import { basename } from 'node:path';
import { functionLabel, readSelfTimes } from './lib/cpuprofile.mjs';

const WRITE_SYSCALLS = new Set(['writev', 'writeUtf8String', 'writeBuffer', 'writeLatin1String', 'writeAsciiString']);

/** Self time in microseconds by function label, and the time spent in write syscalls. */
function load(file) {
  const selfByLabel = new Map();
  let writes = 0;
  for (const { callFrame, micros: time } of readSelfTimes(file)) {
    if (WRITE_SYSCALLS.has(callFrame.functionName) && callFrame.url === '') writes += time;
    const key = functionLabel(callFrame);
    selfByLabel.set(key, (selfByLabel.get(key) ?? 0) + time);
  }
  if (writes === 0) throw new Error(`${file}: no time in a socket write syscall, nothing to normalise by`);
  return { selfByLabel, writes };
}

const [first, second, rowsArg = '40'] = process.argv.slice(2);
if (!first || !second) {
  process.stderr.write('usage: node bench/profile-diff.mjs <a.cpuprofile> <b.cpuprofile> [rows]\n');
  process.exit(2);
}
const a = load(first);
const b = load(second);
const perWrite = (profile, key) => ((profile.selfByLabel.get(key) ?? 0) / profile.writes) * 1000;
const rows = [...new Set([...a.selfByLabel.keys(), ...b.selfByLabel.keys()])].map((key) => {
  const x = perWrite(a, key);
  const y = perWrite(b, key);
  return { key, x, y, delta: y - x };
});
const busy = (profile) => ([...profile.selfByLabel].reduce((sum, [key, time]) => (key === '(idle)' ? sum : sum + time), 0) / profile.writes) * 1000;
const idle = (profile) => perWrite(profile, '(idle)');

const nameA = basename(first);
const nameB = basename(second);
const lines = [
  `Per 1,000 units of write-syscall time: ${nameA} busy ${busy(a).toFixed(0)}, idle ${idle(a).toFixed(0)}; ` +
    `${nameB} busy ${busy(b).toFixed(0)}, idle ${idle(b).toFixed(0)} (busy ratio ${(busy(b) / busy(a)).toFixed(3)}).`,
  '',
  `| ${nameA} | ${nameB} | difference | function |`,
  '|---:|---:|---:|---|',
];
rows.sort((p, q) => Math.abs(q.delta) - Math.abs(p.delta));
for (const row of rows.slice(0, Number(rowsArg))) {
  lines.push(`| ${row.x.toFixed(1)} | ${row.y.toFixed(1)} | ${row.delta >= 0 ? '+' : ''}${row.delta.toFixed(1)} | ${row.key} |`);
}
process.stdout.write(`${lines.join('\n')}\n`);
