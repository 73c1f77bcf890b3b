// STUB — to be replaced by the schema helper (issue 4/5). The method signatures are the contract
// the core uses; keep them.
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

/** Factory options the schema controller reads. */
export interface SchemaControllerOptions {
  ajv?: { customOptions?: Record<string, unknown>; plugins?: unknown[] } | undefined;
  schemaErrorFormatter?: SchemaErrorFormatter | undefined;
  schemaController?: Record<string, unknown> | undefined;
}

/** One per encapsulation context: shared schemas, compilers and the error formatter. */
export class SchemaController {
  static createRoot(_options: SchemaControllerOptions): SchemaController {
    return new SchemaController(null);
  }
  private readonly own = new Map<string, unknown>();
  private constructor(private readonly parent: SchemaController | null) {}
  createChild(): SchemaController {
    return new SchemaController(this);
  }
  addSchema(schema: Record<string, unknown>): void {
    this.own.set(String(schema.$id), schema);
  }
  getSchemas(): Record<string, unknown> {
    return { ...(this.parent?.getSchemas() ?? {}), ...Object.fromEntries(this.own) };
  }
  getSchema(id: string): unknown {
    return this.getSchemas()[id];
  }
  /** Names of the schemas added in this context only (for printPlugins). */
  ownSchemaIds(): string[] {
    return [...this.own.keys()];
  }
  setValidatorCompiler(_compiler: ValidatorCompiler): void {}
  setSerializerCompiler(_compiler: SerializerCompiler): void {}
  setSchemaErrorFormatter(_formatter: SchemaErrorFormatter): void {}
  /** `this` of the error formatter is `instance`. */
  compileRoute(_route: RouteSchemaInput, _instance: unknown): CompiledRouteSchemas {
    return { validate: null, serializerFor: null };
  }
  compileValidationSchema(_schema: unknown, _httpPart?: HttpPart): ValidationFunction {
    return () => true;
  }
  compileSerializationSchema(_schema: unknown, _httpStatus?: string, _contentType?: string): SerializeFunction {
    return JSON.stringify;
  }
}
