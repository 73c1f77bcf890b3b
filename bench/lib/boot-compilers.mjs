// The schema compilers' own work for the "distinct" boot variant, without a framework around it:
// `node boot-compilers.mjs <routes>` compiles each route's body schema with an Ajv instance set up
// as Enclave's default validator compiler sets it up, and builds each route's 201 serializer with
// fast-json-stringify (given a copy, as Enclave gives it). enclavejs is imported first so that
// module loading matches a boot. boot-instructions.mjs counts this as the floor: what Enclave's
// boot would cost if its own code cost nothing.
import { userBodySchema, userResponseSchema } from './scenarios.mjs';

const routes = Number(process.argv[2] ?? '1000');
await import('enclavejs');
const { default: fastJsonStringify } = await import('fast-json-stringify');
// Not a public export: the factory Enclave's default validator compiler calls, so the floor
// uses exactly its options.
const { createAjv } = await import('../../packages/enclave/dist/schema/ajv-factory.js');

const ajv = createAjv({}, {});
for (let index = 0; index < routes; index++) {
  const extra = `field${index}`;
  ajv.compile({ ...userBodySchema, properties: { ...userBodySchema.properties, [extra]: { type: 'string', maxLength: 64 } } });
  fastJsonStringify({ ...userResponseSchema, properties: { ...userResponseSchema.properties, [extra]: { type: 'string' } } }, {});
}
