import { errorCodes } from '../errors.js';
import { toPlainSchema } from './normalize-schema.js';
import { cloneSchema } from './serializer-schema-fingerprint.js';

/**
 * Where one context's shared schemas live; the shape of Fastify's `schemaController.bucket`
 * result, so a custom store (a database, a registry) can replace the default one.
 */
export interface SchemaBucket {
  /** Stores a schema added with `addSchema()`. */
  add(schema: Record<string, unknown>): void;
  /** One visible schema by `$id`. */
  getSchema(id: string): unknown;
  /** Every visible schema keyed by `$id`; a fresh object the caller may keep. */
  getSchemas(): Record<string, unknown>;
}

/** Creates the bucket of a new context; root contexts get no parent schemas. */
export type SchemaBucketFactory = (parentSchemas?: Record<string, unknown>) => SchemaBucket;

/**
 * Validates a schema given to `addSchema()` and returns the copy to store: fluent-schema builders
 * are turned into plain JSON, `$id` is required (`FST_ERR_SCH_MISSING_ID`).
 *
 * @example
 * prepareSharedSchema({ $id: 'user', type: 'object' })
 */
export function prepareSharedSchema(schema: unknown): Record<string, unknown> {
  const plain = toPlainSchema(schema);
  if (typeof plain !== 'object' || plain === null) throw errorCodes.FST_ERR_SCH_MISSING_ID();
  const id = (plain as { $id?: unknown }).$id;
  if (typeof id !== 'string' || id === '') throw errorCodes.FST_ERR_SCH_MISSING_ID();
  // A copy: the stored schema must not change because the caller mutates its object later.
  return cloneSchema(plain as Record<string, unknown>);
}

/**
 * The default bucket: the context's own schemas in a Map, the parent's read live through the
 * parent bucket, so a schema the parent adds after a child context exists is still seen by the
 * child (plugins load in order, so this only matters for `await register()` code paths).
 */
export class LinkedSchemaBucket implements SchemaBucket {
  private readonly own = new Map<string, Record<string, unknown>>();

  constructor(private readonly parent: LinkedSchemaBucket | null) {}

  add(schema: Record<string, unknown>): void {
    const id = schema.$id as string;
    // A child may not redefine an id its ancestors use: a `$ref` would then mean different
    // schemas in different contexts of one application, which is never what anyone wants.
    if (this.own.has(id) || this.parent?.getSchema(id) !== undefined) throw errorCodes.FST_ERR_SCH_ALREADY_PRESENT(id);
    this.own.set(id, schema);
  }

  getSchema(id: string): unknown {
    return this.own.get(id) ?? this.parent?.getSchema(id);
  }

  getSchemas(): Record<string, unknown> {
    const schemas = this.parent === null ? {} : this.parent.getSchemas();
    // defineProperty, not assignment: an `$id` of '__proto__' must be a key, not a prototype.
    for (const [id, schema] of this.own) {
      Object.defineProperty(schemas, id, { value: schema, enumerable: true, writable: true, configurable: true });
    }
    return schemas;
  }
}
