/**
 * From a route's schema (and its explicit generics) to the types its handler sees: request parts,
 * the value it may return, what `reply.send` accepts, before and after `reply.code(c)`.
 *
 * Two ways to map a schema to a type:
 *  - trellis's own (the default provider, `TypeProviderDefault`): `SchemaToType` on every part (in
 *    the mode of the run-time step: request parts after Ajv, replies as the serializer takes them),
 *    the handler returns one of the 2xx response types and `reply.code()` only takes declared codes;
 *  - a Fastify 4.3 type provider (`withTypeProvider<P>()`, e.g. the TypeBox or json-schema-to-ts
 *    providers): `P` maps each schema, with Fastify 4.3's rules (a reply is any declared response).
 * Explicit route generics (`Body`, `Querystring`, `Params`, `Headers`, `Reply`) win over both.
 */
import type { SchemaDepth, SchemaToType } from './schema-to-type'
import type { RouteGenericInterface } from './route'
import type { TypeProvider as FastifyTypeProvider, CallTypeProvider } from './type-provider'
import type { RequestPart, RequestPartToType } from './request-part'
import type { CodesOfKey, IsStatusMap, SchemaForCode, SuccessKeys } from './status-codes'

/**
 * A reply, as a handler may return it (`return reply.code(404).send(…)`): three members that
 * every reply has and reply values do not, so the check stays cheap (no full reply comparison).
 */
export interface ReplyLike { sent: boolean; hijack(): unknown; callNotFound(): void }

// union-aware keyof: a generic counts as given when it has keys (Fastify 4.3's rule)
type KeysOf<T> = T extends unknown ? keyof T : never
type UndefinedToUnknown<T> = [T] extends [undefined] ? unknown : T
// trellis's inference applies for the default provider and the base interface (an inline plugin's
// instance is typed with the base, as in Fastify 4.3); any other provider maps the schemas itself
type IsDefault<P> = [FastifyTypeProvider] extends [P] ? true : false

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

/** A response schema read as the serializer takes it (`SchemaMode` 'reply'). */
type ReplyValue<S> = SchemaToType<S, S, SchemaDepth, 'reply'>

type ResponseMap<S> = 'response' extends keyof S ? S['response' & keyof S] : undefined

type ReplyGiven<G extends RouteGenericInterface> = [KeysOf<G['Reply']>] extends [never] ? false : true

/** Every declared response, through a Fastify provider (Fastify 4.3's union of all codes). */
type ProviderReplyUnion<P extends FastifyTypeProvider, R> =
  [keyof R] extends [never] ? unknown : { [K in keyof R]: CallTypeProvider<P, R[K]> }[keyof R]

/** The success replies: the 2xx schemas, else `default`; nothing declared → unknown. */
type SuccessReply<R> =
  IsStatusMap<R> extends true
    ? [SuccessKeys<keyof R>] extends [never]
        ? 'default' extends keyof R ? ReplyValue<R['default' & keyof R]> : unknown
        : ReplyValue<R[SuccessKeys<keyof R>]>
    : unknown

/** Every declared response (trellis's own mapping), for a `reply.send` with no code chosen. */
type AnyDeclaredReply<R> = IsStatusMap<R> extends true ? ReplyValue<R[keyof R]> : unknown

/**
 * What `reply.send()` accepts before a code is chosen: the `Reply` generic, else any declared
 * response (the status may have been set elsewhere), else unknown.
 */
export type ResolveReplySend<P extends FastifyTypeProvider, S, G extends RouteGenericInterface> =
  ReplyGiven<G> extends true ? G['Reply']
    : IsDefault<P> extends true ? AnyDeclaredReply<ResponseMap<S>>
      : ProviderReplyUnion<P, ResponseMap<S>>

/** The value a handler may return: with trellis's mapping, one of the success replies. */
export type ResolveReplyReturn<P extends FastifyTypeProvider, S, G extends RouteGenericInterface> =
  ReplyGiven<G> extends true ? G['Reply']
    : IsDefault<P> extends true ? SuccessReply<ResponseMap<S>>
      : ProviderReplyUnion<P, ResponseMap<S>>

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
            ? ResolveReplySend<P, S, G>
            : IsDefault<P> extends true ? ReplyValue<Schema> : CallTypeProvider<P, Schema>
        : never
      : ResolveReplySend<P, S, G>
