/**
 * Generic parameters of routes, as Fastify's RouteGenericInterface: Body, Querystring, Params,
 * Headers and Reply, so that types inferred from schemas can plug in without changing the API.
 */
import type {
  FastifyRequestType, FastifyTypeProvider, ReplyCodes, ReplyTypeForCode, ResolveFastifyReplyType,
  ResolveFastifyRequestType, ResolveReplyReturn, RouteSchema, TrellisTypeProvider
} from '../types/inference'

export interface RouteGenericInterface {
  Body?: unknown
  Querystring?: unknown
  Params?: unknown
  Headers?: unknown
  Reply?: unknown
}

export type { RouteSchema, FastifyTypeProvider, TrellisTypeProvider } from '../types/inference'

/**
 * A request as a handler sees it. `S` is the route's schema (inferred from the route options) and
 * `P` the instance's type provider; the parts come from the explicit generics `G`, else from the
 * schema, else they are `unknown`.
 */
export interface TypedRequest<
  G extends RouteGenericInterface = RouteGenericInterface,
  S = RouteSchema,
  P extends FastifyTypeProvider = TrellisTypeProvider,
  RT extends FastifyRequestType = ResolveFastifyRequestType<P, S, G>
> {
  id: string
  params: RT['params']
  query: RT['query']
  body: RT['body']
  headers: RT['headers'] & import('node:http').IncomingHttpHeaders
  raw: import('node:http').IncomingMessage
  ip: string | undefined
  ips: string[] | undefined
  hostname: string | undefined
  protocol: string | undefined
  url: string
  method: string
  routerPath: string | undefined
  routeConfig: Record<string, unknown>
  log: import('../server/logger').Logger
  server: any
  validationError?: Error & { validation?: unknown; validationContext?: string }
  [decorator: string]: unknown
}

/**
 * A reply. `ReplyType` is what `send` accepts: before `code()` any declared response (or the
 * `Reply` generic), after `code(c)` the response declared for c. With trellis's own inference and a
 * response schema without `default`, `code()` only accepts the declared status codes.
 */
export interface TypedReply<
  G extends RouteGenericInterface = RouteGenericInterface,
  S = RouteSchema,
  P extends FastifyTypeProvider = TrellisTypeProvider,
  ReplyType = ResolveFastifyReplyType<P, S, G>
> {
  raw: import('node:http').ServerResponse
  request: TypedRequest<G, S, P>
  log: import('../server/logger').Logger
  statusCode: number
  sent: boolean
  server: any
  code<C extends ReplyCodes<P, S, G>>(statusCode: C): TypedReply<G, S, P, ReplyTypeForCode<P, S, G, C>>
  status<C extends ReplyCodes<P, S, G>>(statusCode: C): TypedReply<G, S, P, ReplyTypeForCode<P, S, G, C>>
  header(name: string, value: unknown): TypedReply<G, S, P, ReplyType>
  headers(values: Record<string, unknown>): TypedReply<G, S, P, ReplyType>
  getHeader(name: string): string | number | string[] | undefined
  getHeaders(): Record<string, string | number | string[] | undefined>
  removeHeader(name: string): TypedReply<G, S, P, ReplyType>
  hasHeader(name: string): boolean
  type(contentType: string): TypedReply<G, S, P, ReplyType>
  trailer(name: string, fn: (reply: TypedReply<G, S, P, ReplyType>, payload: unknown) => string): TypedReply<G, S, P, ReplyType>
  hasTrailer(name: string): boolean
  removeTrailer(name: string): TypedReply<G, S, P, ReplyType>
  redirect(url: string): TypedReply<G, S, P, ReplyType>
  redirect(statusCode: number, url: string): TypedReply<G, S, P, ReplyType>
  send(payload?: ReplyType): TypedReply<G, S, P, ReplyType>
  serializer(fn: (payload: any) => string): TypedReply<G, S, P, ReplyType>
  callNotFound(): void
  hijack(): TypedReply<G, S, P, ReplyType>
  getResponseTime(): number
  then(fulfilled: () => void, rejected?: (err: Error) => void): void
  [decorator: string]: unknown
}

/**
 * A reply, as a handler may return it (`return reply.code(404).send(…)`): three members that
 * every reply has and reply values do not, so the check stays cheap (no full reply comparison).
 */
export interface ReplyLike { sent: boolean; hijack(): unknown; callNotFound(): void }

/** What a handler may return: a reply value, nothing (it used `reply.send`), the reply, or a promise of these. */
export type RouteHandlerReturn<G extends RouteGenericInterface, S, P extends FastifyTypeProvider> =
  ResolveReplyReturn<P, S, G> extends infer Return
    ? Return | void | ReplyLike | Promise<Return | void | ReplyLike>
    : never

export type RouteHandler<G extends RouteGenericInterface = RouteGenericInterface, S = RouteSchema, P extends FastifyTypeProvider = TrellisTypeProvider> =
  (this: any, request: TypedRequest<G, S, P>, reply: TypedReply<G, S, P>) => RouteHandlerReturn<G, S, P>

