/**
 * Compiling the validators of one route: `query` alias, shorthand, header lowercasing, the
 * body-on-GET refusal, and wrapping build failures with the route.
 */
import { errorCodes } from '../../base/errors'
import { emitWarning } from '../../base/warnings'
import { parseMediaType } from '../../base/media-type'
import { isPlainSchemaObject, normalizeSchema } from './normalize'
import type { HttpPart, RouteSchema, RouteValidators, ValidatorCompiler, ValidatorFn } from './types'
import { contentSchemas } from '../content-schemas'

export interface CompileRouteValidatorsInput {
  schema: RouteSchema
  method: string
  url: string
  compiler: ValidatorCompiler
  /** Fastify's `jsonShorthand` server option; default true. */
  jsonShorthand?: boolean
}

const BODYLESS = new Set(['GET', 'HEAD'])

function methodList (method: unknown): string[] {
  return (Array.isArray(method) ? method : [method]).map((m) => String(m).toUpperCase())
}

function describeReason (error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}

/**
 * Compiles the request-part validators of a route schema. A part is validated only when its
 * schema is present (truthy). Throws FST_ERR_SCH_DUPLICATE when both `query` and `querystring` are
 * set, FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED for a body schema on a GET/HEAD-only route, and
 * FST_ERR_SCH_VALIDATION_BUILD (with `cause`) when the compiler throws.
 */
export function compileRouteValidators (input: CompileRouteValidatorsInput): RouteValidators {
  const { schema, method, url, compiler } = input
  const validators: RouteValidators = {}
  if (schema === null || schema === undefined || typeof schema !== 'object') return validators

  if (schema.query && schema.querystring && schema.query !== schema.querystring) {
    throw new errorCodes.FST_ERR_SCH_DUPLICATE('querystring')
  }
  const parts: Array<[HttpPart, unknown]> = [
    ['headers', schema.headers],
    ['body', schema.body],
    ['querystring', schema.querystring || schema.query],
    ['params', schema.params]
  ]

  if (schema.body && methodList(method).every((m) => BODYLESS.has(m))) {
    throw new errorCodes.FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED(String(method), url)
  }

  const normalizeOptions = { jsonShorthand: input.jsonShorthand, url }
  const compile = (partSchema: unknown, part: HttpPart, contentType?: string): ValidatorFn => {
    const normalized = normalizeSchema(partSchema, part, normalizeOptions)
    let fn: ValidatorFn
    try {
      fn = compiler(contentType === undefined
        ? { schema: normalized, method, url, httpPart: part }
        : { schema: normalized, method, url, httpPart: part, contentType })
    } catch (error) {
      throw new errorCodes.FST_ERR_SCH_VALIDATION_BUILD(String(method), url, describeReason(error), { cause: error })
    }
    if (typeof fn !== 'function') {
      const reason = `the validator compiler returned ${fn === null ? 'null' : typeof fn} for ${part}, expected a function`
      throw new errorCodes.FST_ERR_SCH_VALIDATION_BUILD(String(method), url, reason)
    }
    return fn
  }
  for (const [part, partSchema] of parts) {
    if (!partSchema) continue
    const content = part === 'body' ? contentSchemas(partSchema, { response: false }) : undefined
    if (content !== undefined) {
      const byType: Record<string, ValidatorFn> = Object.create(null)
      // keyed by essence (`Application/JSON; charset=utf-8` -> `application/json`), as the lookup
      for (const [type, entry] of content) byType[parseMediaType(type)?.essence ?? type.trim().toLowerCase()] = compile(entry, part, type)
      validators.bodyByContentType = byType
      continue
    }
    validators[part] = compile(partSchema, part)
  }
  return validators
}

/** FSTWRN001 (Fastify 4.29) for each request part the schema declares with no schema (`body: undefined`). */
export function warnMissingParts (schema: RouteSchema, method: string, url: string): void {
  const own = (key: string): boolean => Object.prototype.hasOwnProperty.call(schema, key) && !schema[key]
  if (own('headers')) emitWarning('FSTWRN001', 'headers', method, url)
  if (own('body')) emitWarning('FSTWRN001', 'body', method, url)
  if (own('querystring')) emitWarning('FSTWRN001', 'querystring', method, url)
  if (own('params')) emitWarning('FSTWRN001', 'params', method, url)
}

/** True when a route schema declares at least one request part to validate. */
export function hasRequestSchemas (schema: RouteSchema | undefined | null): boolean {
  if (!schema || typeof schema !== 'object') return false
  return Boolean(schema.body || schema.querystring || schema.query || schema.params || schema.headers)
}

export { isPlainSchemaObject }
