/** `register()`: one signature per plugin form, the plugin's options type checking `opts`. */
import type { PluginOptions, TrellisPluginCallback, TrellisPluginAsync } from './plugin'
import type { LogLevel } from './logger'
import type { TrellisInstance } from './instance'
import type { RawServerBase, RawServerDefault } from './utils'
import type { TypeProvider } from './type-provider'

export interface RegisterOptions {
  prefix?: string
  logLevel?: LogLevel
  logSerializers?: Record<string, (value: any) => string>
}

/** The options argument: an object, or a function of the parent instance returning one. */
export type RegisterPluginOptions<Options> = (RegisterOptions & Options) | ((instance: TrellisInstance) => RegisterOptions & Options)

type EsModule<T> = Promise<{ default: T }>

export interface Register<Result = void, RawServer extends RawServerBase = RawServerDefault, ProviderDefault extends TypeProvider = TypeProvider> {
  <Options extends PluginOptions, Server extends RawServerBase = RawServer, Provider extends TypeProvider = ProviderDefault>(
    plugin: TrellisPluginCallback<Options, Server, Provider>,
    opts?: RegisterPluginOptions<Options>
  ): Result
  <Options extends PluginOptions, Server extends RawServerBase = RawServer, Provider extends TypeProvider = ProviderDefault>(
    plugin: TrellisPluginAsync<Options, Server, Provider>,
    opts?: RegisterPluginOptions<Options>
  ): Result
  <Options extends PluginOptions, Server extends RawServerBase = RawServer, Provider extends TypeProvider = ProviderDefault>(
    plugin: TrellisPluginCallback<Options, Server, Provider> | TrellisPluginAsync<Options, Server, Provider>
      | EsModule<TrellisPluginCallback<Options, Server, Provider>> | EsModule<TrellisPluginAsync<Options, Server, Provider>>,
    opts?: RegisterPluginOptions<Options>
  ): Result
}

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { RegisterPluginOptions as FastifyRegisterOptions, Register as FastifyRegister }
