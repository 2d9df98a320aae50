/**
 * Route types: generics, options, handlers and the shorthand methods (`get`, `post`, …).
 * Parameters and their order follow Fastify 4.3's so typed Fastify code compiles unchanged.
 */
import type { TrellisInstance } from './instance'
import type { RequestGenericInterface, TrellisRequest } from './request'
import type { ReplyGenericInterface, TrellisReply } from './reply'
import type { TrellisSchema, SchemaCompiler as ValidatorCompilerFn, SerializerCompiler, SchemaValidationError } from './schema'
import type { HTTPMethods, RawServerBase, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, ContextConfigDefault } from './utils'
import type { onRequestHookHandler, preParsingHookHandler, preValidationHookHandler, preHandlerHookHandler, preSerializationHookHandler, onSendHookHandler, onResponseHookHandler, onTimeoutHookHandler, onErrorHookHandler, onRequestAbortHookHandler, onRequestAbortAsyncHookHandler } from './hooks'
import type { TrellisError } from './errors'
import type { RouteContextInfo } from './context'
import type { TypeProvider, TypeProvider as ProviderBase, TypeProviderDefault, ResolveReplyReturnType } from './type-provider'
import type { BaseLogger, LoggerInstance, LogLevel, ChildLoggerFactory } from './logger'

/** Body, Querystring, Params, Headers and Reply of a route. */
export interface RouteGenericInterface extends RequestGenericInterface, ReplyGenericInterface {}

type OneOrMany<T> = T | T[]

export interface RouteShorthandOptions<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  schema?: SchemaCompiler
  attachValidation?: boolean
  exposeHeadRoute?: boolean
  validatorCompiler?: ValidatorCompilerFn<SchemaCompiler>
  serializerCompiler?: SerializerCompiler<SchemaCompiler>
  bodyLimit?: number
  logLevel?: LogLevel
  /** Serializers of the route's logger (as `register`'s `logSerializers`). */
  logSerializers?: Record<string, (value: any) => string>
  /** Fastify 4.29: `(logger, bindings, opts, rawReq) => childLogger` for this route's requests. */
  childLoggerFactory?: ChildLoggerFactory<RawServer, RawRequest, RawReply, Logger, Provider>
  config?: RouteContextInfo<ContextConfig>['config']
  version?: string
  constraints?: { [name: string]: any }
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both'
  errorHandler?: (this: TrellisInstance, error: TrellisError, request: TrellisRequest, reply: TrellisReply) => void
  schemaErrorFormatter?: (errors: SchemaValidationError[], dataVar: string) => Error
  onRequest?: OneOrMany<onRequestHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, Provider, Logger>>
  preParsing?: OneOrMany<preParsingHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, Provider, Logger>>
  preValidation?: OneOrMany<preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, Provider, Logger>>
  preHandler?: OneOrMany<preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, Provider, Logger>>
  preSerialization?: OneOrMany<preSerializationHookHandler<unknown, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, Provider, Logger>>
  onSend?: OneOrMany<onSendHookHandler<unknown, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, Provider, Logger>>
  onResponse?: OneOrMany<onResponseHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, Provider, Logger>>
  onTimeout?: OneOrMany<onTimeoutHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, Provider, Logger>>
  onError?: OneOrMany<onErrorHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, TrellisError, SchemaCompiler & TrellisSchema, Provider, Logger>>
  /** Fastify 4.29: the client closed the connection before the response was complete. */
  onRequestAbort?: OneOrMany<onRequestAbortHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, Provider, Logger> | onRequestAbortAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, Provider, Logger>>
}

/** A route handler: `this` is the instance; returns the reply payload (or a promise of it) or nothing. */
export type RouteHandlerMethod<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> = (
  this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
  request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
  reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
) => ResolveReplyReturnType<Provider, SchemaCompiler, RouteGeneric>

export interface RouteShorthandOptionsWithHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider, Logger> {
  handler: RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, Provider, Logger>
}

/**
 * What a bare handler is not: an options object with a schema and a handler. Given
 * `(path, { schema, handler })` whose handler does not fit the schema, TypeScript reports the
 * overload closest to fitting; with these two members the `(path, handler)` overload fails twice
 * (at `schema` and `handler`), so the error is the options overload's alone, at the `handler`
 * property, instead of "No overload matches this call" at the call.
 */
interface NotRouteOptions { schema?: never; handler?: never }

/**
 * `get`, `post`, …: (path, handler), (path, options, handler) or (path, options with handler).
 * This interface and RouteOptions below name and bound their type parameters as Fastify 4.29 does
 * (`TypeProvider`, a `Logger` bounded by `FastifyBaseLogger`, RouteOptions' `SchemaCompiler` bounded by
 * `FastifySchema`): @fastify/websocket augments both with
 * Fastify's list, and TypeScript merges only declarations whose lists are the same.
 */
export interface RouteShorthandMethod<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  TypeProvider extends ProviderBase = TypeProviderDefault,
  // Fastify 4.29's fifth parameter, for augmentations to merge; each call infers its own logger type
  // (the parameter of the same name below)
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  Logger extends BaseLogger = BaseLogger
> {
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, const SchemaCompiler extends TrellisSchema = TrellisSchema, Logger extends LoggerInstance = LoggerInstance>(
    path: string,
    opts: RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>,
    handler: RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, TypeProvider, Logger>
  ): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, const SchemaCompiler extends TrellisSchema = TrellisSchema, Logger extends LoggerInstance = LoggerInstance>(
    path: string,
    handler: RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, TypeProvider, Logger> & NotRouteOptions
  ): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, const SchemaCompiler extends TrellisSchema = TrellisSchema, Logger extends LoggerInstance = LoggerInstance>(
    path: string,
    opts: RouteShorthandOptionsWithHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  ): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
}

/** The options of `route()`. */
export interface RouteOptions<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  TypeProvider extends ProviderBase = TypeProviderDefault,
  Logger extends BaseLogger = BaseLogger
> extends RouteShorthandOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> {
  method: HTTPMethods | HTTPMethods[]
  url: string
  handler: RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler & TrellisSchema, TypeProvider, Logger>
}

/** A handler typed by the route generics first (Fastify's `RouteHandler`). */
export type RouteHandler<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> = (
  this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
  request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
  reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
) => RouteGeneric['Reply'] | void | Promise<RouteGeneric['Reply'] | void>

/** The (req, res) function `getDefaultRoute()` returns and `setDefaultRoute()` takes. */
export type DefaultRoute<Request, Reply> = (req: Request, res: Reply) => void

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { RouteOptions as RouteOptionsInput }
