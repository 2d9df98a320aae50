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
 * inline plugin gets its instance and options typed from the generics (callback or async form).
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
