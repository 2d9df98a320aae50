/**
 * The warnings Fastify 5 added (its codes, names and texts), and those of trellis's Fastify 4 bridge
 * (TRLBRG*), emitted only by v5-line applications.
 * Fastify 5 reuses no Fastify 4 deprecation code for another meaning except FSTDEP022, which is why
 * these are a table of their own.
 */
import { createWarning } from './warnings'

export const v5Warnings = {
  FSTDEP022: createWarning('FastifyWarning', 'FSTDEP022', 'The router options for %s property access is deprecated. Please use "options.routerOptions" instead for accessing router options. The router options will be removed in `fastify@6`.', true),
  FSTWRN004: createWarning('FastifyWarning', 'FSTWRN004', 'It seems that you are overriding an errorHandler in the same scope, which can lead to subtle bugs. To disable this behavior, set \'allowErrorHandlerOverride\' to false. For more information, visit: https://fastify.dev/docs/latest/Reference/Server/#allowerrorhandleroverride', true),
  FSTWRN003: createWarning('FastifyWarning', 'FSTWRN003', 'The %s mixes async and callback styles that may lead to unhandled rejections. Please use only one of them.', true),
  FSTSEC002: createWarning('FastifySecurity', 'FSTSEC002', 'The headers schema for %s: %s references an external $ref (%s) that is not case-normalized. Header names in the referenced schema keep their original case and will not match the lowercased request headers, so case-insensitive assertions such as required and dependencies may not apply. Inline the header schema instead of referencing it with an external $ref.', true),
  FSTSEC003: createWarning('FastifySecurity', 'FSTSEC003', 'The headers schema for %s: %s uses a $ref (%s) inside propertyNames that is not case-normalized. Header names held in the referenced schema keep their original case and will not match the lowercased request headers, so a case-insensitive deny-list or allow-list on header names may not apply. Inline the propertyNames constraint instead of referencing it with a $ref.', true),
  TRLBRG001: createWarning('TrellisWarning', 'TRLBRG001', "Plugin '%s' declares fastify '%s': it runs in this Fastify 5 application through trellis's Fastify 4 bridge (docs/compatibility.md)", true),
  TRLBRG002: createWarning('TrellisWarning', 'TRLBRG002', '%s is Fastify 4 only: answered by the Fastify 4 bridge for %s (Fastify 5: %s)', true),
  FSTDEP023: createWarning('FastifyDeprecation', 'FSTDEP023', 'disableRequestLogging option is deprecated. Use the logController option with disableRequestLogging or isLogDisabled override instead. The disableRequestLogging top-level option will be removed in `fastify@6`.', true),
  FSTDEP024: createWarning('FastifyDeprecation', 'FSTDEP024', 'requestIdLogLabel option is deprecated. Use the logController option with requestIdLogLabel instead. The requestIdLogLabel top-level option will be removed in `fastify@6`.', true),
  FSTDEP025: createWarning('FastifyDeprecation', 'FSTDEP025', 'Calling addHttpMethod for existing method "%s" without { overrideExisting: true } is deprecated. In Fastify v6, this will throw an error.', true)
}

export type Fastify5WarningCode = keyof typeof v5Warnings

/** Emits a warning of the Fastify 5 line (Fastify 5's own, and trellis's Fastify 4 bridge) with its `%s` parts. */
export function emitV5Warning (code: Fastify5WarningCode, a?: string, b?: string, c?: string): void {
  v5Warnings[code](a, b, c)
}
