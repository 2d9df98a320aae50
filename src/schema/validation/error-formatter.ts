/**
 * The default schema error formatter: one line per error, `<part><instancePath> <message>`,
 * joined with ', ' (Fastify 4.3's format), e.g. `body must have required property 'name'`,
 * `querystring/n must be integer`.
 */
import type { SchemaErrorFormatter } from './types'
import { errorCodes } from '../../base/errors'

function describe (error: unknown, dataVar: string): string {
  if (typeof error === 'string') return `${dataVar} ${error}`
  if (error !== null && typeof error === 'object') {
    const e = error as { instancePath?: unknown; message?: unknown }
    const path = typeof e.instancePath === 'string' ? e.instancePath : ''
    const message = e.message === undefined ? 'is invalid' : String(e.message)
    return `${dataVar}${path} ${message}`
  }
  return `${dataVar} is invalid`
}

export const defaultSchemaErrorFormatter: SchemaErrorFormatter = function defaultSchemaErrorFormatter (errors, dataVar) {
  if (!Array.isArray(errors) || errors.length === 0) return new Error(`${dataVar} is invalid`)
  let text = describe(errors[0], dataVar)
  for (let i = 1; i < errors.length; i++) text += ', ' + describe(errors[i], dataVar)
  return new Error(text)
}

/**
 * A schema error formatter must be a synchronous function (Fastify 4.3's checks and messages):
 * it builds the 400 error inline, so an async one would hand back a Promise instead of an Error.
 */
export function assertSchemaErrorFormatter (formatter: unknown): asserts formatter is SchemaErrorFormatter {
  // Fastify 4.29's error (4.3 threw plain Errors with other texts)
  if (typeof formatter !== 'function') throw new errorCodes.FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN(typeof formatter)
  if (formatter.constructor?.name === 'AsyncFunction') throw new errorCodes.FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN('AsyncFunction')
}
