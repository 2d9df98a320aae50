/**
 * The warnings Fastify 5 added (its codes, names and texts), emitted only by v5-line applications.
 * Fastify 5 reuses no Fastify 4 deprecation code for another meaning except FSTDEP022, which is why
 * these are a table of their own.
 */
import { createWarning } from './warnings'

const V5_WARNINGS = {
  FSTDEP022: createWarning('FastifyWarning', 'FSTDEP022', 'The router options for %s property access is deprecated. Please use "options.routerOptions" instead for accessing router options. The router options will be removed in `fastify@6`.', true),
  FSTWRN003: createWarning('FastifyWarning', 'FSTWRN003', 'The %s mixes async and callback styles that may lead to unhandled rejections. Please use only one of them.', true),
  FSTDEP025: createWarning('FastifyDeprecation', 'FSTDEP025', 'Calling addHttpMethod for existing method "%s" without { overrideExisting: true } is deprecated. In Fastify v6, this will throw an error.', true)
}

export type Fastify5WarningCode = keyof typeof V5_WARNINGS

export function emitFastify5Deprecation (code: Fastify5WarningCode, detail?: string): void {
  V5_WARNINGS[code](detail)
}
