/** `register()` of the Fastify 5 line: one signature per plugin form, with and without options. */
import type { FastifyInstance } from './instance'
import type { FastifyBaseLogger, LogLevel } from './logger'
import type { FastifyPluginAsync, FastifyPluginCallback, FastifyPluginOptions } from './plugin'
import type { FastifyTypeProvider } from './type-provider'
import type { RawServerBase, RawServerDefault } from './utils'

export interface RegisterOptions {
  prefix?: string
  logLevel?: LogLevel
  logSerializers?: Record<string, (value: any) => string>
}

/** The options argument: an object, or a function of the parent instance returning one. */
export type FastifyRegisterOptions<Options> = (RegisterOptions & Options) | ((instance: FastifyInstance) => RegisterOptions & Options)

type Cb<O extends FastifyPluginOptions, S extends RawServerBase, P extends FastifyTypeProvider, L extends FastifyBaseLogger> = FastifyPluginCallback<O, S, P, L>
type As<O extends FastifyPluginOptions, S extends RawServerBase, P extends FastifyTypeProvider, L extends FastifyBaseLogger> = FastifyPluginAsync<O, S, P, L>
type AnyForm<O extends FastifyPluginOptions, S extends RawServerBase, P extends FastifyTypeProvider, L extends FastifyBaseLogger> =
  Cb<O, S, P, L> | As<O, S, P, L> | Promise<{ default: Cb<O, S, P, L> }> | Promise<{ default: As<O, S, P, L> }>

export interface FastifyRegister<
  T = void,
  RawServer extends RawServerBase = RawServerDefault,
  TypeProviderDefault extends FastifyTypeProvider = FastifyTypeProvider,
  LoggerDefault extends FastifyBaseLogger = FastifyBaseLogger
> {
  <Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: Cb<FastifyPluginOptions, Server, TypeProvider, Logger>): T
  <Options extends FastifyPluginOptions, Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: Cb<Options, Server, TypeProvider, Logger>, opts: FastifyRegisterOptions<Options>): T
  <Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: As<FastifyPluginOptions, Server, TypeProvider, Logger>): T
  <Options extends FastifyPluginOptions, Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: As<Options, Server, TypeProvider, Logger>, opts: FastifyRegisterOptions<Options>): T
  <Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: AnyForm<FastifyPluginOptions, Server, TypeProvider, Logger>): T
  <Options extends FastifyPluginOptions, Server extends RawServerBase = RawServer, TypeProvider extends FastifyTypeProvider = TypeProviderDefault, Logger extends FastifyBaseLogger = LoggerDefault>(
    plugin: AnyForm<Options, Server, TypeProvider, Logger>, opts: FastifyRegisterOptions<Options>): T
}
