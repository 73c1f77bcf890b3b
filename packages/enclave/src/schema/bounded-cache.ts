/**
 * A Map with a size ceiling that forgets its oldest entry first.
 *
 * The schema caches are keyed by schemas written at boot, so in practice they stay small; the
 * ceiling is there because `request.compileValidationSchema()` and
 * `reply.compileSerializationSchema()` may also be called at run time, and no cache in Enclave may
 * grow without bound.
 *
 * @example
 * const cache = new BoundedCache<number>(2)
 * cache.set('a', 1); cache.set('b', 2); cache.set('c', 3) // 'a' is forgotten
 */
export class BoundedCache<Value> {
  private readonly entries = new Map<string, Value>();

  constructor(
    private readonly limit: number,
    private readonly onEvict?: (value: Value) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): Value | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: Value): void {
    if (!this.entries.has(key) && this.entries.size >= this.limit) {
      // Maps iterate in insertion order, so the first key is the oldest.
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) {
        const evicted = this.entries.get(oldest.value);
        this.entries.delete(oldest.value);
        if (evicted !== undefined) this.onEvict?.(evicted);
      }
    }
    this.entries.set(key, value);
  }
}

/** Per-compiler ceiling: far above any real application's count of distinct route schemas. */
export const SCHEMA_CACHE_LIMIT = 10_000;

/**
 * Compiled functions of one compiler, found by schema object first and by schema content second,
 * with a variant string (an HTTP part, a status and content type) as part of the key. Used for
 * `request.compileValidationSchema()` and `reply.compileSerializationSchema()`, which may be
 * called on every request with the same schema.
 *
 * @example
 * const cache = new CompiledSchemaCache<SerializeFunction>()
 * cache.get(schema, '200') ?? cache.set(schema, '200', compile(schema))
 */
export class CompiledSchemaCache<Compiled> {
  private readonly byObject = new WeakMap<object, Map<string, Compiled>>();
  private readonly byContent = new BoundedCache<Compiled>(SCHEMA_CACHE_LIMIT);

  constructor(private readonly contentKey: (schema: unknown) => string | undefined) {}

  get(schema: unknown, variant: string): Compiled | undefined {
    if (typeof schema === 'object' && schema !== null) {
      const known = this.byObject.get(schema)?.get(variant);
      if (known !== undefined) return known;
    }
    const key = this.contentKey(schema);
    if (key === undefined) return undefined;
    const cached = this.byContent.get(`${variant}\n${key}`);
    if (cached !== undefined) this.rememberObject(schema, variant, cached);
    return cached;
  }

  set(schema: unknown, variant: string, compiled: Compiled): Compiled {
    this.rememberObject(schema, variant, compiled);
    const key = this.contentKey(schema);
    if (key !== undefined) this.byContent.set(`${variant}\n${key}`, compiled);
    return compiled;
  }

  private rememberObject(schema: unknown, variant: string, compiled: Compiled): void {
    if (typeof schema !== 'object' || schema === null) return;
    let variants = this.byObject.get(schema);
    if (variants === undefined) this.byObject.set(schema, (variants = new Map()));
    variants.set(variant, compiled);
  }
}