export type HookHandler<G extends RouteGenericInterface = RouteGenericInterface, S = RouteSchema, P extends FastifyTypeProvider = TrellisTypeProvider> =
  (this: any, request: TypedRequest<G, S, P>, reply: TypedReply<G, S, P>, ...rest: any[]) => unknown

type RouteHooks<G extends RouteGenericInterface, S, P extends FastifyTypeProvider> = HookHandler<G, S, P> | Array<HookHandler<G, S, P>>

export interface RouteShorthandOptions<G extends RouteGenericInterface = RouteGenericInterface, S = RouteSchema, P extends FastifyTypeProvider = TrellisTypeProvider> {
  schema?: S
  attachValidation?: boolean
  config?: Record<string, unknown>
  constraints?: Record<string, unknown>
  version?: string
  errorHandler?: (this: any, error: any, request: TypedRequest<G, S, P>, reply: TypedReply<G, S, P>) => unknown
  bodyLimit?: number
  logLevel?: string
  logSerializers?: Record<string, (value: any) => unknown>
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both'
  exposeHeadRoute?: boolean
  validatorCompiler?: (input: { schema: any; method: string; url: string; httpPart: string }) => (data: any) => unknown
  serializerCompiler?: (input: { schema: any; method: string; url: string; httpStatus: string }) => (payload: any) => string
  schemaErrorFormatter?: (errors: unknown[], dataVar: string) => Error
  onRequest?: RouteHooks<G, S, P>
  preParsing?: RouteHooks<G, S, P>
  preValidation?: RouteHooks<G, S, P>
  preHandler?: RouteHooks<G, S, P>
  preSerialization?: RouteHooks<G, S, P>
  onSend?: RouteHooks<G, S, P>
  onResponse?: RouteHooks<G, S, P>
  onError?: RouteHooks<G, S, P>
  onTimeout?: RouteHooks<G, S, P>
  handler?: RouteHandler<G, S, P>
}

export interface RouteOptionsInput<G extends RouteGenericInterface = RouteGenericInterface, S = RouteSchema, P extends FastifyTypeProvider = TrellisTypeProvider> extends RouteShorthandOptions<G, S, P> {
  method: string | string[]
  url: string
  handler: RouteHandler<G, S, P>
}

/**
 * `get`, `post`, …: the schema is a `const` type parameter, so a schema literal written in the call
 * types the handler; the instance's type is returned unchanged (nothing accumulates per route).
 */
export interface RouteShorthandMethod<Instance, P extends FastifyTypeProvider = TrellisTypeProvider> {
  <G extends RouteGenericInterface = RouteGenericInterface, ContextConfig = unknown, const S extends RouteSchema = RouteSchema>(
    path: string, opts: RouteShorthandOptions<G, S, P>, handler: RouteHandler<G, S, P>): Instance
  <G extends RouteGenericInterface = RouteGenericInterface, ContextConfig = unknown, const S extends RouteSchema = RouteSchema>(
    path: string, handler: RouteHandler<G, S, P>): Instance
  <G extends RouteGenericInterface = RouteGenericInterface, ContextConfig = unknown, const S extends RouteSchema = RouteSchema>(
    path: string, opts: RouteShorthandOptions<G, S, P> & { handler: RouteHandler<G, S, P> }): Instance
}

type Done = (err?: Error | null) => void
type ValueDone<T> = (err?: Error | null, value?: T) => void

/**
 * Typed signatures of the hooks (`this` is the instance). One signature each, so parameters are
 * typed from context: a callback hook calls `done`, an async hook leaves it out and returns a promise.
 */
export interface HookSignatures<Instance = any> {
  onRequest: (this: Instance, request: TypedRequest, reply: TypedReply, done: Done) => unknown
  preParsing: (this: Instance, request: TypedRequest, reply: TypedReply, payload: import('node:stream').Readable, done: ValueDone<import('node:stream').Readable>) => unknown
  preValidation: (this: Instance, request: TypedRequest, reply: TypedReply, done: Done) => unknown
  preHandler: (this: Instance, request: TypedRequest, reply: TypedReply, done: Done) => unknown
  preSerialization: (this: Instance, request: TypedRequest, reply: TypedReply, payload: unknown, done: ValueDone<unknown>) => unknown
  onSend: (this: Instance, request: TypedRequest, reply: TypedReply, payload: unknown, done: ValueDone<unknown>) => unknown
  onResponse: (this: Instance, request: TypedRequest, reply: TypedReply, done: Done) => unknown
  onTimeout: (this: Instance, request: TypedRequest, reply: TypedReply, done: Done) => unknown
  onError: (this: Instance, request: TypedRequest, reply: TypedReply, error: Error & { statusCode?: number; validation?: unknown; validationContext?: string }, done: Done) => unknown
  onReady: (this: Instance, done: Done) => unknown
  onClose: (this: Instance, instance: Instance, done: Done) => unknown
  onRoute: (this: Instance, routeOptions: RouteOptionsInput & { routePath: string; prefix: string; path: string; [key: string]: unknown }) => void
  onRegister: (this: Instance, instance: Instance, opts: Record<string, any>) => void
}
