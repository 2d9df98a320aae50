/**
 * Plugin function types. A plugin receives a (child) instance typed with the same server and type
 * provider as its parent, and its own options.
 */
import type { TrellisInstance } from './instance'
import type { RawServerBase, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression } from './utils'
import type { TypeProvider, TypeProviderDefault } from './type-provider'
import type { LoggerInstance } from './logger'

export type PluginOptions = Record<string, any>

type PluginInstance<Server extends RawServerBase, Provider extends TypeProvider, Logger extends LoggerInstance> =
  TrellisInstance<Server, RawRequestDefaultExpression<Server>, RawReplyDefaultExpression<Server>, Logger, Provider>

/** A plugin that calls `done` when it has finished. */
export type TrellisPluginCallback<
  Options extends PluginOptions = Record<never, never>,
  Server extends RawServerBase = RawServerDefault,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> = (instance: PluginInstance<Server, Provider, Logger>, opts: Options, done: (err?: Error) => void) => void

/** A plugin that returns a promise. */
export type TrellisPluginAsync<
  Options extends PluginOptions = Record<never, never>,
  Server extends RawServerBase = RawServerDefault,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance
> = (instance: PluginInstance<Server, Provider, Logger>, opts: Options) => Promise<void>

export type TrellisPlugin<Options extends PluginOptions = Record<never, never>> =
  TrellisPluginCallback<Options> | TrellisPluginAsync<Options>

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { PluginOptions as FastifyPluginOptions, TrellisPlugin as FastifyPlugin, TrellisPluginAsync as FastifyPluginAsync, TrellisPluginCallback as FastifyPluginCallback }
