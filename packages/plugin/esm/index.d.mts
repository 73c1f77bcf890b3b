// Types for the ESM entry: a default import of the CommonJS `export =` declaration is the
// function itself, and its merged namespace carries the public types.
import plugin from '../index.js';

export default plugin;
export { plugin };
export type { PluginFunction, PluginMetadata } from '../index.js';
