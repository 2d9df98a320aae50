/**
 * The instance (a plugin context). `FastifyInstance` declares its members (with Fastify 4.3's generic
 * parameters: raw server, raw request, raw reply, logger, type provider); `TrellisInstance` extends it
 * and is the type of every instance trellis hands out: the factory's result, the instance a plugin
 * receives, `this` in hooks and handlers. So a decorator declared by module augmentation of either
 * name, `declare module 'trellis' { interface FastifyInstance { db: Db } }`, is seen on all of them.
 * (Two interfaces rather than one exported twice: TypeScript keeps only one of two augmentations
 * made through two export names of the same interface.) The value is the run-time class.
 */
import type { AddressInfo } from 'node:net'
import type * as http from 'node:http'
import type { HTTPVersion } from 'find-my-way'
import type { AnyConstraintStrategy } from './server-options'
import { TrellisInstance as InstanceClass } from '../instance/instance'
import type { RawServerBase, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, ContextConfigDefault } from './utils'
import type { LoggerInstance, ChildLoggerFactory } from './logger'
import type { TypeProvider, TypeProvider as ProviderBase, TypeProviderDefault } from './type-provider'
import type { TrellisRequest } from './request'
import type { TrellisReply } from './reply'
import type { TrellisError } from './errors'
import type { Register } from './register'
import type { DefaultRoute, RouteGenericInterface, RouteOptions, RouteShorthandMethod } from './route'
import type { TrellisSchema, SchemaCompiler, SerializerCompiler, SchemaControllerOptions, SchemaValidationError } from './schema'
import type { AddContentTypeParser, BodyParser, ConstructorAction, ProtoAction, getDefaultJsonParser } from './content-type-parser'
import type { SharedInstanceMembers } from './shared/instance-members'
import type { CallbackFunc as InjectCallback, Chain as InjectChain, InjectOptions, Response as InjectResponse } from 'light-my-request'
import type * as hooks from './hooks'

export interface PrintRoutesOptions {
  includeMeta?: boolean | Array<string | symbol>
  commonPrefix?: boolean
  includeHooks?: boolean
}

// The Fastify 5 line takes the same options (../v5/instance re-exports this declaration).
export interface ListenOptions {
  /** Default 0: a free port. */
  port?: number
  /** Default 'localhost'. */
  host?: string
  /** A socket path (ignored when `port` is given). */
  path?: string
  backlog?: number
  exclusive?: boolean
  readableAll?: boolean
  writableAll?: boolean
  ipv6Only?: boolean
  /** Fastify 4.29: aborting it closes the instance. */
  signal?: AbortSignal
  /** Fastify 4.29: the text of the "listening" log line for an address. */
  listenTextResolver?: (address: string) => string
}

type RouterVersion<RawServer extends RawServerBase> = RawServer extends http.Server ? HTTPVersion.V1 : HTTPVersion.V2
type ListenCallback = (err: Error | null, address: string) => void

/** The type of every instance trellis hands out; augment it (or FastifyInstance) to type decorators. */
export interface TrellisInstance<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> extends FastifyInstance<RawServer, RawRequest, RawReply, Logger, Provider> {}

// The members the Fastify 5 line declares alike are in ./shared/instance-members.
/**
 * The members of an instance, under Fastify 4.3's name. Its type parameters are named as Fastify's
 * (`TypeProvider`, not `Provider`): a plugin that augments it with its own list of them
 * (@fastify/websocket: `interface FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>`)
 * merges only with a declaration whose names are the same.
 */
