/** Content-type parser types (`addContentTypeParser` and the default parsers). */
import type { Buffer } from 'node:buffer'
import type { RawServerBase, RawServerDefault, RawRequestDefaultExpression } from './utils'
import type { TrellisRequest } from './request'
import type { RouteGenericInterface } from './route'
import type { TypeProvider, TypeProviderDefault } from './type-provider'
import type { TrellisSchema } from './schema'

export type ContentTypeParserDoneFunction = (err: Error | null, body?: any) => void

/** A parser of the whole body, read as a string or a Buffer (`parseAs`). */
export type BodyParser<
  RawBody extends string | Buffer,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault
> = ((request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider>, rawBody: RawBody, done: ContentTypeParserDoneFunction) => void)
  | ((request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider>, rawBody: RawBody) => Promise<any>)

/** A parser of the raw request stream. */
export type ContentTypeParser<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault
> = ((request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider>, payload: RawRequest) => Promise<any>)
  | ((request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider>, payload: RawRequest, done: ContentTypeParserDoneFunction) => void)

export interface AddContentTypeParser<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault
> {
  (contentType: string | string[] | RegExp, opts: { bodyLimit?: number }, parser: ContentTypeParser<RawServer, RawRequest, RouteGeneric, SchemaCompiler, Provider>): void
  (contentType: string | string[] | RegExp, parser: ContentTypeParser<RawServer, RawRequest, RouteGeneric, SchemaCompiler, Provider>): void
  <ParseAs extends string | Buffer>(
    contentType: string | string[] | RegExp,
    opts: { parseAs: ParseAs extends Buffer ? 'buffer' : 'string'; bodyLimit?: number },
    parser: BodyParser<ParseAs, RawServer, RawRequest, RouteGeneric, SchemaCompiler, Provider>
  ): void
}

export type hasContentTypeParser = (contentType: string | RegExp) => boolean
export type ProtoAction = 'error' | 'remove' | 'ignore'
export type ConstructorAction = 'error' | 'remove' | 'ignore'
export type getDefaultJsonParser = (onProtoPoisoning: ProtoAction, onConstructorPoisoning: ConstructorAction) => BodyParser<string>
export type removeContentTypeParser = (contentType: string | RegExp | Array<string | RegExp>) => void
export type removeAllContentTypeParsers = () => void

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { BodyParser as FastifyBodyParser, ContentTypeParser as FastifyContentTypeParser }
