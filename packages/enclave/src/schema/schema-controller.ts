import { errorCodes } from '../errors.js';
import { CompiledSchemaCache } from './bounded-cache.js';
import type {
  CompiledRouteSchemas,
  HttpPart,
  RouteSchemaInput,
  SchemaErrorFormatter,
  SerializeFunction,
  SerializerCompiler,
  ValidationFunction,
  ValidatorCompiler,
} from './contracts.js';
import { assertSchemaErrorFormatter, defaultSchemaErrorFormatter } from './error-formatter.js';
import { inlineSharedHeadersSchema } from './headers-ref.js';
import { normalizeRouteSchema } from './normalize-schema.js';
import { compileServingResponse } from './response-serializers.js';
import { isDefaultSerializerBuilder } from './serializer-default-compiler.js';
import { compileRouteValidation } from './route-validation.js';
import { readSchemaControllerOptions, type SchemaControllerOptions, type SchemaControllerSettings } from './schema-controller-options.js';
import { contentKey } from './serializer-schema-fingerprint.js';
import { LinkedSchemaBucket, prepareSharedSchema, type SchemaBucket } from './shared-schemas.js';
import { isDefaultValidatorBuilder } from './validator-compiler.js';

export type { SchemaControllerFactoryOption, SchemaControllerOptions, SerializerCompilerBuilder } from './schema-controller-options.js';
export type { AjvFactoryOptions } from './ajv-factory.js';
export type { ValidatorCompilerBuilder } from './validator-compiler.js';

/** A compiler made by a builder from the shared schemas, and the schema count it was made for. */
interface BuiltCompiler<Compiler> {
  compiler: Compiler;
  schemaCount: number;
}

/**
 * The schema side of one encapsulation context: its shared schemas, its validator and serializer
 * compilers and its schema error formatter, each seen by the context's descendants and never by
 * its ancestors or siblings.
 *
 * Compilers that are fed shared schemas (the default Ajv and fast-json-stringify ones, or the
 * `compilersFactory` builders) are built lazily, once per set of visible shared schemas: a context
 * that adds no schema uses its parent's, so a thousand plugins without schemas share one Ajv.
 *
 * @example
 * const root = SchemaController.createRoot({})
 * root.addSchema({ $id: 'user', type: 'object', properties: { name: { type: 'string' } } })
 * const { validate } = root.createChild().compileRoute({ method: 'POST', url: '/', schema: { body: { $ref: 'user#' } } }, app)
 */
export class SchemaController {
  /** Creates the controller of the root context; validates the schema-related factory options. */
  static createRoot(options: SchemaControllerOptions): SchemaController {
    const settings = readSchemaControllerOptions(options, options.schemaCache ?? null);
    return new SchemaController(null, settings, settings.bucketFactory?.() ?? new LinkedSchemaBucket(null));
  }

  private readonly ownIds: string[] = [];
  private validatorCompiler: ValidatorCompiler | undefined;
  private serializerCompiler: SerializerCompiler | undefined;
  private schemaErrorFormatter: SchemaErrorFormatter | undefined;
  // Whether a route of this context compiled with the shared validator/serializer (Fastify sets
  // a context's compilers up then, at ready; until that, `instance.validatorCompiler` reads undefined).
  private validatorInUse = false;
  private serializerInUse = false;
  private builtValidator: BuiltCompiler<ValidatorCompiler> | undefined;
  private builtSerializer: BuiltCompiler<SerializerCompiler> | undefined;
  private validationCache: { compiler: ValidatorCompiler; cache: CompiledSchemaCache<ValidationFunction> } | undefined;
  private serializationCache: { compiler: SerializerCompiler; cache: CompiledSchemaCache<SerializeFunction> } | undefined;

  private constructor(
    private readonly parent: SchemaController | null,
    private settings: SchemaControllerSettings,
    private bucket: SchemaBucket,
  ) {}

  /** Creates the controller of a child context (on `register`). */
  createChild(): SchemaController {
    const bucket = this.settings.bucketFactory?.(this.getSchemas()) ?? new LinkedSchemaBucket(this.bucket as LinkedSchemaBucket);
    return new SchemaController(this, this.settings, bucket);
  }

  /** Adds a shared schema to this context: `$id` required, unique among the visible schemas. */
  addSchema(schema: Record<string, unknown>): void {
    const prepared = prepareSharedSchema(schema);
    this.bucket.add(prepared);
    this.ownIds.push(prepared.$id as string);
  }

  /** The schemas of this context and its ancestors, keyed by `$id`. */
  getSchemas(): Record<string, unknown> {
    return this.bucket.getSchemas();
  }

  /** One visible schema by `$id`, or undefined. */
  getSchema(id: string): unknown {
    return this.bucket.getSchema(id);
  }

  /** Names of the schemas added in this context only (for printPlugins). */
  ownSchemaIds(): string[] {
    return [...this.ownIds];
  }

