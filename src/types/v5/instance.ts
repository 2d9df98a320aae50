/**
 * The instance of the Fastify 5 line: one interface, `FastifyInstance` (augment it to type
 * decorators). Differences from the v4 line: `listen` takes an options object only, `ready()` /
 * `after()` / `register()` return the instance and a promise-like, the WebDAV/QUERY shorthands,
 * `addHttpMethod` / `supportedMethods`, `getDecorator`, getter/setter decorators, typed `findRoute`,
 * `routerOptions` in `initialConfig`.
 */
import type { AddressInfo } from 'node:net'
import type * as http from 'node:http'
import type { ConstraintStrategy, FindResult, HTTPVersion } from 'find-my-way'
import type { FastifyListenOptions } from '../instance'
import type { FastifyError } from './errors'
import type { AddContentTypeParser, ConstructorAction, FastifyBodyParser, getDefaultJsonParser, ProtoAction } from './content-type-parser'
import type * as hooks from './hooks'
import type { FastifyBaseLogger, FastifyChildLoggerFactory } from './logger'
import type { FastifyRegister } from './register'
import type { FastifyReply } from './reply'
import type { FastifyRequest } from './request'
import type { RouteGenericInterface, RouteHandlerMethod, RouteOptions, RouteShorthandMethod } from './route'
import type { FastifySchema, FastifySchemaCompiler, FastifySchemaControllerOptions, FastifySerializerCompiler, SchemaErrorFormatter } from './schema'
import type { FastifyRouterOptions } from './server-options'
import type { FastifyTypeProvider, FastifyTypeProviderDefault, SafePromiseLike } from './type-provider'
import type { SharedInstanceMembers } from '../shared/instance-members'
import type { CallbackFunc as InjectCallback, Chain as InjectChain, InjectOptions, Response as InjectResponse } from 'light-my-request-6'
import type { ContextConfigDefault, HTTPMethods, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './utils'

export interface PrintRoutesOptions {
  method?: HTTPMethods
  includeMeta?: boolean | Array<string | symbol>
  commonPrefix?: boolean
  includeHooks?: boolean
}

export type { FastifyListenOptions } from '../instance'

type AsyncFunction = (...args: any) => Promise<any>
export type FindMyWayVersion<RawServer extends RawServerBase> = RawServer extends http.Server ? HTTPVersion.V1 : HTTPVersion.V2
export type FindMyWayFindResult<RawServer extends RawServerBase> = FindResult<FindMyWayVersion<RawServer>>

/** A decorator's value, or a getter (with an optional setter). */
type GetterSetter<This, T> = T | { getter: (this: This) => T, setter?: (this: This, value: T) => void }

/** `decorate`, `decorateRequest`, `decorateReply`: a declared decorator's value is checked against its declaration. */
interface DecorationMethod<This, Return = This> {
  <T extends (P extends keyof This ? This[P] : unknown), P extends string | symbol = string | symbol>(
    property: P,
    value: GetterSetter<This, T extends (...args: any[]) => any ? (this: This, ...args: Parameters<T>) => ReturnType<T> : T>,
    dependencies?: string[]
  ): Return
  (property: string | symbol): Return
  (property: string | symbol, value: null | undefined, dependencies: string[]): Return
}

type RouteLookup<RawServer extends RawServerBase, RawRequest extends RawRequestDefaultExpression<RawServer>, RawReply extends RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface, ContextConfig, SchemaCompiler extends FastifySchema, TypeProvider extends FastifyTypeProvider> =
  Pick<RouteOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>, 'url' | 'constraints'> & { method: HTTPMethods }

type NotFoundHook<Kind extends 'preValidation' | 'preHandler', RawServer extends RawServerBase, RawRequest extends RawRequestDefaultExpression<RawServer>, RawReply extends RawReplyDefaultExpression<RawServer>, RouteGeneric extends RouteGenericInterface, ContextConfig, SchemaCompiler extends FastifySchema, TypeProvider extends FastifyTypeProvider> =
  Kind extends 'preValidation'
    ? hooks.preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider> | hooks.preValidationAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>
      | Array<hooks.preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>> | Array<hooks.preValidationAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>>
    : hooks.preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider> | hooks.preHandlerAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>
      | Array<hooks.preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>> | Array<hooks.preHandlerAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>>

// The members the Fastify 4 line declares alike are in ../shared/instance-members.
export interface FastifyInstance<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> extends SharedInstanceMembers<RawServer, RawRequest, RawReply, Logger, FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>> {
  addresses(): Array<AddressInfo | string>
  withTypeProvider<Provider extends FastifyTypeProvider>(): FastifyInstance<RawServer, RawRequest, RawReply, Logger, Provider>

  inject(opts: InjectOptions | string, cb: InjectCallback): void
  inject(opts: InjectOptions | string): Promise<InjectResponse>
  inject(): InjectChain

  /** Loads what is queued so far. */
  after(): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider> & SafePromiseLike<undefined>
  after(afterListener: (err: Error | null) => void): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  close(): Promise<undefined>
  close(closeListener: () => void): undefined

  decorate: DecorationMethod<FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>>
  decorateRequest: DecorationMethod<FastifyRequest, FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>>
  decorateReply: DecorationMethod<FastifyReply, FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>>
  /** An instance decorator's value (FST_ERR_DEC_UNDECLARED when there is none of that name). */
  getDecorator<T>(name: string | symbol): T

  addConstraintStrategy(strategy: ConstraintStrategy<FindMyWayVersion<RawServer>, unknown>): void

  listen(opts: FastifyListenOptions, callback: (err: Error | null, address: string) => void): void
  listen(opts?: FastifyListenOptions): Promise<string>
  listen(callback: (err: Error | null, address: string) => void): void

  /** Loads the whole tree and runs the onReady hooks. */
  ready(): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider> & SafePromiseLike<undefined>
  ready(readyListener: (err: Error | null) => void | Promise<void>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  register: FastifyRegister<FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider> & SafePromiseLike<undefined>>

  route<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, const SchemaCompiler extends FastifySchema = FastifySchema>(
    opts: RouteOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  delete: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  get: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  head: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  patch: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  post: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  put: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  options: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  propfind: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  proppatch: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  mkcalendar: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  mkcol: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  copy: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  move: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  lock: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  unlock: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  trace: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  report: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  search: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  query: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>
  all: RouteShorthandMethod<RawServer, RawRequest, RawReply, TypeProvider, Logger>

  hasRoute<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema>(
    opts: RouteLookup<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>
  ): boolean
  /** The route a method and URL pattern lead to (handler, params, searchParams), or null. */
  findRoute<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema>(
    opts: RouteLookup<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>
  ): Omit<FindMyWayFindResult<RawServer>, 'store'>

  // One overload per hook, generics in Fastify's order (`addHook<Payload>('onSend', …)`): not one overload generic over the name.
  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    Fn extends hooks.onRequestHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> | hooks.onRequestAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> = hooks.onRequestHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  >(
    name: 'onRequest',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.onRequestAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : hooks.onRequestHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    Fn extends hooks.preParsingHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> | hooks.preParsingAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> = hooks.preParsingHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  >(
    name: 'preParsing',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.preParsingAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : hooks.preParsingHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    Fn extends hooks.preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> | hooks.preValidationAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> = hooks.preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  >(
    name: 'preValidation',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.preValidationAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : hooks.preValidationHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    Fn extends hooks.preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> | hooks.preHandlerAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> = hooks.preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  >(
    name: 'preHandler',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.preHandlerAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : hooks.preHandlerHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addHook<
    PreSerializationPayload = unknown,
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    Fn extends hooks.preSerializationHookHandler<PreSerializationPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> | hooks.preSerializationAsyncHookHandler<PreSerializationPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> = hooks.preSerializationHookHandler<PreSerializationPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  >(
    name: 'preSerialization',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.preSerializationAsyncHookHandler<PreSerializationPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : hooks.preSerializationHookHandler<PreSerializationPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addHook<
    OnSendPayload = unknown,
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    Fn extends hooks.onSendHookHandler<OnSendPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> | hooks.onSendAsyncHookHandler<OnSendPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> = hooks.onSendHookHandler<OnSendPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  >(
    name: 'onSend',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.onSendAsyncHookHandler<OnSendPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : hooks.onSendHookHandler<OnSendPayload, RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    Fn extends hooks.onResponseHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> | hooks.onResponseAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> = hooks.onResponseHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  >(
    name: 'onResponse',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.onResponseAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : hooks.onResponseHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    Fn extends hooks.onTimeoutHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> | hooks.onTimeoutAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> = hooks.onTimeoutHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  >(
    name: 'onTimeout',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.onTimeoutAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : hooks.onTimeoutHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    Fn extends hooks.onRequestAbortHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> | hooks.onRequestAbortAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> = hooks.onRequestAbortHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  >(
    name: 'onRequestAbort',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.onRequestAbortAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : hooks.onRequestAbortHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger> : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addHook<
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
    Fn extends hooks.onErrorHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, FastifyError, SchemaCompiler, TypeProvider, Logger> | hooks.onErrorAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, FastifyError, SchemaCompiler, TypeProvider, Logger> = hooks.onErrorHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, FastifyError, SchemaCompiler, TypeProvider, Logger>
  >(
    name: 'onError',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.onErrorAsyncHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, FastifyError, SchemaCompiler, TypeProvider, Logger> : hooks.onErrorHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, FastifyError, SchemaCompiler, TypeProvider, Logger> : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addHook<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig = ContextConfigDefault, SchemaCompiler extends FastifySchema = FastifySchema, Logger extends FastifyBaseLogger = FastifyBaseLogger>(
    name: 'onRoute',
    hook: hooks.onRouteHookHandler<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  addHook(name: 'onRegister', hook: hooks.onRegisterHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  addHook<Fn extends hooks.onReadyHookHandler | hooks.onReadyAsyncHookHandler = hooks.onReadyHookHandler>(
    name: 'onReady',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.onReadyAsyncHookHandler : hooks.onReadyHookHandler : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  addHook<Fn extends hooks.onListenHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider> | hooks.onListenAsyncHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider> = hooks.onListenHookHandler<RawServer, RawRequest, RawReply, Logger, TypeProvider>>(
    name: 'onListen',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.onListenAsyncHookHandler : hooks.onListenHookHandler : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  /** An object with `Symbol.asyncDispose` or `Symbol.dispose` is disposed of on close. */
  addHook(name: 'onClose', hook: AsyncDisposable | Disposable): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  addHook<Fn extends hooks.onCloseHookHandler | hooks.onCloseAsyncHookHandler = hooks.onCloseHookHandler>(
    name: 'onClose',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.onCloseAsyncHookHandler : hooks.onCloseHookHandler : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  addHook<Fn extends hooks.preCloseHookHandler | hooks.preCloseAsyncHookHandler = hooks.preCloseHookHandler>(
    name: 'preClose',
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.preCloseAsyncHookHandler : hooks.preCloseHookHandler : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  addHook<K extends hooks.ApplicationHook | hooks.LifecycleHook, Fn extends (...args: any) => Promise<any> | any>(
    name: K,
    hook: Fn extends unknown ? Fn extends AsyncFunction ? hooks.HookAsyncLookup<K> : hooks.HookLookup<K> : Fn
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  setNotFoundHandler<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig extends ContextConfigDefault = ContextConfigDefault, TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, SchemaCompiler extends FastifySchema = FastifySchema>(
    handler: RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  setNotFoundHandler<RouteGeneric extends RouteGenericInterface = RouteGenericInterface, ContextConfig extends ContextConfigDefault = ContextConfigDefault, TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, SchemaCompiler extends FastifySchema = FastifySchema>(
    opts: {
      preValidation?: NotFoundHook<'preValidation', RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>
      preHandler?: NotFoundHook<'preHandler', RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider>
    },
    handler: RouteHandlerMethod<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, TypeProvider, Logger>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  /** The default error handler (what a custom one may delegate to). */
  errorHandler: <TError = unknown>(error: TError, request: FastifyRequest, reply: FastifyReply) => void
  setErrorHandler<TError = unknown, RouteGeneric extends RouteGenericInterface = RouteGenericInterface, SchemaCompiler extends FastifySchema = FastifySchema, TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault>(
    handler: (
      this: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>,
      error: TError,
      request: FastifyRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, TypeProvider>,
      reply: FastifyReply<RouteGeneric, RawServer, RawRequest, RawReply, ContextConfigDefault, SchemaCompiler, TypeProvider>
    ) => any | Promise<any>
  ): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  setGenReqId(fn: (req: RawRequestDefaultExpression<RawServer>) => string): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  childLoggerFactory: FastifyChildLoggerFactory<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  /** `(logger, bindings, opts, rawReq) => childLogger` for this context's requests. */
  setChildLoggerFactory(factory: FastifyChildLoggerFactory<RawServer, RawRequest, RawReply, Logger, TypeProvider>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  validatorCompiler: FastifySchemaCompiler<any> | undefined
  setValidatorCompiler<T = FastifySchema>(schemaCompiler: FastifySchemaCompiler<T>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  serializerCompiler: FastifySerializerCompiler<any> | undefined
  setSerializerCompiler<T = FastifySchema>(schemaCompiler: FastifySerializerCompiler<T>): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  setSchemaController(schemaControllerOpts: FastifySchemaControllerOptions): FastifyInstance<RawServer, RawRequest, RawReply, Logger>
  setSchemaErrorFormatter(errorFormatter: SchemaErrorFormatter): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>

  addContentTypeParser: AddContentTypeParser<RawServer, RawRequest, RouteGenericInterface, FastifySchema, TypeProvider>
  /** The HTTP methods routes may use (the standard ones, then those added with `addHttpMethod`). */
  supportedMethods: string[]
  /** Adds a method (`hasBody`: its requests have a body to parse). */
  addHttpMethod(method: string, methodOptions?: { hasBody?: boolean, overrideExisting?: boolean }): FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>
  getDefaultJsonParser: getDefaultJsonParser
  defaultTextParser: FastifyBodyParser<string>

  printRoutes(opts?: PrintRoutesOptions): string

  /** The options the instance was created with (frozen). */
  initialConfig: Readonly<{
    connectionTimeout?: number
    keepAliveTimeout?: number
    forceCloseConnections?: boolean
    bodyLimit?: number
    caseSensitive?: boolean
    allowUnsafeRegex?: boolean
    http2?: boolean
    https?: boolean | Readonly<{ allowHTTP1: boolean }>
    ignoreTrailingSlash?: boolean
    ignoreDuplicateSlashes?: boolean
    disableRequestLogging?: boolean | ((req: FastifyRequest) => boolean)
    maxParamLength?: number
    onProtoPoisoning?: ProtoAction
    onConstructorPoisoning?: ConstructorAction
    pluginTimeout?: number
    requestIdHeader?: string | false
    requestIdLogLabel?: string
    http2SessionTimeout?: number
    useSemicolonDelimiter?: boolean
    routerOptions?: FastifyRouterOptions<RawServer>
  }>
}
