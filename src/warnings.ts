/**
 * Deprecation warnings with Fastify 4.3's codes and texts, emitted once per process per code
 * through `process.emitWarning` (name 'FastifyDeprecation'), as Fastify's process-warning does.
 */
const MESSAGES = {
  FSTDEP008: 'You are using route constraints via the route { version: "..." } option, use { constraints: { version: "..." } } option instead.',
  FSTDEP009: 'You are using a custom route versioning strategy via the server { versioning: "..." } option, use { constraints: { version: "..." } } option instead.'
} as const

export type DeprecationCode = keyof typeof MESSAGES

const emitted = new Set<DeprecationCode>()

export function emitDeprecation (code: DeprecationCode): void {
  if (emitted.has(code)) return
  emitted.add(code)
  process.emitWarning(MESSAGES[code], 'FastifyDeprecation', code)
}
