/**
 * The reply of the Fastify 5 line (`FastifyReply<RouteGeneric, RawServer, …>`: the route generic comes
 * first). `code(c)` narrows what `send` takes to the response declared for `c`; `send` needs a payload
 * when the reply type requires one. No `context`, `getResponseTime`, `redirect(code, url)`.
 */
import type { Buffer } from 'node:buffer'
import type { FastifyInstance } from './instance'
import type { FastifyBaseLogger } from './logger'
import type { FastifyRequest, RequestRouteOptions } from './request'
import type { RouteGenericInterface } from './route'
import type { FastifySchema } from './schema'
import type { CallSerializerTypeProvider, FastifyReplyType, FastifyTypeProvider, FastifyTypeProviderDefault, ResolveFastifyReplyType, SendArgs } from './type-provider'
import type { CodeToReplyKey, ContextConfigDefault, HttpHeader, HttpKeys, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault, ReplyKeysToCodes } from './utils'

// The same on both lines: Fastify 4's declaration.
export type { ReplyGenericInterface } from '../reply'

type PerStatus = Partial<Record<HttpKeys, unknown>>

/** The part of a `Reply` generic for a code: by code, then by class; a generic that is not per status stays whole. */
type ReplyForCode<RouteGenericReply, Code extends ReplyKeysToCodes<keyof RouteGenericReply>> =
  RouteGenericReply extends PerStatus & Record<Exclude<keyof RouteGenericReply, keyof PerStatus>, never>
    ? Code extends keyof RouteGenericReply
      ? RouteGenericReply[Code]
      : CodeToReplyKey<Code> extends keyof RouteGenericReply ? RouteGenericReply[CodeToReplyKey<Code>] : unknown
    : RouteGenericReply

/** What `send` takes after `code(c)`: the serializer's type of the schema for `c`, else the generic's part. */
export type ResolveReplyTypeWithRouteGeneric<RouteGenericReply, Code extends ReplyKeysToCodes<keyof RouteGenericReply>,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault> =
  Code extends keyof SchemaCompiler['response']
    ? CallSerializerTypeProvider<TypeProvider, SchemaCompiler['response'][Code]>
    : ResolveFastifyReplyType<TypeProvider, SchemaCompiler, { Reply: ReplyForCode<RouteGenericReply, Code> }>

/** The codes `code()` accepts: the response schema's, else the `Reply` generic's, else any. */
type ReplyCode<RouteGeneric extends RouteGenericInterface, SchemaCompiler extends FastifySchema> =
  keyof SchemaCompiler['response'] extends never
    ? ReplyKeysToCodes<keyof RouteGeneric['Reply']>
    : keyof SchemaCompiler['response'] extends ReplyKeysToCodes<keyof RouteGeneric['Reply']>
      ? keyof SchemaCompiler['response']
      : ReplyKeysToCodes<keyof RouteGeneric['Reply']>

// Kept apart from ../reply: Fastify 5 puts RouteGeneric first and types `send` through the provider's serializer.
export interface FastifyReply<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  ReplyType extends FastifyReplyType = ResolveFastifyReplyType<TypeProvider, SchemaCompiler, RouteGeneric>
> {
  readonly routeOptions: Readonly<RequestRouteOptions<ContextConfig, SchemaCompiler>>
  raw: RawReply
  /** Milliseconds since the request came in (fixed once the response finished). */
  elapsedTime: number
  log: FastifyBaseLogger
  request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>
  server: FastifyInstance
  code<Code extends ReplyCode<RouteGeneric, SchemaCompiler>>(statusCode: Code): FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider, ResolveReplyTypeWithRouteGeneric<RouteGeneric['Reply'], Code, SchemaCompiler, TypeProvider>>
  status<Code extends ReplyCode<RouteGeneric, SchemaCompiler>>(statusCode: Code): FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider, ResolveReplyTypeWithRouteGeneric<RouteGeneric['Reply'], Code, SchemaCompiler, TypeProvider>>
  statusCode: number
  /** Whether the response was sent or hijacked (read-only in Fastify 5: use `hijack()`). */
  sent: boolean
  send(...args: SendArgs<ReplyType>): FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>
  header(key: HttpHeader, value: any): FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>
  headers(values: Partial<Record<HttpHeader, number | string | string[] | undefined>>): FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>
  getHeader(key: HttpHeader): number | string | string[] | undefined
  getHeaders(): Record<HttpHeader, number | string | string[] | undefined>
  removeHeader(key: HttpHeader): FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>
  hasHeader(key: HttpHeader): boolean
  /** Without a code: the one set before, else 302. */
  redirect(url: string, statusCode?: number): FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>
  /** The media type of the Content-Type set so far (no parameters), or undefined. */
  readonly mediaType: string | undefined
  hijack(): FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>
  callNotFound(): void
  type(contentType: string): FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>
  serializer(fn: (payload: any) => string): FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>
  serialize(payload: any): string | ArrayBuffer | Buffer
  getSerializationFunction(httpStatus: string, contentType?: string): ((payload: { [key: string]: unknown }) => string) | undefined
  getSerializationFunction(schema: { [key: string]: unknown }): ((payload: { [key: string]: unknown }) => string) | undefined
  compileSerializationSchema(schema: { [key: string]: unknown }, httpStatus?: string, contentType?: string): (payload: { [key: string]: unknown }) => string
  serializeInput(input: { [key: string]: unknown }, schema: { [key: string]: unknown }, httpStatus?: string, contentType?: string): string
  serializeInput(input: { [key: string]: unknown }, httpStatus: string, contentType?: string): unknown
  then(fulfilled: () => void, rejected: (err: Error) => void): void
  /** Sends a 103 Early Hints response with these headers before the final one. */
  writeEarlyHints(hints: Record<string, string | string[]>, callback?: () => void): void
  /** A trailer, computed when the payload has been sent: `done(err, value)` or a promise. */
  trailer: (key: string, fn:
    | ((reply: FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>, payload: string | Buffer | null) => Promise<string>)
    | ((reply: FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>, payload: string | Buffer | null, done: (err: Error | null, value?: string) => void) => void)
  ) => FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>
  hasTrailer(key: string): boolean
  removeTrailer(key: string): FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfig, SchemaCompiler, TypeProvider>
  /** A reply decorator's value (FST_ERR_DEC_UNDECLARED when none is declared under that name). */
  getDecorator<T>(name: string | symbol): T
}
