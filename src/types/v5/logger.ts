/**
 * Fastify 5's logger types: `log` is any logger with pino's level methods and `child` (the
 * `loggerInstance` option takes one; the `logger` option takes `true` or pino's options).
 */
import type { BaseLogger, Bindings, ChildLoggerOptions, LevelWithSilent, LogFn, LoggerOptions } from 'pino'
import type { FastifyError } from './errors'
import type { FastifyInstance } from './instance'
import type { FastifyRequest } from './request'
import type { FastifyReply } from './reply'
import type { RouteGenericInterface } from './route'
import type { FastifySchema } from './schema'
import type { FastifyTypeProvider, FastifyTypeProviderDefault } from './type-provider'
import type { ContextConfigDefault, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './utils'

export type { LogFn as FastifyLogFn, LevelWithSilent as LogLevel, Bindings, ChildLoggerOptions, LoggerOptions as PinoLoggerOptions }

export interface FastifyBaseLogger extends Pick<BaseLogger, 'level' | 'info' | 'error' | 'debug' | 'fatal' | 'warn' | 'trace' | 'silent'> {
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger
}

/** @deprecated use FastifyBaseLogger */
export type FastifyLoggerInstance = FastifyBaseLogger

export interface FastifyLoggerStreamDestination {
  write(msg: string): void
}

/** What the `res` serializer receives: the reply, of which only `statusCode` is sure to be there. */
export type ResSerializerReply<RawServer extends RawServerBase, RawReply extends FastifyReply<RouteGenericInterface, RawServer>> =
  Partial<RawReply> & Pick<RawReply, 'statusCode'>

type DefaultRequest<RawServer extends RawServerBase, Provider extends FastifyTypeProvider> =
  FastifyRequest<RouteGenericInterface, RawServer, RawRequestDefaultExpression<RawServer>, FastifySchema, Provider>
type DefaultReply<RawServer extends RawServerBase, Provider extends FastifyTypeProvider> =
  FastifyReply<RouteGenericInterface, RawServer, RawRequestDefaultExpression<RawServer>, RawReplyDefaultExpression<RawServer>, ContextConfigDefault, FastifySchema, Provider>

// Kept apart from ../logger: the serializers' arguments are typed otherwise (the `res` serializer, `host`).
/** The `logger` factory option (with pino's own options). */
export interface FastifyLoggerOptions<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends DefaultRequest<RawServer, FastifyTypeProvider> = DefaultRequest<RawServer, FastifyTypeProviderDefault>,
  RawReply extends DefaultReply<RawServer, FastifyTypeProvider> = DefaultReply<RawServer, FastifyTypeProviderDefault>
> {
  serializers?: {
    req?: (req: RawRequest) => { method?: string, url?: string, version?: string, host?: string, remoteAddress?: string, remotePort?: number, [key: string]: unknown }
    err?: (err: FastifyError) => { type: string, message: string, stack: string, [key: string]: unknown }
    res?: (res: ResSerializerReply<RawServer, RawReply>) => { statusCode?: string | number, [key: string]: unknown }
  }
  level?: string
  file?: string
  genReqId?: (req: RawRequest) => string
  stream?: FastifyLoggerStreamDestination
}

/** Makes each request's child logger (`setChildLoggerFactory`, the route option `childLoggerFactory`). */
export interface FastifyChildLoggerFactory<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault
> {
  (this: FastifyInstance<RawServer, RawRequest, RawReply, Logger, TypeProvider>, logger: Logger, bindings: Bindings, childLoggerOpts: ChildLoggerOptions, rawReq: RawRequest): Logger
}