export interface FastifyInstance<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  TypeProvider extends ProviderBase = TypeProviderDefault
> extends SharedInstanceMembers<RawServer, RawRequest, RawReply, Logger, TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>> {
  withTypeProvider<NewProvider extends ProviderBase>(): TrellisInstance<RawServer, RawRequest, RawReply, Logger, NewProvider>

  inject(opts: InjectOptions | string, cb: InjectCallback): void
  inject(opts: InjectOptions | string): Promise<InjectResponse>
  inject(): InjectChain

  /** Loads what is queued so far; resolves with the instance. */
  after(): Promise<TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>>
  after(afterListener: (err: Error) => void): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  close(): Promise<undefined>
  close(closeListener: (err: Error | null) => void): undefined

  decorate<T>(property: string | symbol,
    value: T extends (...args: any[]) => any ? (this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>, ...args: Parameters<T>) => ReturnType<T> : T,
    dependencies?: string[]): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  decorateRequest<T>(property: string | symbol,
    value: T extends (...args: any[]) => any ? (this: TrellisRequest, ...args: Parameters<T>) => ReturnType<T> : T,
    dependencies?: string[]): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  decorateReply<T>(property: string | symbol,
    value: T extends (...args: any[]) => any ? (this: TrellisReply, ...args: Parameters<T>) => ReturnType<T> : T,
    dependencies?: string[]): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addConstraintStrategy(strategy: AnyConstraintStrategy<RouterVersion<RawServer>, unknown>): void

  listen(opts: ListenOptions, callback: ListenCallback): void
  listen(opts?: ListenOptions): Promise<string>
  listen(callback: ListenCallback): void
  /** @deprecated Fastify 4's positional form; pass an options object */
  listen(port: number | string, address: string, backlog: number, callback: ListenCallback): void
  /** @deprecated Fastify 4's positional form; pass an options object */
  listen(port: number | string, address: string, callback: ListenCallback): void
  /** @deprecated Fastify 4's positional form; pass an options object */
  listen(port: number | string, callback: ListenCallback): void
  /** @deprecated Fastify 4's positional form; pass an options object */
  listen(port: number | string, address?: string, backlog?: number): Promise<string>
  addresses(): AddressInfo[]

  /** Loads the whole tree and runs onReady hooks; resolves with the instance. */
  ready(): Promise<TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>>
  /** The callback form returns nothing (as Fastify 4.3 at run time): nothing to chain. */
  ready(readyListener: (err: Error | null, instance?: TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>) => void): void

  /** Queues a plugin; awaiting the result loads what is queued so far and resolves with the instance. */
  register: Register<TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider> & PromiseLike<TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>>>

  getDefaultRoute(): DefaultRoute<RawRequest, RawReply>
  setDefaultRoute(defaultRoute: DefaultRoute<RawRequest, RawReply>): void

  route<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, const SchemaCompilerType extends TrellisSchema = TrellisSchema>(
    opts: RouteOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, TypeProvider>
  ): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  hasRoute(opts: { url: string; method: string; constraints?: Record<string, unknown> }): boolean

  get: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider>
  head: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider>
  post: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider>
  put: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider>
  delete: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider>
  options: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider>
  patch: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider>
  all: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider>

  addHook: AddHook<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  /** avvio's `onClose(fn)`: the same as `addHook('onClose', fn)`. */
  onClose(hook: hooks.onCloseHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider> | hooks.onCloseAsyncHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** Without a handler: back to the default 404 answer of this prefix. */
  setNotFoundHandler(): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  setNotFoundHandler<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, NotFoundProvider extends ProviderBase = TypeProviderDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema>(
    handler: (request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompilerType, NotFoundProvider>, reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfigDefault, SchemaCompilerType, NotFoundProvider>) => void | Promise<RouteGeneric['Reply'] | void>
  ): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  setNotFoundHandler<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig extends ContextConfigDefault = ContextConfigDefault, NotFoundProvider extends ProviderBase = TypeProviderDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema>(
    opts: {
      preValidation?: hooks.preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, NotFoundProvider> | Array<hooks.preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, NotFoundProvider>>
      preHandler?: hooks.preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, NotFoundProvider> | Array<hooks.preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, NotFoundProvider>>
      /** Fastify 4.29: the 404 route's own error handler (errors of its hooks and handler go there first). */
      errorHandler?: (error: TrellisError, request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompilerType, NotFoundProvider>, reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, NotFoundProvider>) => any
    },
    handler?: (request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompilerType, NotFoundProvider>, reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfigDefault, SchemaCompilerType, NotFoundProvider>) => void | Promise<RouteGeneric['Reply'] | void>
  ): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  errorHandler: (error: TrellisError, request: TrellisRequest, reply: TrellisReply) => void
  setErrorHandler<TError extends Error = TrellisError, RouteGeneric extends RouteGenericInterface = RouteGenericInterface, SchemaCompilerType extends TrellisSchema = TrellisSchema, HandlerProvider extends ProviderBase = TypeProviderDefault>(
    handler: (this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, HandlerProvider>, error: TError, request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompilerType, HandlerProvider>, reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfigDefault, SchemaCompilerType, HandlerProvider>) => any | Promise<any>
  ): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  validatorCompiler: SchemaCompiler<any> | undefined
  setValidatorCompiler<T = TrellisSchema>(schemaCompiler: SchemaCompiler<T>): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  getValidatorCompiler(): unknown
  serializerCompiler: SerializerCompiler<any> | undefined
  setSerializerCompiler<T = TrellisSchema>(schemaCompiler: SerializerCompiler<T>): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  getSerializerCompiler(): unknown
  setSchemaController(schemaControllerOpts: SchemaControllerOptions): TrellisInstance<RawServer, RawRequest, RawReply, Logger>
  setSchemaErrorFormatter(errorFormatter: (errors: SchemaValidationError[], dataVar: string) => Error): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addContentTypeParser: AddContentTypeParser<RawServer, RawRequest, RouteGenericInterface, TrellisSchema, TypeProvider>
  getDefaultJsonParser: getDefaultJsonParser
  defaultTextParser: BodyParser<string>

  printRoutes(opts?: PrintRoutesOptions): string

  // Fastify 4.29 (run time: src/instance/instance.ts)
  /** This context's request-id generator (inherited by its children and routes). */
  setGenReqId(fn: (req: RawRequest) => string): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  readonly genReqId: (req: RawRequest) => string
  /** `(logger, bindings, opts, rawReq) => childLogger` for this context's requests. */
  setChildLoggerFactory(factory: ChildLoggerFactory<RawServer, RawRequest, RawReply, Logger, TypeProvider>): TrellisInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  readonly childLoggerFactory: ChildLoggerFactory<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  /** The route a method and URL pattern lead to, or null. */
  findRoute(opts: { method: string; url: string; constraints?: Record<string, unknown> }): { handler: unknown; params: Record<string, string | undefined>; searchParams: Record<string, string> } | null

  /** The options the instance was created with (as Fastify 4.29 types them, plus trellis's own limits). */
  initialConfig: Readonly<{
    connectionTimeout?: number
    keepAliveTimeout?: number
    maxRequestsPerSocket?: number
    requestTimeout?: number
    /** trellis: node's headersTimeout (docs/security.md). */
    headersTimeout?: number
    /** trellis: the JSON nesting limit of the default parser. */
    jsonDepthLimit?: number
    forceCloseConnections?: boolean | 'idle'
    bodyLimit?: number
    caseSensitive?: boolean
    allowUnsafeRegex?: boolean
    http2?: boolean
    https?: boolean | Readonly<{ allowHTTP1: boolean }>
    ignoreTrailingSlash?: boolean
    ignoreDuplicateSlashes?: boolean
    disableRequestLogging?: boolean
    maxParamLength?: number
    onProtoPoisoning?: ProtoAction
    onConstructorPoisoning?: ConstructorAction
    pluginTimeout?: number
    requestIdHeader?: string | false
    requestIdLogLabel?: string
    http2SessionTimeout?: number
    exposeHeadRoutes?: boolean
    jsonShorthand?: boolean
    useSemicolonDelimiter?: boolean
  }>
}

/** `addHook`: one callback and one async signature per hook name; parameters typed from the name. */
export interface AddHook<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault,
  Result = TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>
> {
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onRequest', hook: hooks.onRequestHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onRequest', hook: hooks.onRequestAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'preParsing', hook: hooks.preParsingHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'preParsing', hook: hooks.preParsingAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'preValidation', hook: hooks.preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'preValidation', hook: hooks.preValidationAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'preHandler', hook: hooks.preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'preHandler', hook: hooks.preHandlerAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <Payload = unknown, RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'preSerialization', hook: hooks.preSerializationHookHandler<Payload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <Payload = unknown, RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'preSerialization', hook: hooks.preSerializationAsyncHookHandler<Payload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <Payload = unknown, RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onSend', hook: hooks.onSendHookHandler<Payload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <Payload = unknown, RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onSend', hook: hooks.onSendAsyncHookHandler<Payload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onResponse', hook: hooks.onResponseHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onResponse', hook: hooks.onResponseAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onTimeout', hook: hooks.onTimeoutHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onTimeout', hook: hooks.onTimeoutAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onError', hook: hooks.onErrorHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, TrellisError, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onError', hook: hooks.onErrorAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, TrellisError, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onRoute', hook: hooks.onRouteHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onRequestAbort', hook: hooks.onRequestAbortHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  <RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompilerType extends TrellisSchema = TrellisSchema, HookLogger extends LoggerInstance = LoggerInstance>(name: 'onRequestAbort', hook: hooks.onRequestAbortAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompilerType, Provider, HookLogger>): Result
  (name: 'onRegister', hook: hooks.onRegisterHookHandler<RawServer, RawRequest, RawReply, Logger, Provider>): Result
  (name: 'onReady', hook: hooks.onReadyHookHandler): Result
  (name: 'onReady', hook: hooks.onReadyAsyncHookHandler): Result
  (name: 'onListen', hook: hooks.onListenHookHandler<RawServer, RawRequest, RawReply, Logger, Provider>): Result
  (name: 'onListen', hook: hooks.onListenAsyncHookHandler<RawServer, RawRequest, RawReply, Logger, Provider>): Result
  (name: 'preClose', hook: hooks.preCloseHookHandler<RawServer, RawRequest, RawReply, Logger, Provider>): Result
  (name: 'preClose', hook: hooks.preCloseAsyncHookHandler<RawServer, RawRequest, RawReply, Logger, Provider>): Result
  (name: 'onClose', hook: hooks.onCloseHookHandler<RawServer, RawRequest, RawReply, Logger, Provider>): Result
  (name: 'onClose', hook: hooks.onCloseAsyncHookHandler<RawServer, RawRequest, RawReply, Logger>): TrellisInstance<RawServer, RawRequest, RawReply, Logger>
}

/** The run-time class (the root is `new TrellisInstance()`, plugin contexts inherit from it). */
export const TrellisInstance = InstanceClass as unknown as {
  new (): TrellisInstance
  readonly prototype: TrellisInstance
}

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { ListenOptions as FastifyListenOptions }
