// Static types from route schemas: a JSON Schema written inline (or `as const`) is
// read by json-schema-to-ts, a TypeBox schema by its own `static` member, and any other schema
// library by a resolver users add to `SchemaTypeResolvers` (below). Nothing here needs a runtime
// counterpart. Each helper is one conditional type deep on purpose: deep generic chains are
// what makes type-checking slow (STYLE.md, Hono's warning).
import type { FromJsonSchema } from './json-schema-types.js';

/** A TypeBox schema carries its static type as a phantom `static` member (read with no `params`). */
type FromTypeBox<Schema extends { static: unknown }> = (Schema & { params: [] })['static'];

/** Keywords that make an object a full JSON Schema rather than the shorthand of top-level keys as properties. */
type FullSchemaKeyword = 'type' | 'properties' | '$ref' | 'oneOf' | 'anyOf' | 'allOf' | 'not' | 'enum' | 'const' | '$merge' | '$patch';

/**
 * The contract shorthand (no `type`, no `properties`: the top-level keys are the properties)
 * expanded, and a TypeBox 1.x schema's objects closed (see `ClosedTypeBoxObject`). One level, in
 * the same conditional: one more level around json-schema-to-ts tipped some handlers over
 * TypeScript's instantiation depth limit (TS2589).
 */
// `Schema extends WithKeyword` (one assignability check against a fixed union) settles the
// usual schema, which spells a keyword; `Extract` over every key, which instantiates per key,
// only decides the rest (the shorthand, or a keyword declared optional).
type ExpandShorthand<Schema> = Schema extends object
  ? Schema extends WithKeyword
    ? Schema extends { readonly '~kind': string }
      ? ClosedTypeBoxObject<Schema>
      : Schema
    : Extract<keyof Schema, FullSchemaKeyword> extends never
      ? { readonly type: 'object'; readonly properties: Schema }
      : Schema extends { readonly '~kind': string }
        ? ClosedTypeBoxObject<Schema>
        : Schema
  : Schema;

/** An object spelling one of the full-schema keywords. */
type WithKeyword = { [Keyword in FullSchemaKeyword]: { readonly [Key in Keyword]: unknown } }[FullSchemaKeyword];

/**
 * Static types for another schema library's schemas, tried before TypeBox and JSON Schema
 * inference. Each entry maps `Schema` to its type, or to `never` when it is not that library's.
 *
 * @example
 * ```ts
 * import type { ZodType, infer as ZodInfer } from 'zod';
 *
 * declare module 'enclavejs' {
 *   interface SchemaTypeResolvers<Schema> {
 *     zod: Schema extends ZodType ? ZodInfer<Schema> : never;
 *   }
 * }
 * ```
 */
// biome-ignore-start lint/suspicious/noEmptyInterface: users add the entries, by interface merging.
// biome-ignore-start lint/correctness/noUnusedVariables: the entries read `Schema`.
export interface SchemaTypeResolvers<Schema> {}
// biome-ignore-end lint/correctness/noUnusedVariables: the entries read `Schema`.
// biome-ignore-end lint/suspicious/noEmptyInterface: users add the entries, by interface merging.

// The resolvers users add by merging into `SchemaTypeResolvers`.
type Resolved<Schema> = SchemaTypeResolvers<Schema>[keyof SchemaTypeResolvers<Schema>];

/**
 * A TypeBox 1.x schema (the `typebox` package, whose schemas are marked `'~kind'` and carry no
 * static type of their own) read as JSON Schema, with its objects closed as TypeBox types them:
 * `Type.Object({ a: Type.Number() })` is `{ a: number }`, without the index signature JSON
 * Schema's open objects get, unless the schema says `additionalProperties` itself.
 */
type ClosedTypeBoxObject<Schema> = Schema extends { readonly type: 'object'; readonly properties: infer Properties }
  ? Omit<Schema, 'properties'> & {
      readonly properties: { [Key in keyof Properties]: ClosedTypeBoxObject<Properties[Key]> };
    } & ('additionalProperties' extends keyof Schema ? unknown : { readonly additionalProperties: false })
  : Schema extends { readonly type: 'array'; readonly items: infer Items }
    ? Omit<Schema, 'items'> & { readonly items: ClosedTypeBoxObject<Items> }
    : Schema;

