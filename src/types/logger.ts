/**
 * Logger types. trellis logs with pino (or the logger instance given in the options), so the
 * instance's `log` is typed as a pino logger, as in Fastify 4.3.
 */
import type pino from 'pino'
import type { RawServerBase, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, ContextConfigDefault } from './utils'
import type { TrellisRequest } from './request'
import type { TrellisReply } from './reply'
import type { RouteGenericInterface } from './route'
import type { TrellisSchema } from './schema'
import type { TypeProvider, TypeProviderDefault } from './type-provider'
import type { TrellisError } from './errors'
import type { TrellisInstance } from './instance'

export type LogFn = pino.LogFn
export type LogLevel = pino.Level
export type Bindings = pino.Bindings
export type ChildLoggerOptions = pino.ChildLoggerOptions
export type PinoLoggerOptions = pino.LoggerOptions

/** The logger type of `instance.log`, `request.log` and `reply.log` (a pino logger). */
export type LoggerInstance = pino.Logger
/** What a custom logger must provide: a pino-compatible logger whose `child` returns one again. */
export type BaseLogger = pino.Logger & { child(bindings: Bindings, options?: ChildLoggerOptions): BaseLogger }

export interface LoggerStreamDestination { write(msg: string): void }

/** The `logger` factory option (besides `true` and a logger instance). */
export interface LoggerOptions<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends TrellisRequest<RouteGenericInterface, RawServer, RawRequestDefaultExpression<RawServer>, TrellisSchema, TypeProvider> = TrellisRequest<RouteGenericInterface, RawServer, RawRequestDefaultExpression<RawServer>, TrellisSchema, TypeProviderDefault>,
  RawReply extends TrellisReply<RawServer, RawRequestDefaultExpression<RawServer>, RawReplyDefaultExpression<RawServer>, RouteGenericInterface, ContextConfigDefault, TrellisSchema, TypeProvider> = TrellisReply<RawServer, RawRequestDefaultExpression<RawServer>, RawReplyDefaultExpression<RawServer>, RouteGenericInterface, ContextConfigDefault, TrellisSchema, TypeProviderDefault>
> {
  serializers?: {
    req?: (req: RawRequest) => { method?: string; url?: string; version?: string; hostname?: string; remoteAddress?: string; remotePort?: number; [key: string]: unknown }
    err?: (err: TrellisError) => { type: string; message: string; stack: string; [key: string]: unknown }
    res?: (res: RawReply) => { statusCode: string | number; [key: string]: unknown }
  }
  level?: string
  file?: string
  genReqId?: (req: RawRequest) => string
  stream?: LoggerStreamDestination
}

/** Fastify 4.29: makes each request's child logger (instance `setChildLoggerFactory`, route `childLoggerFactory`). */
export interface ChildLoggerFactory<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends LoggerInstance = LoggerInstance,
  Provider extends TypeProvider = TypeProviderDefault
> {
  (this: TrellisInstance<RawServer, RawRequest, RawReply, Logger, Provider>, logger: Logger, bindings: Bindings, childLoggerOpts: ChildLoggerOptions, rawReq: RawRequest): Logger
}

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { LoggerInstance as FastifyLoggerInstance, BaseLogger as FastifyBaseLogger, LoggerOptions as FastifyLoggerOptions, LogFn as FastifyLogFn, LoggerStreamDestination as FastifyLoggerStreamDestination, ChildLoggerFactory as FastifyChildLoggerFactory }
