// A JSON Schema literal's static type, read by json-schema-to-ts (schema-inference.ts decides
// which schemas reach it). Separate from the route-level types because it is where json-schema-to-ts's
// own types are reached into, and where most of a typed app's type-check cost is spent.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
// json-schema-to-ts's parser, one level below `FromSchema`, and the algebra it resolves with (see
// `FromJsonSchema`). Internal paths: enclavejs pins json-schema-to-ts to its minor version.
import type { ParseSchema } from 'json-schema-to-ts/lib/types/parse-schema/index.js';
import type { M } from 'ts-algebra';

/**
 * Whether a `$ref` anywhere in the schema points outside it: to the root (`#`), an anchor
 * (`#note`, from an `$id: '#note'`) or another schema (`money#`, `http://…`). Only a JSON
 * pointer into the schema itself (`#/definitions/point`) is resolved by json-schema-to-ts; it
 * reads the root and anchors as the whole schema, a circular type (TS2615), and other schemas
 * as `never`. This walk is linear in the schema's size, which json-schema-to-ts walks anyway.
 */
type HasOuterRef<Schema> = Schema extends readonly (infer Item)[]
  ? HasOuterRef<Item>
  : Schema extends object
    ? true extends {
        [Key in keyof Schema]: Key extends '$ref' ? (Schema[Key] extends `#/${string}` ? false : true) : HasOuterRef<Schema[Key]>;
      }[keyof Schema]
      ? true
      : false
    : false;

/** A value in a schema that holds no schema. Functions count: `HasOuterRef` finds no keys in them. */
type SchemaLeaf = string | number | boolean | bigint | symbol | null | undefined | ((...args: never[]) => unknown);

/**
 * A schema in which every `$ref` is a JSON pointer into the schema itself. `HasOuterRef`'s
 * answer, as one assignability check: TypeScript relates the schema to this type without
 * instantiating anything, where the walk instantiates a mapped type per object and a
 * conditional per value (about 17% of bench/types' 200-route app went there). When the check
 * fails (an outer `$ref`, or a value it cannot place, such as `unknown`), the walk decides.
 */
type WithoutOuterRef = SchemaLeaf | readonly WithoutOuterRef[] | { readonly $ref?: `#/${string}`; readonly [key: string]: WithoutOuterRef };

/** A schema with no `$ref` at all, checked as {@link WithoutOuterRef} is. */
type WithoutRef = SchemaLeaf | readonly WithoutRef[] | { readonly $ref?: never; readonly [key: string]: WithoutRef };

/**
 * The options `FromSchema` hands its parser by default, for a schema without `$ref`. `FromSchema`
 * builds them per schema, because they carry the schema as the root its `$ref`s resolve against;
 * with no `$ref` the root is never read, so one options type serves every schema, and whatever
 * json-schema-to-ts derives from the options alone is instantiated once, not once per schema
 * (−15,000 instantiations, 2%, in bench/types' 200-route app).
 */
type RefFreeParseOptions = {
  parseNotKeyword: false;
  parseIfThenElseKeywords: false;
  keepDefaultedPropertiesOptional: false;
  rootSchema: {};
  references: {};
  deserialize: false;
};

/**
 * A JSON Schema read by json-schema-to-ts. A schema whose keywords were widened to `string`
 * (written without `as const` outside a route) is not a JSON Schema literal, so it gives
 * `unknown`; so does a schema with a `$ref` outside itself, which only the shared-schema store
 * (or Ajv's anchors) can resolve.
 */
// The fast checks sit inside the conditions, so that json-schema-to-ts stays one level deep
// (a level more tipped some handlers over TypeScript's instantiation depth limit, TS2589).
export type FromJsonSchema<Schema> = [Schema] extends [WithoutRef]
  ? Schema extends JSONSchema
    ? M.$Resolve<ParseSchema<Schema, RefFreeParseOptions>>
    : unknown
  : ([Schema] extends [WithoutOuterRef] ? false : HasOuterRef<Schema>) extends true
    ? unknown
    : Schema extends JSONSchema
      ? FromSchema<Schema>
      : unknown;