/**
 * The static type of one schema: a user resolver's answer, else TypeBox's, else JSON Schema's,
 * else `unknown` (never `any`).
 *
 * @example
 * ```ts
 * type Query = SchemaToType<{ type: 'object'; properties: { q: { type: 'string' } } }>;
 * //   { [x: string]: unknown; q?: string }
 * ```
 */
// `unknown extends Schema` holds for `any` (and for `unknown`, which reads as `unknown` anyway)
// without building an intersection per schema as `0 extends 1 & Schema` does.
export type SchemaToType<Schema> = unknown extends Schema
  ? unknown
  : [Resolved<Schema>] extends [never]
    ? Schema extends { params: unknown[]; static: unknown }
      ? FromTypeBox<Schema>
      : FromJsonSchema<ExpandShorthand<Schema>>
    : Resolved<Schema>;

/** `{ content: { '<media type>': { schema } } }`: the union of the schemas' types; `unknown` for an empty map (no schema applies). */
type FromContentMap<Content> = [keyof Content] extends [never]
  ? unknown
  : { [MediaType in keyof Content]: Content[MediaType] extends { schema: infer Schema } ? SchemaToType<Schema> : unknown }[keyof Content];

/** A body or response entry: a schema, or a content map. */
export type EntryToType<Entry> = Entry extends { readonly content: object }
  ? Extract<keyof Entry, FullSchemaKeyword> extends never
    ? FromContentMap<Entry['content' & keyof Entry]>
    : SchemaToType<Entry>
  : SchemaToType<Entry>;

/**
 * A route's `schema` option. Unknown keywords (`summary`, `tags`, … for documentation
 * generators) are allowed.
 */
export interface RouteSchema {
  body?: unknown;
  querystring?: unknown;
  /** Alias of `querystring`. */
  query?: unknown;
  params?: unknown;
  headers?: unknown;
  /** Keyed by status (`200`, `'201'`), class (`'2xx'`) or `default`. */
  response?: unknown;
  [keyword: string]: unknown;
}

/** A route's `schema` option under Fastify's name; plugins add keywords (@fastify/swagger's `tags`). */
export interface FastifySchema extends RouteSchema {}

/**
 * The types of one route's request parts and reply payload, named Fastify-style:
 * `app.get<{ Querystring: Query; Reply: Book }>(...)`. `Reply` is either the payload type or a
 * map from status (`200`, `'4xx'`, `default`) to payload type.
 */
export interface RouteGeneric {
  Params?: unknown;
  Querystring?: unknown;
  Body?: unknown;
  Headers?: unknown;
  Reply?: unknown;
}

/**
 * An object with `Key` as a required member. `RouteTypes extends RequiredMember<Key>` reads one
 * cached instantiation per key, where `{ readonly [K in Key]: infer Given }` instantiated a
 * mapped type and an inference per part and route (bench/types/README.md).
 */
type RequiredMember<Key extends string> = { readonly [K in Key]: unknown };

type Explicit<RouteTypes, Key extends keyof RouteGeneric, FromSchemaPart> =
  RouteTypes extends RequiredMember<Key> ? RouteTypes[Key & keyof RouteTypes] : FromSchemaPart;

/**
 * Node lowercases header names as it parses them, so a headers schema's (or a `Headers` generic's)
 * `X-Token` is read as `request.headers['x-token']`; Fastify types it the same way.
 */
export type LowercaseKeys<Headers> = Headers extends object ? { [Key in keyof Headers as Key extends string ? Lowercase<Key> : Key]: Headers[Key] } : Headers;

type SchemaPart<Schema, Key extends string> = Schema extends RequiredMember<Key> ? EntryToType<Schema[Key & keyof Schema]> : unknown;

type ResponsesOf<Schema> = Schema extends { readonly response: object } ? ResponseTypes<Schema['response' & keyof Schema]> : unknown;

type ResponseTypes<Responses> = { -readonly [Status in keyof Responses]: EntryToType<Responses[Status]> };

/**
 * One route's resolved types: an explicit generic wins part by part, then the schema, then
 * `unknown`. A route with neither keeps the default generic itself, so its request and reply
 * read as Fastify's `FastifyRequest<RouteGenericInterface>` / `FastifyReply<RouteGenericInterface>`
 * (Fastify's type tests compare them by identity).
 */