  /** Replaces the validator compiler of this context and of the descendants that set none. */
  setValidatorCompiler(compiler: ValidatorCompiler): void {
    this.validatorCompiler = compiler;
  }

  /** Replaces the serializer compiler of this context and of the descendants that set none. */
  setSerializerCompiler(compiler: SerializerCompiler): void {
    this.serializerCompiler = compiler;
  }

  /**
   * `setSchemaController()`: this context's own bucket and compiler builders, inherited by the
   * contexts created after it; a builder it leaves out stays the parent's.
   */
  setControllerOptions(options: unknown): void {
    const given = readSchemaControllerOptions({ schemaController: options });
    const factory = (options as { compilersFactory?: Record<string, unknown> } | undefined)?.compilersFactory ?? {};
    this.settings = {
      ...this.settings,
      bucketFactory: given.bucketFactory ?? this.settings.bucketFactory,
      buildValidator: factory.buildValidator === undefined ? this.settings.buildValidator : given.buildValidator,
      buildSerializer: factory.buildSerializer === undefined ? this.settings.buildSerializer : given.buildSerializer,
    };
    if (given.bucketFactory !== undefined) this.bucket = given.bucketFactory(this.getSchemas());
    this.builtValidator = undefined;
    this.builtSerializer = undefined;
  }

  /**
   * `instance.validatorCompiler`: the compiler set with setValidatorCompiler() in this context or
   * an ancestor; else the shared one once a route of this context or an ancestor has compiled
   * with it (at ready, as in Fastify); else undefined.
   */
  currentValidatorCompiler(): ValidatorCompiler | undefined {
    return this.customValidatorCompiler() ?? (this.chainUses('validatorInUse') ? this.sharedValidatorCompiler() : undefined);
  }

  /** `instance.serializerCompiler`, by the same rules as `currentValidatorCompiler`. */
  currentSerializerCompiler(): SerializerCompiler | undefined {
    return this.customSerializerCompiler() ?? (this.chainUses('serializerInUse') ? this.sharedSerializerCompiler() : undefined);
  }

  /** Replaces the schema error formatter of this context and of the descendants that set none. */
  setSchemaErrorFormatter(formatter: SchemaErrorFormatter): void {
    assertSchemaErrorFormatter(formatter);
    this.schemaErrorFormatter = formatter;
  }

  /**
   * Compiles everything schema-related of one route, once, at ready. `instance` is the `this` of
   * the schema error formatter. Throws `FST_ERR_SCH_VALIDATION_BUILD` or
   * `FST_ERR_SCH_SERIALIZATION_BUILD` naming the route when a schema cannot be compiled.
   */
  compileRoute(route: RouteSchemaInput, instance: unknown): CompiledRouteSchemas {
    const schema = route.schema;
    if (typeof schema !== 'object' || schema === null) return { validate: null, serializerFor: null };
    if (route.schemaErrorFormatter !== undefined) assertSchemaErrorFormatter(route.schemaErrorFormatter);

    const normalized = normalizeRouteSchema(schema, route.method);
    let validate: CompiledRouteSchemas['validate'] = null;
    const hasParts =
      normalized.params !== undefined || normalized.querystring !== undefined || normalized.headers !== undefined || normalized.body !== undefined;
    if (hasParts) {
      const own = route.validatorCompiler ?? this.customValidatorCompiler();
      const defaultBuilder = isDefaultValidatorBuilder(this.settings.buildValidator);
      let compiler = own;
      if (compiler === undefined) {
        compiler = this.buildOrWrap(route, () => this.sharedValidatorCompiler());
        this.validatorInUse = true;
        // getSchemas() builds an object of every visible schema: only a headers schema needs it.
        if (defaultBuilder && normalized.headers !== undefined) normalized.headers = inlineSharedHeadersSchema(normalized.headers, this.getSchemas());
      }
      if (own !== undefined || !defaultBuilder) this.settings.schemaCache?.explain('validators made by a compiler of your own');
      validate = compileRouteValidation({
        method: route.method,
        url: route.url,
        schema: normalized,
        compiler,
        formatter: route.schemaErrorFormatter ?? this.effectiveFormatter(),
        instance,
      });
    }

    let serializerFor: CompiledRouteSchemas['serializerFor'] = null;
    if (schema.response !== undefined && schema.response !== null) {
      const compiler = route.serializerCompiler ?? this.effectiveSerializerCompiler();
      if (route.serializerCompiler === undefined) this.serializerInUse = true;
      if (
        route.serializerCompiler !== undefined ||
        this.customSerializerCompiler() !== undefined ||
        !isDefaultSerializerBuilder(this.settings.buildSerializer)
      ) {
        this.settings.schemaCache?.explain('serializers made by a compiler of your own');
      }
      serializerFor = compileServingResponse(schema.response, { method: route.method, url: route.url, compiler });
    }
    return { validate, serializerFor };
  }

