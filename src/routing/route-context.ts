/**
 * A built route: everything the request path needs, resolved once at `ready()` so that nothing on
 * the hot path is looked up by name.
 */
import type { RootState } from '../context/root'
import type { AnyHook, RequestHookName } from '../context/hooks'
import type { ErrorHandler } from '../lifecycle/error-handling'
import type { RequestClass } from '../lifecycle/request'
import type { ReplyClass } from '../lifecycle/reply'
import type { ContentTypeParsers } from '../lifecycle/content-type-parsers'
import type { RouteValidators, SchemaErrorFormatter, ValidatorCompiler, ValidatorFn } from '../schema/validation'
import type { ResponseSerializers, SerializerCompiler, SerializerFn } from '../schema/serialization'

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

export interface RouteConfig { url?: string; method?: string | string[]; [key: string]: unknown }

export interface RouteContext {
  readonly root: RootState
  /** The request-id generator of the route's context (setGenReqId, Fastify 4.29), else the server's. */
  genReqId: (req: import('node:http').IncomingMessage) => string
  /** setChildLoggerFactory / route `childLoggerFactory` (Fastify 4.29); null: the built-in request logger. */
  childLoggerFactory: ((this: any, logger: any, bindings: Record<string, unknown>, opts: Record<string, unknown>, rawReq: import('node:http').IncomingMessage) => any) | null
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
  /** The 404 route to use for `reply.callNotFound()` from this route. */
  notFound: RouteContext | null
  /** Whether the route validates anything (skip the step otherwise). */
  validates: boolean
  /** Compilers for `request.compileValidationSchema` / `reply.compileSerializationSchema`; null: not available. */
  schemaCompilers: RouteSchemaCompilers | null
  [kRouteValidateFns]: WeakMap<object, ValidatorFn> | null
  [kRouteSerializeFns]: WeakMap<object, SerializerFn> | null
}
