/**
 * Generic parameters of routes, as Fastify's RouteGenericInterface: Body, Querystring, Params,
 * Headers and Reply, so that types inferred from schemas can plug in without changing the API.
 */
export interface RouteGenericInterface {
  Body?: unknown
  Querystring?: unknown
  Params?: unknown
  Headers?: unknown
  Reply?: unknown
}

type Or<T, Fallback> = unknown extends T ? Fallback : T

export interface TypedRequest<G extends RouteGenericInterface = RouteGenericInterface> {
  id: string
  params: Or<G['Params'], Record<string, string>>
  query: Or<G['Querystring'], Record<string, unknown>>
  body: Or<G['Body'], unknown>
  headers: Or<G['Headers'], Record<string, string | string[] | undefined>> & Record<string, string | string[] | undefined>
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

export interface TypedReply<G extends RouteGenericInterface = RouteGenericInterface> {
  raw: import('node:http').ServerResponse
  request: TypedRequest<G>
  log: import('../server/logger').Logger
  statusCode: number
  sent: boolean
  server: any
  code(statusCode: number): TypedReply<G>
  status(statusCode: number): TypedReply<G>
  header(name: string, value: unknown): TypedReply<G>
  headers(values: Record<string, unknown>): TypedReply<G>
  getHeader(name: string): string | number | string[] | undefined
  getHeaders(): Record<string, string | number | string[] | undefined>
  removeHeader(name: string): TypedReply<G>
  hasHeader(name: string): boolean
  type(contentType: string): TypedReply<G>
  /** A trailer: `fn` answers with `done(err, value)`, a promise, or (deprecated, FSTDEP013) its return value. */
  trailer(name: string, fn: (reply: TypedReply<G>, payload: unknown, done: (err: Error | null, value?: string) => void) => string | void | Promise<string>): TypedReply<G>
  hasTrailer(name: string): boolean
  removeTrailer(name: string): TypedReply<G>
  redirect(url: string): TypedReply<G>
  redirect(statusCode: number, url: string): TypedReply<G>
  send(payload?: Or<G['Reply'], unknown>): TypedReply<G>
  serializer(fn: (payload: any) => string): TypedReply<G>
  callNotFound(): void
  hijack(): TypedReply<G>
  getResponseTime(): number
  then(fulfilled: () => void, rejected?: (err: Error) => void): void
  [decorator: string]: unknown
}

export type RouteHandler<G extends RouteGenericInterface = RouteGenericInterface> =
  (this: any, request: TypedRequest<G>, reply: TypedReply<G>) => unknown

export type HookHandler<G extends RouteGenericInterface = RouteGenericInterface> =
  (this: any, request: TypedRequest<G>, reply: TypedReply<G>, ...rest: any[]) => unknown

/** A route's `schema` option; an interface so entries such as trellis/openapi can add their keywords. */
export interface RouteSchemaOptions { body?: unknown; querystring?: unknown; query?: unknown; params?: unknown; headers?: unknown; response?: Record<string | number, unknown> }

export interface RouteShorthandOptions<G extends RouteGenericInterface = RouteGenericInterface> {
  schema?: RouteSchemaOptions
  attachValidation?: boolean
  config?: Record<string, unknown>
  constraints?: Record<string, unknown>
  version?: string
  errorHandler?: (this: any, error: any, request: TypedRequest<G>, reply: TypedReply<G>) => unknown
  bodyLimit?: number
  logLevel?: string
  logSerializers?: Record<string, (value: any) => unknown>
  /** Fastify 4.29: `(logger, bindings, opts, rawReq) => childLogger` for this route's requests. */
  childLoggerFactory?: (this: any, logger: any, bindings: Record<string, unknown>, opts: Record<string, unknown>, rawReq: import('node:http').IncomingMessage) => any
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both'
  exposeHeadRoute?: boolean
  validatorCompiler?: (input: { schema: any; method: string; url: string; httpPart: string }) => (data: any) => unknown
  serializerCompiler?: (input: { schema: any; method: string; url: string; httpStatus: string }) => (payload: any) => string
  schemaErrorFormatter?: (errors: unknown[], dataVar: string) => Error
  onRequest?: HookHandler<G> | Array<HookHandler<G>>
  preParsing?: HookHandler<G> | Array<HookHandler<G>>
  preValidation?: HookHandler<G> | Array<HookHandler<G>>
  preHandler?: HookHandler<G> | Array<HookHandler<G>>
  preSerialization?: HookHandler<G> | Array<HookHandler<G>>
  onSend?: HookHandler<G> | Array<HookHandler<G>>
  onResponse?: HookHandler<G> | Array<HookHandler<G>>
  onError?: HookHandler<G> | Array<HookHandler<G>>
  onTimeout?: HookHandler<G> | Array<HookHandler<G>>
  handler?: RouteHandler<G>
}

export interface RouteOptionsInput<G extends RouteGenericInterface = RouteGenericInterface> extends RouteShorthandOptions<G> {
  method: string | string[]
  url: string
  handler: RouteHandler<G>
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
  /** Fastify 4.29: after the server listens (errors are logged, never thrown). */
  onListen: (this: Instance, done: Done) => unknown
  /** Fastify 4.29: at close(), before the server stops accepting connections. */
  preClose: (this: Instance, done: Done) => unknown
  /** Fastify 4.29: the client closed the connection before the response was sent. */
  onRequestAbort: (this: Instance, request: TypedRequest, done: Done) => unknown
}