  /**
   * Compiles a schema with this context's validator compiler, for
   * `request.compileValidationSchema()`. Cached by schema content and part, so calling it on every
   * request compiles once. `route` fills the compiler's `method` and `url` when given.
   */
  compileValidationSchema(schema: unknown, httpPart?: HttpPart, route?: { method: string; url: string }): ValidationFunction {
    const compiler = this.customValidatorCompiler() ?? this.sharedValidatorCompiler();
    if (this.validationCache?.compiler !== compiler) this.validationCache = { compiler, cache: new CompiledSchemaCache(contentKey) };
    const variant = httpPart ?? '';
    const { cache } = this.validationCache;
    return (
      cache.get(schema, variant) ??
      cache.set(schema, variant, compiler({ schema, method: route?.method ?? '', url: route?.url ?? '', httpPart: httpPart ?? 'body' }))
    );
  }

  /**
   * Compiles a schema with this context's serializer compiler, for
   * `reply.compileSerializationSchema()`. Cached by schema content, status and content type.
   */
  compileSerializationSchema(schema: unknown, httpStatus?: string, contentType?: string, route?: { method: string; url: string }): SerializeFunction {
    const compiler = this.effectiveSerializerCompiler();
    if (this.serializationCache?.compiler !== compiler) this.serializationCache = { compiler, cache: new CompiledSchemaCache(contentKey) };
    const variant = `${httpStatus ?? ''}\n${contentType ?? ''}`;
    const { cache } = this.serializationCache;
    const cached = cache.get(schema, variant);
    if (cached !== undefined) return cached;
    const input = { schema, method: route?.method ?? '', url: route?.url ?? '', httpStatus: httpStatus ?? 'default' };
    const compiled = compiler(contentType === undefined ? input : { ...input, contentType });
    return cache.set(schema, variant, compiled);
  }

  // The nearest validator compiler set with setValidatorCompiler(), if any: such compilers are
  // the user's and are not fed shared schemas.
  private customValidatorCompiler(): ValidatorCompiler | undefined {
    return this.validatorCompiler ?? this.parent?.customValidatorCompiler();
  }

  private chainUses(flag: 'validatorInUse' | 'serializerInUse'): boolean {
    return this[flag] || (this.parent?.chainUses(flag) ?? false);
  }

  private customSerializerCompiler(): SerializerCompiler | undefined {
    return this.serializerCompiler ?? this.parent?.customSerializerCompiler();
  }

  private effectiveSerializerCompiler(): SerializerCompiler {
    return this.customSerializerCompiler() ?? this.sharedSerializerCompiler();
  }

  private effectiveFormatter(): SchemaErrorFormatter {
    return this.schemaErrorFormatter ?? this.parent?.effectiveFormatter() ?? this.settings.schemaErrorFormatter ?? defaultSchemaErrorFormatter;
  }

  // The number of visible shared schemas: schemas are only ever added, so the count tells
  // whether a built compiler has seen all of them.
  private visibleSchemaCount(): number {
    return this.ownIds.length + (this.parent?.visibleSchemaCount() ?? 0);
  }

  // The controller whose shared-schema set this context uses: itself when it added schemas,
  // otherwise the nearest ancestor that did (or the root).
  private schemaOwner(): SchemaController {
    // A context with builders of its own (setSchemaController) builds its own compilers.
    const inherits = this.parent !== null && this.parent.settings === this.settings;
    return this.ownIds.length === 0 && inherits ? (this.parent as SchemaController).schemaOwner() : this;
  }

  private sharedValidatorCompiler(): ValidatorCompiler {
    const owner = this.schemaOwner();
    const schemaCount = owner.visibleSchemaCount();
    if (owner.builtValidator?.schemaCount !== schemaCount) {
      const compiler = this.settings.buildValidator(owner.getSchemas(), this.settings.ajvOptions);
      owner.builtValidator = { compiler, schemaCount };
    }
    return owner.builtValidator.compiler;
  }

  private sharedSerializerCompiler(): SerializerCompiler {
    const owner = this.schemaOwner();
    const schemaCount = owner.visibleSchemaCount();
    if (owner.builtSerializer?.schemaCount !== schemaCount) {
      const compiler = this.settings.buildSerializer(owner.getSchemas(), this.settings.serializerOpts);
      owner.builtSerializer = { compiler, schemaCount };
    }
    return owner.builtSerializer.compiler;
  }

  // Building a shared compiler runs user plugins and adds every shared schema to Ajv; a failure
  // there is reported against the first route that needed it, from ready().
  private buildOrWrap<Compiler>(route: RouteSchemaInput, build: () => Compiler): Compiler {
    try {
      return build();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new errorCodes.FST_ERR_SCH_VALIDATION_BUILD(route.method, route.url, reason, 'shared schemas (or an Ajv plugin)', { cause: error });
    }
  }
}
