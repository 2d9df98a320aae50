/**
 * Type providers (Fastify 4.3's interface): a provider maps a schema (`input`) to a TypeScript type
 * (`output`); `withTypeProvider<P>()` returns the same instance typed with P. Route generics given
 * explicitly win over what the provider infers.
 */
import type { RouteGenericInterface } from './route'
import type { TrellisSchema } from './schema'

export interface TypeProvider {
  readonly input: unknown
  readonly output: unknown
}
/** Without a provider every schema maps to `unknown`. */
export interface TypeProviderDefault extends TypeProvider {}

/** Applies a provider to a schema. */
export type CallTypeProvider<Provider extends TypeProvider, Input> = (Provider & { input: Input })['output']

type UndefinedToUnknown<T> = [T] extends [undefined] ? unknown : T
type KeysOf<T> = T extends any ? keyof T : never
/** The explicit generic when it has keys, else what the provider makes of the schema part. */
type Resolve<Provider extends TypeProvider, Part, Generic> =
  UndefinedToUnknown<KeysOf<Generic> extends never ? CallTypeProvider<Provider, Part> : Generic>

export interface RequestType<Params = unknown, Querystring = unknown, Headers = unknown, Body = unknown> {
  params: Params
  query: Querystring
  headers: Headers
  body: Body
}

export interface ResolveRequestType<Provider extends TypeProvider, SchemaCompiler extends TrellisSchema, RouteGeneric extends RouteGenericInterface> extends RequestType {
  params: Resolve<Provider, SchemaCompiler['params'], RouteGeneric['Params']>
  query: Resolve<Provider, SchemaCompiler['querystring'], RouteGeneric['Querystring']>
  headers: Resolve<Provider, SchemaCompiler['headers'], RouteGeneric['Headers']>
  body: Resolve<Provider, SchemaCompiler['body'], RouteGeneric['Body']>
}

export type ReplyType<Reply = unknown> = Reply

type HasKeys<T> = keyof T extends never ? false : true
type ReplyFromSchema<Provider extends TypeProvider, SchemaCompiler extends TrellisSchema> = {
  [Code in keyof SchemaCompiler['response']]: CallTypeProvider<Provider, SchemaCompiler['response'][Code]>
} extends infer ByCode ? ByCode[keyof ByCode] : unknown

/** What `reply.send` accepts: the `Reply` generic, else the response schemas through the provider. */
export type ResolveReplyType<Provider extends TypeProvider, SchemaCompiler extends TrellisSchema, RouteGeneric extends RouteGenericInterface> = ReplyType<
  HasKeys<RouteGeneric['Reply']> extends true ? RouteGeneric['Reply']
    : HasKeys<SchemaCompiler['response']> extends true ? ReplyFromSchema<Provider, SchemaCompiler> : unknown
>

/** What a handler may return: the reply type, nothing, or a promise of either. */
export type ResolveReplyReturnType<Provider extends TypeProvider, SchemaCompiler extends TrellisSchema, RouteGeneric extends RouteGenericInterface> =
  ResolveReplyType<Provider, SchemaCompiler, RouteGeneric> extends infer Return ? (Return | void | Promise<Return | void>) : unknown

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { TypeProvider as FastifyTypeProvider, TypeProviderDefault as FastifyTypeProviderDefault, RequestType as FastifyRequestType, ResolveRequestType as ResolveFastifyRequestType, ReplyType as FastifyReplyType, ResolveReplyType as ResolveFastifyReplyType, ResolveReplyReturnType as ResolveFastifyReplyReturnType }
