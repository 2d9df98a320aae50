/**
 * Fastify 5's type providers: one provider types the request parts (`validator`) and the replies
 * (`serializer`) separately, each from the schema in `schema`. The default provider is trellis's
 * schema inference (as on the v4 line): request parts and replies are typed from plain JSON Schema
 * with no provider call, and a handler returns one of the success (2xx) replies. A route generic
 * still wins part by part; another provider (`withTypeProvider<P>()`) gives Fastify 5's rules.
 */
import type { RouteGenericInterface } from './route'
import type { FastifySchema } from './schema'
import type { HttpKeys, RecordKeysToLowercase } from './utils'
import type { SchemaDepth, SchemaToType } from '../schema-to-type'
import type { ReplyLike, ResolveReplyReturn } from '../inference'
import type { TypeProviderDefault as InferenceV4 } from '../type-provider'

export interface FastifyTypeProvider {
  readonly schema: unknown
  readonly validator: unknown
  readonly serializer: unknown
}

/**
 * The default provider: trellis's schema inference (docs/typescript.md, "Types inferred from route
 * schemas"), also exported as `TrellisTypeProvider`. `trellisInference` marks it, so that a handler's
 * return is checked against the success replies only when it is in use.
 */
export interface FastifyTypeProviderDefault extends FastifyTypeProvider {
  readonly validator: SchemaToType<this['schema'], this['schema'], SchemaDepth, 'request'>
  readonly serializer: SchemaToType<this['schema'], this['schema'], SchemaDepth, 'reply'>
  readonly trellisInference?: true
}

/** What a provider's validator makes of a schema (a request part after validation). */
export type CallValidatorTypeProvider<F extends FastifyTypeProvider, S> = (F & { schema: S })['validator']
/** What a provider's serializer takes for a schema (a reply). */
export type CallSerializerTypeProvider<F extends FastifyTypeProvider, S> = (F & { schema: S })['serializer']

// `[T] extends [undefined]`: a part neither declared nor typed by the provider is unknown.
type OrUnknown<T> = [T] extends [undefined] ? unknown : T
// keyof over each member of a union, so that a union generic counts as declared
type KeysOf<T> = T extends any ? keyof T : never

/** A request part: the route generic when it declares it, else the provider's type of the part's schema. */
type RequestPart<Provider extends FastifyTypeProvider, Declared, Schema> =
  OrUnknown<KeysOf<Declared> extends never ? CallValidatorTypeProvider<Provider, Schema> : Declared>

export interface FastifyRequestType<Params = unknown, Querystring = unknown, Headers = unknown, Body = unknown> {
  params: Params
  query: Querystring
  headers: Headers
  body: Body
}

export interface ResolveFastifyRequestType<
  TypeProvider extends FastifyTypeProvider,
  SchemaCompiler extends FastifySchema,
  RouteGeneric extends RouteGenericInterface
> extends FastifyRequestType {
  params: RequestPart<TypeProvider, RouteGeneric['Params'], SchemaCompiler['params']>
  query: RequestPart<TypeProvider, RouteGeneric['Querystring'], SchemaCompiler['querystring']>
  headers: RecordKeysToLowercase<RequestPart<TypeProvider, RouteGeneric['Headers'], SchemaCompiler['headers']>>
  body: RequestPart<TypeProvider, RouteGeneric['Body'], SchemaCompiler['body']>
}

type ContentSchemas = { content: { [contentType: string]: { schema: unknown } } }
type ValueOf<T> = T[keyof T]

/** The union of the serializer's types of every response schema (per status, per content type). */
type ReplyFromSchemas<Provider extends FastifyTypeProvider, Schema extends FastifySchema> = {
  [Status in keyof Schema['response']]: Schema['response'][Status] extends ContentSchemas
    ? ({ [Type in keyof Schema['response'][Status]['content']]: CallSerializerTypeProvider<Provider, Schema['response'][Status]['content'][Type]['schema']> } extends infer ByType ? ValueOf<ByType> : unknown)
    : CallSerializerTypeProvider<Provider, Schema['response'][Status]>
} extends infer ByStatus ? ValueOf<ByStatus> : unknown

export type FastifyReplyType<Reply = unknown> = Reply

/** What `reply.send` takes: the `Reply` generic when given, else any response the schemas declare. */
export type ResolveFastifyReplyType<TypeProvider extends FastifyTypeProvider, SchemaCompiler extends FastifySchema, RouteGeneric extends RouteGenericInterface> =
  OrUnknown<KeysOf<RouteGeneric['Reply']> extends never ? ReplyFromSchemas<TypeProvider, SchemaCompiler> : RouteGeneric['Reply']>

/** A per-status `Reply` generic (`{ 200: A, 404: B }`) returns any of its members, or the whole record. */
type ReturnFromGeneric<RouteGeneric extends RouteGenericInterface> =
  RouteGeneric extends { Reply: infer Return }
    ? keyof Return extends HttpKeys ? Return[keyof Return] | Return : Return
    : unknown

/**
 * What a handler may return (or resolve with): the reply type, or nothing. With trellis's inference
 * (the default provider) and no `Reply` generic, one of the success replies (2xx, else `default`),
 * nothing, or the reply itself (`return reply.code(404).send(…)`), as on the v4 line.
 */
export type ResolveFastifyReplyReturnType<TypeProvider extends FastifyTypeProvider, SchemaCompiler extends FastifySchema, RouteGeneric extends RouteGenericInterface> =
  ['trellisInference' extends keyof TypeProvider ? KeysOf<RouteGeneric['Reply']> : 'provider'] extends [never]
    ? ResolveReplyReturn<InferenceV4, SchemaCompiler, RouteGeneric> extends infer Return ? (Return | void | ReplyLike | Promise<Return | void | ReplyLike>) : unknown
    : ProviderReplyReturnType<TypeProvider, SchemaCompiler, RouteGeneric>

type ProviderReplyReturnType<TypeProvider extends FastifyTypeProvider, SchemaCompiler extends FastifySchema, RouteGeneric extends RouteGenericInterface> =
  ResolveFastifyReplyType<TypeProvider, SchemaCompiler, RouteGeneric> extends infer Reply
    ? RouteGeneric['Reply'] extends Reply
      ? ReturnFromGeneric<RouteGeneric> extends infer Return ? Return | void | Promise<Return | void> : unknown
      : Reply | void | Promise<Reply | void>
    : unknown

/** A promise-like that may be left floating (`ready()`, `after()`, `register()`): rejections reach the instance. */
export type SafePromiseLike<T> = PromiseLike<T> & { __linterBrands: 'SafePromiseLike' }

/** `send(payload)`: optional when the reply type is unknown, undefined or void, required otherwise. */
export type SendArgs<ReplyType> = unknown extends ReplyType
  ? [payload?: ReplyType]
  : [ReplyType] extends [undefined | void] ? [payload?: ReplyType] : [payload: ReplyType]