export type ResolveRoute<RouteTypes extends RouteGeneric, Schema> = [RouteGeneric] extends [RouteTypes]
  ? [FastifySchema] extends [Schema]
    ? RouteTypes
    : ResolvedRoute<RouteTypes, Schema>
  : ResolvedRoute<RouteTypes, Schema>;

/** {@link ResolveRoute}'s part-by-part result. */
// The request parts read from the schema are `NoInfer`: a route method infers its generic from a
// handler typed on its own, and without the mark that inference walked every branch of
// json-schema-to-ts's types for a schema still unknown, once per program (an app with one
// untyped route: 66,194 instantiations, now 6,424). The schema is inferred from the options.
export interface ResolvedRoute<RouteTypes extends RouteGeneric, Schema> {
  Params: Explicit<RouteTypes, 'Params', NoInfer<SchemaPart<Schema, 'params'>>>;
  Querystring: Explicit<
    RouteTypes,
    'Querystring',
    NoInfer<Schema extends { readonly querystring: unknown } ? SchemaPart<Schema, 'querystring'> : SchemaPart<Schema, 'query'>>
  >;
  Body: Explicit<RouteTypes, 'Body', NoInfer<SchemaPart<Schema, 'body'>>>;
  Headers: LowercaseKeys<Explicit<RouteTypes, 'Headers', NoInfer<SchemaPart<Schema, 'headers'>>>>;
  Reply: Explicit<RouteTypes, 'Reply', ResponsesOf<Schema>>;
}

// An HTTP status (1xx to 5xx), a class of them or 'default': `{ 999: … }` is a payload type, as in Fastify.
type StatusKey = `${1 | 2 | 3 | 4 | 5}${number}` | `${1 | 2 | 3 | 4 | 5}xx` | 'default';

/** Whether a `Reply` type is a status map (`{ 200: A; '4xx': B }`) rather than a payload type. */
// One key test, without `Reply extends object` first (−1,893 instantiations in bench/types): a
// primitive's, an array's and a function's keys (`length`, methods, none) never pass it, and
// neither operand is a naked type parameter, so the test does not distribute over a union.
type IsStatusMap<Reply> = `${keyof Reply & (string | number)}` extends StatusKey ? (keyof Reply extends never ? false : true) : false;

type SuccessKeys<Responses> = { [Status in keyof Responses]: `${Status & (string | number)}` extends `2${string}` ? Status : never }[keyof Responses];

type StatusClass<Status extends number> = `${Status}` extends `${infer Digit}${string}` ? `${Digit}xx` : never;

type Lookup<Responses, Status extends number> = Status extends keyof Responses
  ? Responses[Status]
  : `${Status}` extends keyof Responses
    ? Responses[`${Status}` & keyof Responses]
    : StatusClass<Status> extends keyof Responses
      ? Responses[StatusClass<Status> & keyof Responses]
      : 'default' extends keyof Responses
        ? Responses['default' & keyof Responses]
        : unknown;

/**
 * The payload a reply may send. Before `reply.code(status)` (`Status` is `never`), and for a
 * handler's return value, it is the union of the success (2xx) payloads, else `default`'s,
 * else anything; after `reply.code(status)`, the payload declared for that status (exact,
 * then class, then `default`), else anything.
 */
export type ReplyPayload<Reply, Status extends number = never> =
  IsStatusMap<Reply> extends true
    ? [Status] extends [never]
      ? [SuccessKeys<Reply>] extends [never]
        ? 'default' extends keyof Reply
          ? Reply['default' & keyof Reply]
          : unknown
        : Reply[SuccessKeys<Reply>]
      : Lookup<Reply, Status>
    : Reply;

/**
 * What a handler may return as its payload. For a status map, any declared status's payload,
 * as in Fastify (the handler may have set the status with `reply.code()` before returning), or
 * anything when neither a success status nor `default` is declared (the implicit 200 has no
 * schema); otherwise the reply type itself.
 */
// `ReplyPayload<Reply>` (computed for the handler's reply anyway) is `unknown` when the implicit
// 200 accepts anything, which absorbs the union.
export type ReturnPayload<Reply> = ReplyPayload<Reply> | (IsStatusMap<Reply> extends true ? Reply[keyof Reply] : never);
