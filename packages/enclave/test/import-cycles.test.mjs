// Issue 31: no import circle under packages/enclave/src, type-only imports included (a circle
// ties its files into one unit that can only be read and changed together). The public types
// (index.ts, types.ts, types/) are in none, and never may be. The run-time modules below still
// form one circle, recorded here as a baseline that may only shrink: a file that joins it, or a
// new circle, fails this test; a file that leaves it must be removed from the list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { circlesUnder } from '../../../scripts/check-import-cycles.mjs';

const src = fileURLToPath(new URL('../src/', import.meta.url));

/**
 * The run-time circle left: the context, root state, boot, plugin loader and lifecycle modules
 * import each other's state types (Context, RootState, CompiledRoute, …) and a few functions
 * (reply.ts → handle-request.ts → … → compiled-route.ts → reply.ts). Breaking it means moving
 * those state types to leaf files, run-time work outside issue 31's types.
 */
const knownRuntimeCircle = [
  'application-hooks.ts',
  'boot.ts',
  'http/close.ts',
  'lifecycle/call-handler.ts',
  'lifecycle/compiled-route.ts',
  'lifecycle/diagnostics.ts',
  'lifecycle/error-handling.ts',
  'lifecycle/handle-request.ts',
  'lifecycle/hooks.ts',
  'lifecycle/lifecycle-types.ts',
  'lifecycle/reply.ts',
  'lifecycle/request-signal.ts',
  'lifecycle/request.ts',
  'lifecycle/send.ts',
  'routing/route-record.ts',
  'scope/context-settings.ts',
  'scope/context.ts',
  'scope/plugin-attribution.ts',
  'scope/plugin-loader.ts',
  'scope/plugin-meta.ts',
  'scope/root-state.ts',
];

const circles = circlesUnder(src);

test('the public types are in no import circle', () => {
  const typeFiles = circles.flat().filter((file) => file === 'index.ts' || file === 'types.ts' || file.startsWith('types/'));
  assert.deepEqual(typeFiles, []);
});

test('no import circle beyond the known run-time one, which only shrinks', () => {
  const outside = circles.flat().filter((file) => !knownRuntimeCircle.includes(file));
  assert.deepEqual(outside, [], 'files in an import circle that the baseline does not list');
  const left = knownRuntimeCircle.filter((file) => !circles.flat().includes(file));
  assert.deepEqual(left, [], 'files no longer in a circle: remove them from knownRuntimeCircle');
});
