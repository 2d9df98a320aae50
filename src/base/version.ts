/** trellis's own version, and the Fastify interface version it implements (for plugin version ranges): 4.29.1, the last Fastify 4 release (its suite: docs/compatibility.md). */
export const VERSION = '0.1.0'
export const FASTIFY_COMPAT_VERSION = '4.29.1'
