/**
 * The reply object: ONE interface, `FastifyReply` (Fastify 4.3's generic parameters), also exported as
 * `TrellisReply` (see request.ts on augmenting it). `Reply` is the run-time class; `TypedReply<G>` a
 * shorthand.
 */
import type { Buffer } from 'node:buffer'
import { ReplyBase } from '../lifecycle/reply'
import type { RawServerBase, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, ContextConfigDefault, ReplyDefault } from './utils'
import type { LoggerInstance } from './logger'
import type { TrellisRequest } from './request'
import type { RouteGenericInterface } from './route'
import type { TrellisInstance } from './instance'
import type { TrellisSchema } from './schema'
import type { TypeProvider, TypeProviderDefault, ReplyType, ResolveReplyType } from './type-provider'
import type { ReplyCodes, ReplyTypeForCode } from './inference'
import type { RouteContextInfo } from './context'

export interface ReplyGenericInterface {
  Reply?: ReplyDefault
}

export interface FastifyReply<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Payload extends ReplyType = ResolveReplyType<Provider, SchemaCompiler, RouteGeneric>
> {
  raw: RawReply
  /** @deprecated (Fastify 4.29, FSTDEP019) use `request.routeOptions.config` / `.schema` */
  context: RouteContextInfo<ContextConfig>
  log: LoggerInstance
  request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider>
  server: TrellisInstance
  statusCode: number
  /** Whether the response was sent or hijacked (setting it is deprecated: FSTDEP010, use `hijack()`). */
  sent: boolean
  /** Milliseconds since the request came in, fixed once the response finished (Fastify 4.29). */
  readonly elapsedTime: number
  /**
   * Sets the status code. With trellis's inference and a response schema (without `default`), only
   * the declared codes are accepted, and `send` then takes the response declared for that code.
   */
  code<Code extends ReplyCodes<Provider, SchemaCompiler, RouteGeneric>>(statusCode: Code): FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider, ReplyTypeForCode<Provider, SchemaCompiler, RouteGeneric, Code>>
  status<Code extends ReplyCodes<Provider, SchemaCompiler, RouteGeneric>>(statusCode: Code): FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider, ReplyTypeForCode<Provider, SchemaCompiler, RouteGeneric, Code>>
  send(payload?: Payload): FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider, Payload>
  header(key: string, value: any): FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  headers(values: { [key: string]: any }): FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  getHeader(key: string): string | undefined
  getHeaders(): { [key: string]: number | string | string[] | undefined }
  removeHeader(key: string): void
  hasHeader(key: string): boolean
  /** A trailer: `fn` answers with `done(err, value)` or a promise (Fastify 4.29); a returned string still works (deprecated, FSTDEP013). */
  trailer(key: string, fn:
    | ((reply: FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, payload: string | Buffer | null) => Promise<string>)
    | ((reply: FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, payload: string | Buffer | null, done: (err: Error | null, value?: string) => void) => void)
    | ((reply: FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, payload: string | Buffer | null) => string)
  ): FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  hasTrailer(key: string): boolean
  removeTrailer(key: string): FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  /** Fastify 4.29's signature: `redirect(url, code?)`; without a code, the one set before or 302. */
  redirect(url: string, statusCode?: number): FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  /** @deprecated (Fastify 4.29, FSTDEP021) use `redirect(url, statusCode)` */
  redirect(statusCode: number, url: string): FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  hijack(): FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  callNotFound(): void
  /** @deprecated (Fastify 4.29, FSTDEP020) use `elapsedTime` */
  getResponseTime(): number
  type(contentType: string): FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  serializer(fn: (payload: any) => string): FastifyReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  serialize(payload: any): string | ArrayBuffer | Buffer
  getSerializationFunction(httpStatus: string, contentType?: string): (payload: any) => string
  getSerializationFunction(schema: { [key: string]: any }): (payload: any) => string
  compileSerializationSchema(schema: { [key: string]: any }, httpStatus?: string, contentType?: string): (payload: any) => string
  serializeInput(input: any, schema: { [key: string]: any }, httpStatus?: string, contentType?: string): string
  serializeInput(input: any, httpStatus: string, contentType?: string): string
  then(fulfilled: () => void, rejected: (err: Error) => void): void
}

/** The run-time class (its prototype is what `decorateReply` extends). */
export const FastifyReply = ReplyBase as unknown as {
  new (...args: never[]): FastifyReply
  readonly prototype: FastifyReply
}

/** trellis's name for the same interface (augment either name, not both: see docs/typescript.md). */
export { FastifyReply as TrellisReply }
// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
/** The run-time Reply class (as a value); as a type, the reply hooks and handlers receive. */
export const Reply = FastifyReply
export type Reply<RouteGeneric extends RouteGenericInterface = RouteGenericInterface> = FastifyReply<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteGeneric>
/** The reply of a route with these generics (Reply). */
export type TypedReply<RouteGeneric extends RouteGenericInterface = RouteGenericInterface> = FastifyReply<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteGeneric>
