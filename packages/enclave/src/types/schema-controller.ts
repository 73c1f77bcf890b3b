// The `schemaController` option's type (Fastify's name). Bottom floor: imports only the compiler
// contracts.
import type { SerializerCompiler, ValidatorCompiler } from '../schema/contracts.js';

/**
 * The `schemaController` option and `setSchemaController()`'s argument: `bucket` replaces where
 * shared schemas are kept (it gets the parent context's schemas), `compilersFactory` how
 * validators and serializers are built.
 */
export interface FastifySchemaControllerOptions {
  bucket?: (parentSchemas?: unknown) => {
    add(schema: unknown): unknown;
    getSchema(schemaId: string): unknown;
    getSchemas(): Record<string, unknown>;
  };
  // Methods, so that their parameters are compared both ways: @fastify/ajv-compiler's factories
  // (StandaloneValidator's) name Ajv's schema type for the shared schemas.
  compilersFactory?: {
    // any: those factories name their own options type too; Enclave passes `{ customOptions, plugins }`.
    buildValidator?(sharedSchemas: Record<string, unknown>, ajvOptions: any): ValidatorCompiler;
    buildSerializer?(sharedSchemas: Record<string, unknown>, serializerOpts?: Record<string, unknown>): SerializerCompiler;
  };
}
