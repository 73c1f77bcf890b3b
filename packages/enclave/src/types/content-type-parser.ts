// Content-type parser types, with Fastify's names and type parameter lists. A parser has one
// signature for both forms (an async parser omits `done`, a callback parser calls it), so an
// inline parser's parameters are typed from it.
import type {
  FastifyTypeProvider,
  FastifyTypeProviderDefault,
  RawRequestDefaultExpression,
  RawServerBase,
  RawServerDefault,
  RouteGenericInterface,
} from './fastify-names.js';
import type { FastifyRequest } from './request.js';
import type { FastifySchema } from './schema-inference.js';

/** The callback of a callback-style parser: an error, or `null` and the parsed body. */
export type ContentTypeParserDoneFunction = (error: Error | null, body?: unknown) => void;

/** A parser of the whole body read as `RawBody` (`parseAs: 'string'` or `'buffer'`). */
export type FastifyBodyParser<
  RawBody extends string | Buffer,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
> = (
  request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>,
  rawBody: RawBody,
  done: ContentTypeParserDoneFunction,
) => unknown;

/** A parser of the raw request stream (no `parseAs`): it reads the body itself. */
export type FastifyContentTypeParser<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
> = (
  request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>,
  payload: RawRequest,
  done: ContentTypeParserDoneFunction,
) => unknown;

/** What a content type is matched by: a media type, a pattern, or a list of them. */
export type ContentTypeMatcher = string | RegExp | Array<string | RegExp>;

/**
 * `addContentTypeParser`: a stream parser, or a body parser with `parseAs` (the body type
 * follows it; Fastify's form `addContentTypeParser<string>(…)` names it).
 */
export interface AddContentTypeParser<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
> {
  (matcher: ContentTypeMatcher, parser: FastifyContentTypeParser<RawServer, RawRequest, RouteGeneric, SchemaCompiler, TypeProvider>): void;
  (
    matcher: ContentTypeMatcher,
    options: { bodyLimit?: number },
    parser: FastifyContentTypeParser<RawServer, RawRequest, RouteGeneric, SchemaCompiler, TypeProvider>,
  ): void;
  (
    matcher: ContentTypeMatcher,
    options: { parseAs: 'string'; bodyLimit?: number },
    parser: FastifyBodyParser<string, RawServer, RawRequest, RouteGeneric, SchemaCompiler, TypeProvider>,
  ): void;
  (
    matcher: ContentTypeMatcher,
    options: { parseAs: 'buffer'; bodyLimit?: number },
    parser: FastifyBodyParser<Buffer, RawServer, RawRequest, RouteGeneric, SchemaCompiler, TypeProvider>,
  ): void;
  <ParseAs extends string | Buffer>(
    matcher: ContentTypeMatcher,
    options: { parseAs: ParseAs extends Buffer ? 'buffer' : 'string'; bodyLimit?: number },
    parser: FastifyBodyParser<ParseAs, RawServer, RawRequest, RouteGeneric, SchemaCompiler, TypeProvider>,
  ): void;
}
