/**
 * `trellis/plugin`: marks a plugin function so that it runs in its parent's context
 * (skip-override: what it defines is visible to the parent), with a display name and metadata
 * (framework version range, dependencies, required decorators). Compatible with fastify-plugin.
 */
import { kDisplayName, kPluginMeta, kSkipOverride } from './context/symbols'

export interface PluginMetadata {
  /** Plugin name, shown in errors and used by `dependencies` of other plugins. */
  name?: string
  /** Framework version range this plugin supports, e.g. '4.x'. */
  fastify?: string
  /** Names of plugins that must be registered before this one. */
  dependencies?: string[]
  /** Decorators that must exist before this plugin loads. */
  decorators?: { fastify?: Array<string | symbol>; reply?: Array<string | symbol>; request?: Array<string | symbol> }
  /** Keep encapsulation (a named plugin that still gets its own context). */
  encapsulate?: boolean
  [key: string]: unknown
}

type AnyPlugin = (...args: any[]) => unknown

let anonymousCount = 0

/** Wraps a plugin function; returns the same function, marked. */
function plugin<T extends AnyPlugin> (fn: T, options: PluginMetadata | string = {}): T {
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

export { plugin, plugin as fp }
export default plugin
