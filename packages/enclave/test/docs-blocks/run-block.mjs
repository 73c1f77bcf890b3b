// Runs one extracted documentation block: imports it, and exits as soon as its top-level code
// has finished, so a block that calls listen() does not keep the process alive. A throw or a
// rejected top-level await (a failed assert) exits 1 with the error printed. A block that ran
// node:test tests (`await test(...)`) exits with the code they left in process.exitCode.
import { pathToFileURL } from 'node:url';

const file = process.argv[2];
if (file === undefined) {
  console.error('usage: node [--import tsx] run-block.mjs <block file>');
  process.exit(2);
}
try {
  await import(pathToFileURL(file).href);
  if (process.exitCode !== undefined && process.exitCode !== 0) {
    console.error(`the block finished with process.exitCode = ${process.exitCode} (a failed node:test test?)`);
  }
  process.exit(process.exitCode ?? 0);
} catch (error) {
  console.error(error);
  process.exit(1);
}
