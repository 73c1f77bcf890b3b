// What `route()` records: the declaration, kept until ready compiles it.
import type { Context } from '../scope/context.js';
import type { CompiledRoute } from '../lifecycle/compiled-route.js';

export interface RouteRecord {
  methods: string[];
  /** The full path the router matches (prefix included). */
  url: string;
  /** The options after onRoute hooks ran (handler, schema, hooks, config, ...). */
  options: Record<string, any>;
  context: Context;
  /** Built at ready; the request path reads only this. */
  compiled: CompiledRoute | null;
  /** True for the HEAD twin Enclave adds for a GET route. */
  isHeadTwin: boolean;
}
