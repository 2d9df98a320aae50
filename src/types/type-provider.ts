/**
 * Type providers (Fastify 4.3's interface): a provider maps a schema (`input`) to a TypeScript type
 * (`output`); `withTypeProvider<P>()` returns the same instance typed with P. Route generics given
 * explicitly win over what the provider infers.
 *
 * The default provider is trellis's own inference (src/types/inference.ts): without any provider a
 * route's schema literal types its request parts and replies. A provider of one's own (or the
 * TypeBox / json-schema-to-ts providers) keeps Fastify 4.3's rules.
 */
import type { RouteGenericInterface } from './route'
import type { TrellisSchema } from './schema'
import type { ResolveRequestPart, ResolveReplySend, ResolveReplyReturn, ReplyLike } from './inference'

export interface TypeProvider {
  /** Optional so providers built against a Fastify whose interface lacks it still qualify. */
  readonly input?: unknown
  readonly output: unknown
}

/**
 * trellis's inference, the default provider of every instance: route schemas are mapped by
 * `SchemaToType` with the request-part rules (shorthand schemas, lowercased header names) and the
 * per-status-code reply rules. It is recognised by its `trellisInference` key; the key is optional
 * so that the default and the base interface stay assignable to each other (code typed with
 * `ReturnType<typeof trellis>` gets the base `TypeProvider`, and must accept the default).
 * Called like a Fastify provider (`CallTypeProvider`), it gives `unknown`, as Fastify's default.
 */
export interface TypeProviderDefault extends TypeProvider {
  readonly trellisInference?: true
}

/** Applies a provider to a schema. */
export type CallTypeProvider<Provider extends TypeProvider, Input> = (Provider & { input: Input })['output']

export interface RequestType<Params = unknown, Querystring = unknown, Headers = unknown, Body = unknown> {
  params: Params
  query: Querystring
  headers: Headers
  body: Body
}

export interface ResolveRequestType<Provider extends TypeProvider, SchemaCompiler extends TrellisSchema, RouteGeneric extends RouteGenericInterface> extends RequestType {
  params: ResolveRequestPart<Provider, SchemaCompiler, RouteGeneric['Params'], 'params'>
  query: ResolveRequestPart<Provider, SchemaCompiler, RouteGeneric['Querystring'], 'querystring'>
  headers: ResolveRequestPart<Provider, SchemaCompiler, RouteGeneric['Headers'], 'headers'>
  body: ResolveRequestPart<Provider, SchemaCompiler, RouteGeneric['Body'], 'body'>
}

export type ReplyType<Reply = unknown> = Reply

/** What `reply.send` accepts before a code is chosen: the `Reply` generic, else any declared response. */
export type ResolveReplyType<Provider extends TypeProvider, SchemaCompiler extends TrellisSchema, RouteGeneric extends RouteGenericInterface> =
  ReplyType<ResolveReplySend<Provider, SchemaCompiler, RouteGeneric>>

/**
 * What a handler may return: the reply value (with trellis's inference one of the 2xx responses),
 * nothing, the reply itself (`return reply.code(404).send(…)`), or a promise of these.
 */
export type ResolveReplyReturnType<Provider extends TypeProvider, SchemaCompiler extends TrellisSchema, RouteGeneric extends RouteGenericInterface> =
  ResolveReplyReturn<Provider, SchemaCompiler, RouteGeneric> extends infer Return ? (Return | void | ReplyLike | Promise<Return | void | ReplyLike>) : unknown

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { TypeProvider as FastifyTypeProvider, TypeProviderDefault as FastifyTypeProviderDefault, TypeProviderDefault as TrellisTypeProvider, RequestType as FastifyRequestType, ResolveRequestType as ResolveFastifyRequestType, ReplyType as FastifyReplyType, ResolveReplyType as ResolveFastifyReplyType, ResolveReplyReturnType as ResolveFastifyReplyReturnType }
