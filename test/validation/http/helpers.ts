/**
 * Helpers for server-level validation tests: apps built with trellis, requests over inject.
 */
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import trellis from '../../../src/index'

export type App = ReturnType<typeof trellis>

/** The shared schemas the case list refers to (added with addSchema, or to a custom validator). */
export const sharedSchemas: Array<Record<string, unknown>> = [
  {
    $id: 'http://example.com/user.json',
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' } },
    required: ['name'],
    definitions: { id: { type: 'integer', minimum: 1 } }
  },
  {
    $id: 'address',
    type: 'object',
    properties: { city: { $id: '#city', type: 'string', maxLength: 5 }, zip: { type: 'integer' } },
    required: ['city']
  }
]

/** An Ajv with the documented baseline options (what the default compiler uses). */
export function baselineAjv (overrides: Record<string, unknown> = {}): Ajv {
  const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false, strict: false, ...overrides })
  addFormats(ajv)
  return ajv
}

type Compiler = (input: { schema: any, method: string, url: string, httpPart?: string }) => (data: unknown) => any

/** A custom compiler answering { value } / { error }, with the shared schemas added to its own Ajv. */
export function valueErrorCompiler (ajv: Ajv = baselineAjv(), schemas = sharedSchemas): Compiler {
  for (const s of schemas) if (ajv.getSchema(s.$id as string) === undefined) ajv.addSchema(s)
  return ({ schema }) => {
    const check = ajv.compile(schema)
    return (data) => check(data) ? { value: data } : { error: check.errors }
  }
}

/** The echo handler: what the handler sees after validation. */
export async function echo (request: any): Promise<Record<string, unknown>> {
  return { body: request.body ?? null, query: request.query, params: request.params, headers: request.headers }
}

/** Asserts that `actual` contains every key of `expected` with a deep-equal value (one level). */
export function pick (actual: Record<string, unknown>, expected: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(expected)) out[k] = actual?.[k]
  return out
}

export { trellis }
