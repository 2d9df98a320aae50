/**
 * Fastify 4.29's warnings (codes and texts of its `lib/warnings.js`): deprecations FSTDEP* (name
 * 'DeprecationWarning', emitted once per process per code) and the FSTWRN* warnings (name
 * 'FastifyWarning', emitted every time), through `process.emitWarning`, as Fastify's
 * process-warning does. Each warning is a callable with `code`, `name`, `message` and a settable
 * `emitted` flag (Fastify's suite resets `emitted` to see a deprecation again).
 */
import { format } from 'node:util'

const DEPRECATIONS = {
  FSTDEP005: 'You are accessing the deprecated "request.connection" property. Use "request.socket" instead.',
  FSTDEP006: 'You are decorating Request/Reply with a reference type. This reference is shared amongst all requests. Use onRequest hook instead. Property: %s',
  FSTDEP007: 'You are trying to set a HEAD route using "exposeHeadRoute" route flag when a sibling route is already set. See documentation for more info.',
  FSTDEP008: 'You are using route constraints via the route { version: "..." } option, use { constraints: { version: "..." } } option instead.',
  FSTDEP009: 'You are using a custom route versioning strategy via the server { versioning: "..." } option, use { constraints: { version: "..." } } option instead.',
  FSTDEP010: 'Modifying the "reply.sent" property is deprecated. Use the "reply.hijack()" method instead.',
  FSTDEP011: 'Variadic listen method is deprecated. Please use ".listen(optionsObject)" instead. The variadic signature will be removed in `fastify@5`.',
  FSTDEP012: 'request.context property access is deprecated. Please use "request.routeOptions.config" or "request.routeOptions.schema" instead for accessing Route settings. The "request.context" will be removed in `fastify@5`.',
  FSTDEP013: 'Direct return of "trailers" function is deprecated. Please use "callback" or "async-await" for return value. The support of direct return will removed in `fastify@5`.',
  FSTDEP014: 'You are trying to set/access the default route. This property is deprecated. Please, use setNotFoundHandler if you want to custom a 404 handler or the wildcard (*) to match all routes.',
  FSTDEP015: 'You are accessing the deprecated "request.routeSchema" property. Use "request.routeOptions.schema" instead. Property "req.routeSchema" will be removed in `fastify@5`.',
  FSTDEP016: 'You are accessing the deprecated "request.routeConfig" property. Use "request.routeOptions.config" instead. Property "req.routeConfig" will be removed in `fastify@5`.',
  FSTDEP017: 'You are accessing the deprecated "request.routerPath" property. Use "request.routeOptions.url" instead. Property "req.routerPath" will be removed in `fastify@5`.',
  FSTDEP018: 'You are accessing the deprecated "request.routerMethod" property. Use "request.routeOptions.method" instead. Property "req.routerMethod" will be removed in `fastify@5`.',
  FSTDEP019: 'reply.context property access is deprecated. Please use "request.routeOptions.config" or "request.routeOptions.schema" instead for accessing Route settings. The "reply.context" will be removed in `fastify@5`.',
  FSTDEP020: 'You are using the deprecated "reply.getResponseTime()" method. Use the "reply.elapsedTime" property instead. Method "reply.getResponseTime()" will be removed in `fastify@5`.',
  FSTDEP021: 'The `reply.redirect()` method has a new signature: `reply.redirect(url: string, code?: number)`. It will be enforced in `fastify@v5`',
  // Fastify 4.29 emits the json-shorthand deprecation under code FSTDEP021 too (its FSTDEP022 object)
  FSTDEP022: 'You are using the deprecated json shorthand schema on route %s. Specify full object schema instead. It will be removed in `fastify@v5`'
} as const

const WARNINGS = {
  FSTWRN001: 'The %s schema for %s: %s is missing. This may indicate the schema is not well specified.',
  FSTWRN002: 'The %s plugin being registered mixes async and callback styles, which will result in an error in `fastify@5`'
} as const

type DeprecationCode = keyof typeof DEPRECATIONS
type WarningCode = keyof typeof WARNINGS

/**
 * The function a warning call runs (it returns whether it emitted) and the slot of a spy watching
 * it: process-warning keeps the same two under its own symbols, and `compat/fastify-lib/warnings`
 * maps those onto these, so Fastify's suite can spy on the warnings trellis really emits.
 */
export const kWarningEmit: unique symbol = Symbol('trellis.warning.emit')
export const kWarningSpy: unique symbol = Symbol('trellis.warning.spy')

export interface Warning {
  (a?: unknown, b?: unknown, c?: unknown): boolean
  readonly code: string
  readonly name: string
  readonly message: string
  readonly unlimited: boolean
  emitted: boolean
  format (a?: unknown, b?: unknown, c?: unknown): string
  [kWarningEmit]: (a?: unknown, b?: unknown, c?: unknown) => boolean
  [kWarningSpy]: unknown
}

export function createWarning (name: string, code: string, message: string, unlimited: boolean): Warning {
  const fmt = (a?: unknown, b?: unknown, c?: unknown): string => {
    const args = [a, b, c].filter((x) => x !== undefined)
    return args.length ? format(message, ...args) : message
  }
  const warning = function (a?: unknown, b?: unknown, c?: unknown): boolean {
    return warning[kWarningEmit](a, b, c)
  } as Warning
  Object.defineProperties(warning, {
    name: { value: name },
    code: { value: code },
    message: { value: message },
    unlimited: { value: unlimited },
    format: { value: fmt },
    [kWarningEmit]: {
      writable: true,
      value: (a?: unknown, b?: unknown, c?: unknown): boolean => {
        if (warning.emitted && !unlimited) return false
        warning.emitted = true
        process.emitWarning(fmt(a, b, c), name, code)
        return true
      }
    },
    [kWarningSpy]: { writable: true, value: null }
  })
  warning.emitted = false
  return warning
}

/** Every warning by its key (the names of Fastify 4.29's `lib/warnings.js` exports). */
export const warnings = {} as Record<DeprecationCode | WarningCode, Warning>
for (const [key, message] of Object.entries(DEPRECATIONS)) {
  const code = key === 'FSTDEP022' ? 'FSTDEP021' : key
  warnings[key as DeprecationCode] = createWarning('DeprecationWarning', code, message, false)
}
for (const [key, message] of Object.entries(WARNINGS)) {
  warnings[key as WarningCode] = createWarning('FastifyWarning', key, message, true)
}

/** Emits deprecation `code` (once per process); `%s` in its message is replaced by `detail`. */
export function emitDeprecation (code: DeprecationCode, detail?: string): void {
  warnings[code](detail)
}

/** Emits warning `code` (every time) with the message's `%s` parts. */
export function emitWarning (code: WarningCode, a?: unknown, b?: unknown, c?: unknown): void {
  warnings[code](a, b, c)
}
