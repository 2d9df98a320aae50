/** Content-type parsers of the Fastify 5 line (the request they receive is the v5 request). */
import type { Buffer } from 'node:buffer'
import type { ProtoAction, ConstructorAction, hasContentTypeParser, removeContentTypeParser, removeAllContentTypeParsers } from '../content-type-parser'
import type { FastifyRequest } from './request'
import type { RouteGenericInterface } from './route'
import type { FastifySchema } from './schema'
import type { FastifyTypeProvider, FastifyTypeProviderDefault } from './type-provider'
import type { RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './utils'

export type { ProtoAction, ConstructorAction, hasContentTypeParser, removeContentTypeParser, removeAllContentTypeParsers }

type ParserDone = (err: Error | null, body?: any) => void

// Kept apart from ../content-type-parser: what repeats is the generic parameters, which declarations cannot share.
/** A parser of the whole body, read as a string or a Buffer (`parseAs`). */
export type FastifyBodyParser<
  RawBody extends string | Buffer,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> = ((request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, rawBody: RawBody, done: ParserDone) => void)
  | ((request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, rawBody: RawBody) => Promise<any>)

/** A parser of the raw request stream. */
export type FastifyContentTypeParser<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> = ((request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, payload: RawRequest) => Promise<any>)
  | ((request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>, payload: RawRequest, done: ParserDone) => void)

export interface AddContentTypeParser<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> {
  (contentType: string | string[] | RegExp, opts: { bodyLimit?: number }, parser: FastifyContentTypeParser<RawServer, RawRequest, RouteGeneric, SchemaCompiler, TypeProvider>): void
  (contentType: string | string[] | RegExp, parser: FastifyContentTypeParser<RawServer, RawRequest, RouteGeneric, SchemaCompiler, TypeProvider>): void
  <ParseAs extends string | Buffer>(
    contentType: string | string[] | RegExp,
    opts: { parseAs: ParseAs extends Buffer ? 'buffer' : 'string', bodyLimit?: number },
    parser: FastifyBodyParser<ParseAs, RawServer, RawRequest, RouteGeneric, SchemaCompiler, TypeProvider>
  ): void
}

export type getDefaultJsonParser = (onProtoPoisoning: ProtoAction, onConstructorPoisoning: ConstructorAction) => FastifyBodyParser<string>
