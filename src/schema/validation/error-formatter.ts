/**
 * The default schema error formatter: one line per error, `<part><instancePath> <message>`,
 * joined with ', ' (Fastify 4.3's format), e.g. `body must have required property 'name'`,
 * `querystring/n must be integer`.
 */
import type { SchemaErrorFormatter } from './types'

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
  if (typeof formatter !== 'function') {
    throw new Error(`schemaErrorFormatter option should be a function, instead got ${typeof formatter}`)
  }
  if (formatter.constructor?.name === 'AsyncFunction') {
    throw new Error('schemaErrorFormatter option should not be an async function')
  }
}
