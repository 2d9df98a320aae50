/**
 * Fastify 4.3's `lib/initialConfigValidation.js` on trellis: validation is trellis's own option
 * resolution (src/options.ts), the result is trellis's `initialConfig` view, and
 * `utils.deepFreezeObject` is the deep freeze trellis applies to it.
 */
import { resolveOptions, initialConfig, deepFreeze } from '../../instance/options'

function validateInitialConfig (options: unknown): Readonly<Record<string, unknown>> {
  return initialConfig(resolveOptions(options))
}

const defaultInitOptions = initialConfig(resolveOptions({}))

export = Object.assign(validateInitialConfig, { defaultInitOptions, utils: { deepFreezeObject: deepFreeze } })
