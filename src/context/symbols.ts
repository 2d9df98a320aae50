/** Private state keys. Symbol.for keys are the ones the Fastify ecosystem already knows. */
export const kContext = Symbol('trellis.context')
export const kSkipOverride = Symbol.for('skip-override')
export const kDisplayName = Symbol.for('fastify.display-name')
export const kPluginMeta = Symbol.for('plugin-meta')
