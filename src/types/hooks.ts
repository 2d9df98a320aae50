/**
 * Hook handler types, one callback form (with `done`) and one async form per hook, as Fastify 4.3
 * names them (`onRequestHookHandler`, `onRequestAsyncHookHandler`, …). `this` is the instance.
 *
 * The call signatures are shared with the Fastify 5 line (./shared/hook-signatures); each interface here
 * gives them this line's instance, request and reply. (The generic parameters are written out per
 * hook because TypeScript cannot share a type-parameter list between interfaces.)
 */
import type { TrellisInstance } from './instance'
import type { RouteOptions, RouteGenericInterface } from './route'
import type { RawServerBase, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, ContextConfigDefault } from './utils'
import type { TrellisRequest } from './request'
import type { TrellisReply } from './reply'
import type { TrellisError } from './errors'
import type { LoggerInstance } from './logger'
import type { TypeProvider, TypeProviderDefault } from './type-provider'
import type { RegisterOptions } from './register'
import type { TrellisSchema } from './schema'
import type { PluginOptions } from './plugin'
import type { AbortAsyncHookSignature, AbortHookSignature, ApplicationAsyncHookSignature, ApplicationHookSignature, DoneWithPayload, ErrorAsyncHookSignature, ErrorHookSignature, PayloadAsyncHookSignature, PayloadHookSignature, PreParsingAsyncHookSignature, PreParsingHookSignature, RequestAsyncHookSignature, RequestHookSignature, RouteHookSignature } from './shared/hook-signatures'

export type { RequestPayload } from './shared/hook-signatures'

/** `done` of callback hooks: call it with nothing, or with an error to fail the request. */
export type HookHandlerDoneFunction = <TError extends Error = TrellisError>(err?: TError) => void

/** `done` of preSerialization/onSend: nothing, an error, or (null, new payload). */
export interface DoneFuncWithErrOrRes extends DoneWithPayload<TrellisError> {}

export interface onRequestHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends RequestHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, HookHandlerDoneFunction> {}

export interface onRequestAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends RequestAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>> {}

export interface preParsingHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends PreParsingHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, TrellisError> {}

export interface preParsingAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends PreParsingAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>> {}

export interface preValidationHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends RequestHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, HookHandlerDoneFunction> {}

export interface preValidationAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends RequestAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>> {}

export interface preHandlerHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends RequestHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, HookHandlerDoneFunction> {}

export interface preHandlerAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends RequestAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>> {}

export interface preSerializationHookHandler<
  PreSerializationPayload,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends PayloadHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, PreSerializationPayload, DoneFuncWithErrOrRes> {}

export interface preSerializationAsyncHookHandler<
  PreSerializationPayload,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends PayloadAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, PreSerializationPayload> {}

export interface onSendHookHandler<
  OnSendPayload,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends PayloadHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, OnSendPayload, DoneFuncWithErrOrRes> {}

export interface onSendAsyncHookHandler<
  OnSendPayload,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends PayloadAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, OnSendPayload> {}

export interface onResponseHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends RequestHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, HookHandlerDoneFunction> {}

export interface onResponseAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends RequestAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>> {}

export interface onTimeoutHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends RequestHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, HookHandlerDoneFunction> {}

export interface onTimeoutAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends RequestAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>> {}

export interface onErrorHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  TError extends Error = TrellisError,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends ErrorHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, TError> {}

export interface onErrorAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  TError extends Error = TrellisError,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends ErrorAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>, TError> {}

/** Called for each route as it is added (also to routes of child contexts). */
export interface onRouteHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends RouteHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, RouteOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>> {}

/** Called when a plugin gets its own (encapsulated) context. Per line: Fastify 5's has `this` and no `done`. */
export interface onRegisterHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault,
  Options extends PluginOptions = PluginOptions
> {
  (
    instance: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    opts: RegisterOptions & Options,
    done: HookHandlerDoneFunction
  ): Promise<unknown> | void
}

export interface onReadyHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> extends ApplicationHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, HookHandlerDoneFunction> {}

export interface onReadyAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> extends ApplicationAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>> {}

/** Per line: the instance is an argument here, Fastify 5 also binds it to `this`. */
export interface onCloseHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> {
  (instance: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, done: HookHandlerDoneFunction): void
}

export interface onCloseAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> {
  (instance: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>): Promise<unknown>
}

/** Fastify 4.29: the client closed the connection before the response was complete (nothing can be sent). */
export interface onRequestAbortHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends AbortHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, HookHandlerDoneFunction> {}

export interface onRequestAbortAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> extends AbortAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>> {}

/** Fastify 4.29: after listen() has bound the server (errors are logged, never thrown). */
export interface onListenHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> extends ApplicationHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, HookHandlerDoneFunction> {}

export interface onListenAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> extends ApplicationAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>> {}

/** Fastify 4.29: at close(), before the server stops accepting connections. */
export interface preCloseHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> extends ApplicationHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, HookHandlerDoneFunction> {}

export interface preCloseAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> extends ApplicationAsyncHookSignature<TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>> {}
