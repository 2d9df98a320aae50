/** Plugin function types of the Fastify 5 line: the instance a plugin receives keeps its parent's server, provider and logger. */
import type { FastifyInstance } from './instance'
import type { FastifyBaseLogger } from './logger'
import type { FastifyTypeProvider, FastifyTypeProviderDefault } from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './utils'

export type FastifyPluginOptions = Record<string, any>

type PluginInstance<Server extends RawServerBase, Provider extends FastifyTypeProvider, Logger extends FastifyBaseLogger> =
  FastifyInstance<Server, RawRequestDefaultExpression<Server>, RawReplyDefaultExpression<Server>, Logger, Provider>

// Kept apart from ../plugin: what repeats is the generic parameters, which declarations cannot share.
/** A plugin that calls `done` when it has finished. */
export type FastifyPluginCallback<
  Options extends FastifyPluginOptions = Record<never, never>,
  Server extends RawServerBase = RawServerDefault,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger
> = (instance: PluginInstance<Server, TypeProvider, Logger>, opts: Options, done: (err?: Error) => void) => void

/** A plugin that returns a promise. */
export type FastifyPluginAsync<
  Options extends FastifyPluginOptions = Record<never, never>,
  Server extends RawServerBase = RawServerDefault,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger
> = (instance: PluginInstance<Server, TypeProvider, Logger>, opts: Options) => Promise<void>

/** @deprecated use FastifyPluginCallback or FastifyPluginAsync */
export type FastifyPlugin<Options extends FastifyPluginOptions = Record<never, never>> =
  FastifyPluginCallback<Options> | FastifyPluginAsync<Options>
