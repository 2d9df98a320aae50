/** trellis's own version, and the Fastify interface version it implements (for plugin version ranges). */
export const VERSION = '0.1.0'
export const FASTIFY_COMPAT_VERSION = '4.3.0'
