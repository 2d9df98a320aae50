/**
 * Hook handler types, one callback form (with `done`) and one async form per hook, as Fastify 4.3
 * names them (`onRequestHookHandler`, `onRequestAsyncHookHandler`, …). `this` is the instance.
 *
 * (Written out per hook because TypeScript cannot share a type-parameter list between interfaces.)
 */
import type { Readable } from 'node:stream'
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

/** `done` of callback hooks: call it with nothing, or with an error to fail the request. */
export type HookHandlerDoneFunction = <TError extends Error = TrellisError>(err?: TError) => void

/** The request body stream preParsing hooks receive and may replace. */
export interface RequestPayload extends Readable {
  receivedEncodedLength?: number
}

/** `done` of preSerialization/onSend: nothing, an error, or (null, new payload). */
export interface DoneFuncWithErrOrRes {
  (): void
  <TError extends Error = TrellisError>(err: TError): void
  (err: null, res: unknown): void
}

export interface onRequestHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    done: HookHandlerDoneFunction
  ): void
}

export interface onRequestAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  ): Promise<unknown>
}

export interface preParsingHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    payload: RequestPayload,
    done: <TError extends Error = TrellisError>(err?: TError | null, res?: RequestPayload) => void
  ): void
}

export interface preParsingAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    payload: RequestPayload
  ): Promise<RequestPayload | unknown>
}

export interface preValidationHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    done: HookHandlerDoneFunction
  ): void
}

export interface preValidationAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  ): Promise<unknown>
}

export interface preHandlerHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    done: HookHandlerDoneFunction
  ): void
}

export interface preHandlerAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  ): Promise<unknown>
}

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
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    payload: PreSerializationPayload,
    done: DoneFuncWithErrOrRes
  ): void
}

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
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    payload: PreSerializationPayload
  ): Promise<unknown>
}

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
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    payload: OnSendPayload,
    done: DoneFuncWithErrOrRes
  ): void
}

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
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    payload: OnSendPayload
  ): Promise<unknown>
}

export interface onResponseHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    done: HookHandlerDoneFunction
  ): void
}

export interface onResponseAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  ): Promise<unknown>
}

export interface onTimeoutHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    done: HookHandlerDoneFunction
  ): void
}

export interface onTimeoutAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>
  ): Promise<unknown>
}

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
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    error: TError,
    done: () => void
  ): void
}

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
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>,
    reply: TrellisReply<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider>,
    error: TError
  ): Promise<unknown>
}

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
> {
  (
    this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>,
    opts: RouteOptions<RawServer, RawRequest, RawReply, RouteGeneric, ContextConfig, SchemaCompiler, Provider> & { routePath: string; path: string; prefix: string }
  ): Promise<unknown> | void
}

/** Called when a plugin gets its own (encapsulated) context. */
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
> {
  (this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, done: HookHandlerDoneFunction): void
}

export interface onReadyAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> {
  (this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>): Promise<unknown>
}

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
> {
  (this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>, done: HookHandlerDoneFunction): void
}

export interface onRequestAbortAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  ContextConfig = ContextConfigDefault,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> {
  (this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, request: TrellisRequest<RouteGeneric, RawServer, RawRequest, SchemaCompiler, Provider, ContextConfig, Logger>): Promise<unknown>
}

/** Fastify 4.29: after listen() has bound the server (errors are logged, never thrown). */
export interface onListenHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> {
  (this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, done: HookHandlerDoneFunction): void
}

export interface onListenAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> {
  (this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>): Promise<unknown>
}

/** Fastify 4.29: at close(), before the server stops accepting connections. */
export interface preCloseHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> {
  (this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, done: HookHandlerDoneFunction): void
}

export interface preCloseAsyncHookHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> {
  (this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>): Promise<unknown>
}
