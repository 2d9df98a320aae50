/**
 * Plugin metadata (`Symbol.for('plugin-meta')`, set by trellis/plugin and fastify-plugin):
 * the framework version range, required plugins and required decorators, checked before load.
 */
import { AssertionError } from 'node:assert'
import { errorCodes } from '../base/errors'
import type { PluginContext } from './plugin-context'
import { pluginMeta } from './plugins'
import { rcAcceptsOlder, satisfies } from './version-range'
import { FASTIFY_COMPAT_VERSION, fastifyVersionOf } from '../base/version'
import { acceptsFastify4 } from './fastify4-bridge'
import { lineHint } from './line-hint'

/**
 * Checks a plugin's metadata before it loads. Returns the range of a Fastify 4 plugin that a
 * Fastify 5 application takes through the Fastify 4 bridge (./fastify4-bridge.ts), else undefined.
 */
export function checkPluginMeta (fn: unknown, context: PluginContext): string | undefined {
  const meta = pluginMeta(fn)
  if (meta === undefined || meta === null) return undefined
  // the instance's version (an application or test may override it), as Fastify checks `this.version`
  const version = typeof context.instance.version === 'string' ? context.instance.version as string : FASTIFY_COMPAT_VERSION
  let bridged: string | undefined
  if (typeof meta.fastify === 'string' && meta.fastify !== '' && !rcAcceptsOlder(version, meta.fastify) && !satisfies(version, meta.fastify)) {
    if (context.app.options.line === 5 && acceptsFastify4(meta.fastify)) bridged = meta.fastify
    else {
      const error = new errorCodes.FST_ERR_PLUGIN_VERSION_MISMATCH(meta.name, meta.fastify, version)
      // the application's line is the one the plugin does not take: the message names the setting
      if (version === fastifyVersionOf(context.app.options.line)) error.message += lineHint(context.app.options.line, meta.fastify)
      throw error
    }
  }
  const withName = typeof meta.name === 'string' ? ` required by '${meta.name}'` : ''
  const decorators = meta.decorators
  if (decorators !== undefined && decorators !== null) {
    const checks: Array<[string, string[] | undefined, (name: string) => boolean]> = [
      ['Fastify', decorators.fastify, (n) => n in context.instance],
      ['Reply', decorators.reply, (n) => n in context.Reply.prototype],
      ['Request', decorators.request, (n) => n in context.Request.prototype]
    ]
    for (const [where, names, exists] of checks) {
      if (names === undefined) continue
      if (!Array.isArray(names)) throw new TypeError('The decorators should be an array of strings')
      for (const name of names) {
        // Fastify 4.29's code for a missing required decorator (4.3: a plain Error, same text)
        if (!exists(name)) throw new errorCodes.FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE(name, withName, where)
      }
    }
  }
  const dependencies = meta.dependencies
  if (dependencies !== undefined && dependencies !== null) {
    if (!Array.isArray(dependencies)) throw new TypeError('The dependencies should be an array of strings')
    for (const dependency of dependencies) {
      if (!context.registeredPlugins.includes(dependency)) {
        // as Fastify (4.3 and 4.29): an assertion error
        throw new AssertionError({ message: `The dependency '${dependency}' of plugin '${String(meta.name)}' is not registered` })
      }
    }
  }
  return bridged
}
