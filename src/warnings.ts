/**
 * Deprecation warnings with Fastify 4.3's codes and texts, emitted once per process per code
 * through `process.emitWarning` (name 'FastifyDeprecation'), as Fastify's process-warning does.
 */
const MESSAGES = {
  FSTDEP006: 'You are decorating Request/Reply with a reference type. This reference is shared amongst all requests. Use onRequest hook instead. Property: %s',
  FSTDEP007: 'You are trying to set a HEAD route using "exposeHeadRoute" route flag when a sibling route is already set. See documentation for more info.',
  FSTDEP008: 'You are using route constraints via the route { version: "..." } option, use { constraints: { version: "..." } } option instead.',
  FSTDEP009: 'You are using a custom route versioning strategy via the server { versioning: "..." } option, use { constraints: { version: "..." } } option instead.'
} as const

export type DeprecationCode = keyof typeof MESSAGES

const emitted = new Set<DeprecationCode>()

/** Emits `code` once per process; `%s` in its message is replaced by `detail`. */
export function emitDeprecation (code: DeprecationCode, detail?: string): void {
  if (emitted.has(code)) return
  emitted.add(code)
  process.emitWarning(MESSAGES[code].replace('%s', detail ?? ''), 'FastifyDeprecation', code)
}
