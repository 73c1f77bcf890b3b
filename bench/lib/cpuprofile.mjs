// Reading V8 .cpuprofile files (from `node --cpu-prof`): self time per profile node, and the
// labels the profile tools print for a function.
import { readFileSync } from 'node:fs';

/** The path of a script as the tools print it: from node_modules or packages/ on. */
export function shortUrl(url) {
  if (!url) return '';
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) return url.slice(modules + 'node_modules/'.length);
  const packages = url.indexOf('/packages/');
  if (packages !== -1) return url.slice(packages + 1);
  return url.replace(/^file:\/\//, '');
}

/** `name file:line` of a profile call frame. */
export function functionLabel(callFrame) {
  const name = callFrame.functionName || '(anonymous)';
  return `${name} ${shortUrl(callFrame.url)}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`.trim();
}

/** Every sampled profile node with its call frame and self time in microseconds. */
export function readSelfTimes(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map();
  for (let index = 0; index < profile.samples.length; index++) {
    const id = profile.samples[index];
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  }
  return [...selfMicros].map(([id, micros]) => ({ callFrame: byId.get(id).callFrame, micros }));
}
