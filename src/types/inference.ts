/**
 * From a route's schema (and its explicit generics) to the types its handler sees: request parts,
 * the value it may return, what `reply.send` accepts, before and after `reply.code(c)`.
 *
 * Two ways to map a schema to a type:
 *  - trellis's own (the default, `TrellisTypeProvider`): `SchemaToType` on every part, the
 *    handler returns one of the 2xx response types and `reply.code()` only takes declared codes;
 *  - a Fastify 4.3 type provider (`withTypeProvider<P>()`, e.g. the TypeBox or json-schema-to-ts
 *    providers): `P` maps each schema, with Fastify 4.3's rules (a reply is any declared response).
 * Explicit route generics (`Body`, `Querystring`, `Params`, `Headers`, `Reply`) win over both.
 */
import type { SchemaToType } from './schema-to-type'
import type { RouteGenericInterface } from '../routing/types'
import type { RequestPart, RequestPartToType } from './request-part'
import type { CodesOfKey, IsStatusMap, SchemaForCode, SuccessKeys } from './status-codes'

/** Fastify 4.3's type-provider interface: `output` is the type of the schema in `input`. */
export interface FastifyTypeProvider {
  readonly input?: unknown
  readonly output: unknown
}

/**
 * trellis's inference as a type provider: the default of every instance. The `trellisInference`
 * brand lets the route types use the part-aware mapping (shorthand schemas, lowercased headers)
 * instead of calling `output`; other code may still call it like any provider.
 */
export interface TrellisTypeProvider extends FastifyTypeProvider {
  readonly trellisInference: true
  readonly output: SchemaToType<this['input']>
}

/** A provider's type for one schema (Fastify 4.3's definition). */
export type CallTypeProvider<P extends FastifyTypeProvider, Input> = (P & { input: Input })['output']

/** The wide schema type of a route (every part optional and unknown), as Fastify's FastifySchema. */
export interface RouteSchema {
  body?: unknown
  querystring?: unknown
  params?: unknown
  headers?: unknown
  response?: unknown
}

// union-aware keyof: a generic counts as given when it has keys (Fastify 4.3's rule)
type KeysOf<T> = T extends unknown ? keyof T : never
type UndefinedToUnknown<T> = [T] extends [undefined] ? unknown : T
type IsDefault<P> = P extends { readonly trellisInference: true } ? true : false

type PartSchema<S, Part extends RequestPart> =
  Part extends keyof S ? S[Part]
    : Part extends 'querystring' ? ('query' extends keyof S ? S['query' & keyof S] : undefined)
      : undefined

/** The type of one request part: the explicit generic, else the schema through the provider. */
export type ResolveRequestPart<P extends FastifyTypeProvider, S, Given, Part extends RequestPart> =
  [KeysOf<Given>] extends [never]
    ? IsDefault<P> extends true
      ? RequestPartToType<PartSchema<S, Part>, Part>
      : UndefinedToUnknown<CallTypeProvider<P, PartSchema<S, Part>>>
    : Given

/** The four request parts of a route (Fastify's FastifyRequestType). */
export interface FastifyRequestType<Params = unknown, Querystring = unknown, Headers = unknown, Body = unknown> {
  params: Params
  query: Querystring
  headers: Headers
  body: Body
}

export interface ResolveFastifyRequestType<P extends FastifyTypeProvider, S, G extends RouteGenericInterface> extends FastifyRequestType {
  params: ResolveRequestPart<P, S, G['Params'], 'params'>
  query: ResolveRequestPart<P, S, G['Querystring'], 'querystring'>
  headers: ResolveRequestPart<P, S, G['Headers'], 'headers'>
  body: ResolveRequestPart<P, S, G['Body'], 'body'>
}

type ResponseMap<S> = 'response' extends keyof S ? S['response' & keyof S] : undefined

type ReplyGiven<G extends RouteGenericInterface> = [KeysOf<G['Reply']>] extends [never] ? false : true

/** Every declared response, through a Fastify provider (Fastify 4.3's union of all codes). */
type ProviderReplyUnion<P extends FastifyTypeProvider, R> =
  [keyof R] extends [never] ? unknown : { [K in keyof R]: CallTypeProvider<P, R[K]> }[keyof R]

/** The success replies: the 2xx schemas, else `default`; nothing declared → unknown. */
type SuccessReply<R> =
  IsStatusMap<R> extends true
    ? [SuccessKeys<keyof R>] extends [never]
        ? 'default' extends keyof R ? SchemaToType<R['default' & keyof R]> : unknown
        : SchemaToType<R[SuccessKeys<keyof R>]>
    : unknown

/** Every declared response (trellis's own mapping), for a `reply.send` with no code chosen. */
type AnyDeclaredReply<R> = IsStatusMap<R> extends true ? SchemaToType<R[keyof R]> : unknown

/**
 * What `reply.send()` accepts before a code is chosen: the `Reply` generic, else any declared
 * response (the status may have been set elsewhere), else unknown.
 */
export type ResolveFastifyReplyType<P extends FastifyTypeProvider, S, G extends RouteGenericInterface> =
  ReplyGiven<G> extends true ? G['Reply']
    : IsDefault<P> extends true ? AnyDeclaredReply<ResponseMap<S>>
      : ProviderReplyUnion<P, ResponseMap<S>>

/** The value a handler may return: with trellis's mapping, one of the success replies. */
export type ResolveReplyReturn<P extends FastifyTypeProvider, S, G extends RouteGenericInterface> =
  ReplyGiven<G> extends true ? G['Reply']
    : IsDefault<P> extends true ? SuccessReply<ResponseMap<S>>
      : ProviderReplyUnion<P, ResponseMap<S>>

/** A handler's return type: the reply value, nothing (it used `reply.send`), or a promise of either. */
export type ResolveFastifyReplyReturnType<P extends FastifyTypeProvider, S, G extends RouteGenericInterface> =
  ResolveReplyReturn<P, S, G> extends infer Return ? Return | void | Promise<Return | void> : unknown

/**
 * The codes `reply.code()` accepts: with trellis's mapping and a response map without `default`,
 * only the declared ones (a `4xx` key allows 400..499); otherwise any number.
 */
export type ReplyCodes<P extends FastifyTypeProvider, S, G extends RouteGenericInterface> =
  ReplyGiven<G> extends true ? number
    : IsDefault<P> extends true ? DeclaredCodes<ResponseMap<S>>
      : number

type DeclaredCodes<R> =
  IsStatusMap<R> extends true ? ('default' extends keyof R ? number : CodesOfKey<keyof R>) : number

/** What `reply.code(c).send()` accepts: the response declared for c, else as before the code. */
export type ReplyTypeForCode<P extends FastifyTypeProvider, S, G extends RouteGenericInterface, C extends number> =
  ReplyGiven<G> extends true ? G['Reply']
    : IsStatusMap<ResponseMap<S>> extends true
      ? SchemaForCode<ResponseMap<S>, C> extends infer Schema
        ? [Schema] extends [undefined]
            ? ResolveFastifyReplyType<P, S, G>
            : IsDefault<P> extends true ? SchemaToType<Schema> : CallTypeProvider<P, Schema>
        : never
      : ResolveFastifyReplyType<P, S, G>
