/**
 * `trellis/v5/plugin`: `trellis/plugin` (fastify-plugin's `fp`: skip-override, name, metadata) typed
 * with the Fastify 5 line's declarations, so an inline plugin's instance is a `trellis/v5` instance.
 * A Fastify 5 application that imports `fastify-plugin` imports this instead. Same function at run time.
 */
import { plugin as runtimePlugin } from './plugin'
import type { PluginMetadata } from './plugin'
import type { FastifyPluginAsync, FastifyPluginCallback, FastifyPluginOptions } from './types/v5/plugin'
import type { FastifyBaseLogger } from './types/v5/logger'
import type { FastifyTypeProvider, FastifyTypeProviderDefault } from './types/v5/type-provider'
import type { RawServerBase, RawServerDefault } from './types/v5/utils'

/** Marks a plugin function (returned as given): the instance and options of an inline plugin are typed from the generics. */
type Fp = <
  Options extends FastifyPluginOptions = Record<never, never>,
  RawServer extends RawServerBase = RawServerDefault,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  Fn extends FastifyPluginCallback<Options, RawServer, TypeProvider, Logger> | FastifyPluginAsync<Options, RawServer, TypeProvider, Logger> = FastifyPluginCallback<Options, RawServer, TypeProvider, Logger>
>(
  fn: Fn extends unknown ? Fn extends (...args: any) => Promise<any> ? FastifyPluginAsync<Options, RawServer, TypeProvider, Logger> : FastifyPluginCallback<Options, RawServer, TypeProvider, Logger> : Fn,
  options?: PluginMetadata | string
) => Fn

const plugin = runtimePlugin as unknown as Fp

export { plugin, plugin as fp, plugin as fastifyPlugin }
export type { PluginMetadata, PluginMetadata as PluginOptions, FastifyPluginOptions, FastifyPluginAsync, FastifyPluginCallback }
export default plugin
