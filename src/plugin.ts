/**
 * `trellis/plugin`: marks a plugin function so that it runs in its parent's context
 * (skip-override: what it defines is visible to the parent), with a display name and metadata
 * (framework version range, dependencies, required decorators). Compatible with fastify-plugin.
 */
import { kDisplayName, kPluginMeta, kSkipOverride } from './context/symbols'
import type { PluginOptions, TrellisPluginAsync, TrellisPluginCallback } from './types/plugin'
import type { RawServerBase, RawServerDefault } from './types/utils'
import type { TypeProvider, TypeProviderDefault } from './types/type-provider'
import type { LoggerInstance } from './types/logger'
import type { FastifyPluginAsync as PluginAsyncV5, FastifyPluginCallback as PluginCallbackV5, FastifyPluginOptions as PluginOptionsV5 } from './types/v5/plugin'
import type { FastifyBaseLogger as LoggerV5 } from './types/v5/logger'
import type { FastifyTypeProvider as TypeProviderV5, FastifyTypeProviderDefault as TypeProviderDefaultV5 } from './types/v5/type-provider'

export interface PluginMetadata {
  /** Plugin name, shown in errors and used by `dependencies` of other plugins. */
  name?: string
  /** Framework version range this plugin supports, e.g. '4.x', or '4.x || 5.x' for both lines. */
  fastify?: string
  /** Names of plugins that must be registered before this one. */
  dependencies?: string[]
  /** Decorators that must exist before this plugin loads. */
  decorators?: { fastify?: Array<string | symbol>; reply?: Array<string | symbol>; request?: Array<string | symbol> }
  /** Keep encapsulation (a named plugin that still gets its own context). */
  encapsulate?: boolean
  [key: string]: unknown
}
/** fastify-plugin's older name of the metadata type. */
export type { PluginMetadata as PluginOptions }

type AnyPlugin = (...args: any[]) => unknown

let anonymousCount = 0

/**
 * Wraps a plugin function; returns the same function, marked. Typed as fastify-plugin's `fp`: an
 * inline plugin gets its instance and options typed from the generics (callback or async form), as
 * a plugin of the Fastify 4 line (`trellis`).
 */
function plugin<
  Options extends PluginOptions = Record<never, never>,
  RawServer extends RawServerBase = RawServerDefault,
  Provider extends TypeProvider = TypeProviderDefault,
  Logger extends LoggerInstance = LoggerInstance,
  Fn extends TrellisPluginCallback<Options, RawServer, Provider, Logger> | TrellisPluginAsync<Options, RawServer, Provider, Logger> = TrellisPluginCallback<Options, RawServer, Provider, Logger>
> (
  fn: Fn extends unknown ? Fn extends (...args: any) => Promise<any> ? TrellisPluginAsync<Options, RawServer, Provider, Logger> : TrellisPluginCallback<Options, RawServer, Provider, Logger> : Fn,
  options?: PluginMetadata | string
): Fn
/**
 * A plugin function typed for the Fastify 5 line (its instance a `trellis/v5` instance: annotated, or
 * a `FastifyPluginAsync` / `FastifyPluginCallback` of `trellis/v5`), returned as it is typed, so it
 * registers on a `trellis/v5` instance. (An inline plugin whose parameters are not annotated is typed
 * by the overload above; `trellis/v5/plugin` types it for the Fastify 5 line.)
 */
function plugin<
  Options extends PluginOptionsV5 = Record<never, never>,
  RawServer extends RawServerBase = RawServerDefault,
  Provider extends TypeProviderV5 = TypeProviderDefaultV5,
  Logger extends LoggerV5 = LoggerV5,
  Fn extends PluginCallbackV5<Options, RawServer, Provider, Logger> | PluginAsyncV5<Options, RawServer, Provider, Logger> = PluginCallbackV5<Options, RawServer, Provider, Logger>
> (
  fn: Fn extends unknown ? Fn extends (...args: any) => Promise<any> ? PluginAsyncV5<Options, RawServer, Provider, Logger> : PluginCallbackV5<Options, RawServer, Provider, Logger> : Fn,
  options?: PluginMetadata | string
): Fn
function plugin (fn: AnyPlugin, options: PluginMetadata | string = {}): AnyPlugin {
  if (typeof fn !== 'function') {
    throw new TypeError(`trellis-plugin expects a function, instead got a '${typeof fn}'`)
  }
  const target = fn as unknown as Record<symbol | string, unknown>
  if (typeof target.default !== 'undefined') target.default = fn
  const meta: PluginMetadata = typeof options === 'string' ? { fastify: options } : { ...options }
  if (meta.fastify !== undefined && typeof meta.fastify !== 'string') {
    throw new TypeError(`fastify-plugin expects a version string, instead got '${typeof meta.fastify}'`)
  }
  if (meta.name === undefined) meta.name = fn.name !== '' ? fn.name : `anonymous-plugin-${++anonymousCount}`
  target[kSkipOverride] = meta.encapsulate !== true
  target[kDisplayName] = meta.name
  target[kPluginMeta] = meta
  return fn
}

export { plugin, plugin as fp, plugin as fastifyPlugin }
export type {
  PluginOptions as FastifyPluginOptions, TrellisPluginAsync, TrellisPluginAsync as FastifyPluginAsync,
  TrellisPluginCallback, TrellisPluginCallback as FastifyPluginCallback
} from './types/plugin'
export default plugin
