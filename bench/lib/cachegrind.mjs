// Reading cachegrind's counts, shared by instructions.mjs and async-floor.mjs.
import { readFileSync } from 'node:fs';

// Valgrind runs every thread of the process on its own serialized scheduler and counts them all;
// V8's JIT writes code into anonymous memory, which --smc-check=all-non-file makes valgrind
// re-translate when it changes. No cache simulation: only the instruction count (Ir) is wanted.
export function valgrindCommand(file) {
  return ['valgrind', '--quiet', '--tool=cachegrind', '--cache-sim=no', '--smc-check=all-non-file', `--cachegrind-out-file=${file}`];
}

// V8's optimizing compilers (TurboFan, Turboshaft, Maglev). Their work is warm-up, but where it
// lands is not repeatable: a deoptimization set off by a timer (the Date header's cache, a
// keep-alive timeout) recompiles a hot function in one run and not in the other, a difference
// of tens of millions of instructions between two processes. Their functions are counted apart
// and left out of the per-request figure; everything else (JIT code, interpreter, GC, node,
// libuv, the kernel interface) is in.
const compilerFunction = /v8::internal::(compiler|maglev|turboshaft)::/;

/** Instructions in a cachegrind.out file: all, and those outside V8's optimizing compilers. */
export function readTotals(file) {
  const text = readFileSync(file, 'utf8');
  const match = /^summary:\s+(\d+)/m.exec(text);
  if (!match) throw new Error(`${file}: no summary line`);
  let compiler = 0;
  let inCompiler = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('fn=')) inCompiler = compilerFunction.test(line);
    else if (inCompiler && line !== '' && line.charCodeAt(0) >= 48 && line.charCodeAt(0) <= 57) {
      compiler += Number(line.slice(line.indexOf(' ') + 1));
    }
  }
  const total = Number(match[1]);
  return { total, compiler, measured: total - compiler };
}
