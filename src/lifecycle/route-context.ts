/**
 * The request path's contract: a built route (`RouteContext`), everything the request path needs,
 * resolved once at `ready()` so that nothing on the hot path is looked up by name, and the few
 * application-wide members it reads (`RequestEnv`). The plugin tree builds both (context/); the
 * request path sees only these two shapes.
 */
import type { FastifyLine } from '../base/version'
import type { HttpMethods } from './http-methods'
import type { IncomingMessage } from 'node:http'
import type { AnyHook, RequestHookName } from './hooks'
import type { ErrorHandler } from './error-handling'
import type { RequestClass } from './request'
import type { ReplyClass } from './reply'
import type { RouteInfo } from './tracing'
import type { ContentTypeParsers } from './content-type-parsers'
import type { RouteValidators, SchemaErrorFormatter, ValidatorCompiler, ValidatorFn } from '../schema/validation'
import type { ResponseSerializers, SerializerCompiler, SerializerFn } from '../schema/serialization'
import type { ChildLoggerFactory, Logger } from '../server/logger'
import type { TrustFn } from '../server/proxy'
import type { LogController } from '../server/log-controller'

/**
 * What the request path reads of the application as a whole: its logger and logging switches, the
 * proxy trust, the server-wide body limit and the 404 route of a URL. routing/dispatch.ts provides it.
 */
export interface RequestEnv {
  /** The application's logger (the root of request loggers). */
  readonly log: Logger
  /** The logger is trellis's silent one: a request logger with no level of its own is the root logger. */
  readonly silentLog: boolean
  /** The `disableRequestLogging` option as given. */
  readonly disableRequestLogging: boolean | ((request: any) => boolean)
  /** Writes the request log lines (Fastify 5's `logController`, else one built from the options). */
  readonly logController: LogController
  /** No 'incoming request' / 'request completed' lines: `disableRequestLogging`, or logging is off. */
  readonly quietRequests: boolean
  /** The key of the request id in request log lines (`requestIdLogLabel`). */
  readonly requestIdLogLabel: string
  /** The `trustProxy` option compiled; null: the socket's peer is the client. */
  readonly trustProxy: TrustFn | null
  /** The server-wide `bodyLimit` (a route's own wins). */
  readonly bodyLimit: number
  /** The Fastify line the application follows (where the request path differs between them). */
  readonly line: FastifyLine
  /** The methods routes may use, and which of them have bodies. */
  readonly methods: HttpMethods
  /** The child logger of one request (its id bound, the route's level and log serializers). */
  requestLogger: (id: string, level: string | undefined, serializers?: Record<string, (value: any) => unknown>) => Logger
  /** The 404 route that answers `url` (the deepest prefix that matches it). */
  notFoundFor: (url: string) => RouteContext
}

/**
 * Keys of the per-route caches of `request.compileValidationSchema` and
 * `reply.compileSerializationSchema` (schema object -> compiled function). Fastify 4.3 keeps them
 * on its route context under these symbols; `null` until the first compilation.
 */
export const kRouteValidateFns: unique symbol = Symbol('fastify.request.cache.validateFns')
export const kRouteSerializeFns: unique symbol = Symbol('fastify.reply.cache.serializeFns')

/** The compilers a route uses for schemas compiled at request time: the route's own, else its context's. */
export interface RouteSchemaCompilers {
  validator: () => ValidatorCompiler
  serializer: () => SerializerCompiler
}

interface RouteConfig { url?: string; method?: string | string[]; [key: string]: unknown }

export interface RouteContext {
  readonly env: RequestEnv
  /** The request-id generator of the route's context (setGenReqId, Fastify 4.29), else the server's. */
  genReqId: (req: IncomingMessage) => string
  /** setChildLoggerFactory / route `childLoggerFactory` (Fastify 4.29); null: the built-in request logger. */
  childLoggerFactory: ChildLoggerFactory | null
  /** The instance (context) the route was defined in; `this` of handlers and hooks. */
  readonly server: any
  readonly config: RouteConfig
  /** The route's own `exposeHeadRoute` / `prefixTrailingSlash` options (request.routeOptions, Fastify 4.29). */
  exposeHeadRoute?: boolean
  prefixTrailingSlash?: string
  schema: Record<string, unknown> | undefined
  handler: (this: any, request: any, reply: any) => unknown
  errorHandler: ErrorHandler
  hooks: Record<RequestHookName, AnyHook[]>
  bodyLimit: number | undefined
  /** Fastify 5: ms from the request's arrival to its answer before a 503 (0: none; routes of the Fastify 4 line and 404 routes: 0). */
  handlerTimeout: number
  attachValidation: boolean
  validators: RouteValidators
  serializers: ResponseSerializers | null
  schemaErrorFormatter: SchemaErrorFormatter
  replySerializer: ((payload: unknown, statusCode: number) => string) | null
  Request: RequestClass
  Reply: ReplyClass
  parsers: ContentTypeParsers
  logLevel: string | undefined
  /** Serializers of the request logger (register/route logSerializers), undefined when none. */
  logSerializers: Record<string, (value: any) => unknown> | undefined
  is404: boolean
  /** `{ url, method }` as the diagnostics channels give it, made at the route's first traced request (./tracing.ts routeInfo). */
  traceInfo: RouteInfo | null
  /** The 404 route to use for `reply.callNotFound()` from this route. */
  notFound: RouteContext | null
  /** Whether the route validates anything (skip the step otherwise). */
  validates: boolean
  /** Compilers for `request.compileValidationSchema` / `reply.compileSerializationSchema`; null: not available. */
  schemaCompilers: RouteSchemaCompilers | null
  [kRouteValidateFns]: WeakMap<object, ValidatorFn> | null
  [kRouteSerializeFns]: WeakMap<object, SerializerFn> | null
}
