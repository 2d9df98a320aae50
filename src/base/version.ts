/**
 * trellis's own version, and the Fastify interface versions it implements. An application runs one
 * Fastify line, chosen by its factory (`trellis`: 4, `trellis/v5`: 5); `instance.version` reports
 * that line's release so plugins' own version checks see what they expect.
 */
export const VERSION = '0.1.0'
/** 4.29.1, the last Fastify 4 release (its suite: docs/compatibility.md). */
export const FASTIFY_COMPAT_VERSION = '4.29.1'
/** The Fastify 5 release whose interface the v5 line follows. */
export const FASTIFY5_COMPAT_VERSION = '5.12.8'

/** The Fastify release line an application follows. */
export type FastifyLine = 4 | 5

export function fastifyVersionOf (line: FastifyLine): string {
  return line === 5 ? FASTIFY5_COMPAT_VERSION : FASTIFY_COMPAT_VERSION
}
