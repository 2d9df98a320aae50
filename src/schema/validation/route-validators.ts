/**
 * Compiling the validators of one route: `query` alias, shorthand, header lowercasing, the
 * body-on-GET refusal, and wrapping build failures with the route.
 */
import { errorCodes } from '../../base/errors'
import { emitWarning } from '../../base/warnings'
import { emitV5Warning } from '../../base/warnings-v5'
import type { FastifyLine } from '../../base/version'
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
  /**
   * The application's Fastify line (default 4). Fastify 5 compiles every part whose schema is not
   * `undefined` (`false` rejects every request, `null` fails the build), lets a compiler return
   * no validator (`undefined` / `null`: that part is not validated) and warns (FSTSEC002 /
   * FSTSEC003) about `$ref`s in a headers schema that header-name lowercasing cannot reach.
   */
  line?: FastifyLine
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
  const v5 = input.line === 5
  // Fastify 4: a part is present when truthy; Fastify 5: when not undefined (boolean schemas count)
  const present = v5 ? (x: unknown): boolean => x !== undefined : (x: unknown): boolean => Boolean(x)

  if (v5
    ? schema.query !== undefined && schema.querystring !== undefined
    : schema.query && schema.querystring && schema.query !== schema.querystring) {
    throw new errorCodes.FST_ERR_SCH_DUPLICATE('querystring')
  }
  const parts: Array<[HttpPart, unknown]> = [
    ['headers', schema.headers],
    ['body', schema.body],
    ['querystring', present(schema.querystring) ? schema.querystring : schema.query],
    ['params', schema.params]
  ]

  // Fastify 5 checks it when the route is added, against the application's methods (routing/route-options.ts)
  if (!v5 && schema.body && methodList(method).every((m) => BODYLESS.has(m))) {
    throw new errorCodes.FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED(String(method), url)
  }

  const normalizeOptions = { jsonShorthand: input.jsonShorthand, url }
  const compile = (partSchema: unknown, part: HttpPart, contentType?: string): ValidatorFn | undefined => {
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
      // Fastify 5 reads a compiler that returns nothing as "this part is not validated"
      if (v5 && (fn === undefined || fn === null)) return undefined
      const reason = `the validator compiler returned ${fn === null ? 'null' : typeof fn} for ${part}, expected a function`
      throw new errorCodes.FST_ERR_SCH_VALIDATION_BUILD(String(method), url, reason)
    }
    return fn
  }
  if (v5 && isPlainSchemaObject(schema.headers)) warnUnreachableHeaderRefs(schema.headers, method, url)
  for (const [part, partSchema] of parts) {
    if (!present(partSchema)) continue
    const content = part === 'body' ? contentSchemas(partSchema, { response: false }) : undefined
    if (content !== undefined) {
      const byType: Record<string, ValidatorFn> = Object.create(null)
      // keyed by essence (`Application/JSON; charset=utf-8` -> `application/json`), as the lookup
      for (const [type, entry] of content) {
        const fn = compile(entry, part, type)
        if (fn !== undefined) byType[parseMediaType(type)?.essence ?? type.trim().toLowerCase()] = fn
      }
      validators.bodyByContentType = byType
      continue
    }
    const fn = compile(partSchema, part)
    if (fn !== undefined) validators[part] = fn
  }
  if (v5) validators.fastify5Results = true
  return validators
}

/**
 * Fastify 5.12: header names are lowercased inside the headers schema itself, which an external
 * `$ref` (a shared schema, FSTSEC002) or a `$ref` under `propertyNames` (FSTSEC003) escapes, so
 * their case-insensitive assertions may not apply: one warning for the first of each.
 */
function warnUnreachableHeaderRefs (headers: Record<string, unknown>, method: string, url: string): void {
  const external = findRef(headers, false, (ref) => ref[0] !== '#' ? ref : undefined)
  if (external !== undefined) emitV5Warning('FSTSEC002', String(method), url, external)
  const underNames = findRef(headers, false, (ref, inNames) => inNames && ref[0] === '#' ? ref : undefined)
  if (underNames !== undefined) emitV5Warning('FSTSEC003', String(method), url, underNames)
}

/** The first `$ref` of a schema tree that `pick` accepts (told whether it sits under `propertyNames`). */
function findRef (node: unknown, inNames: boolean, pick: (ref: string, inNames: boolean) => string | undefined): string | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const hit = findRef(item, inNames, pick)
      if (hit !== undefined) return hit
    }
    return undefined
  }
  if (node === null || typeof node !== 'object') return undefined
  const ref = (node as Record<string, unknown>).$ref
  if (typeof ref === 'string') {
    const hit = pick(ref, inNames)
    if (hit !== undefined) return hit
  }
  for (const [key, value] of Object.entries(node)) {
    const hit = findRef(value, inNames || key === 'propertyNames', pick)
    if (hit !== undefined) return hit
  }
  return undefined
}

/**
 * FSTWRN001 for each request part the schema declares with no schema: any falsy value on the
 * Fastify 4 line, only `undefined` on the Fastify 5 line (where `false` is a schema).
 */
export function warnMissingParts (schema: RouteSchema, method: string, url: string, line: FastifyLine = 4): void {
  const own = (key: string): boolean => Object.prototype.hasOwnProperty.call(schema, key) && (line === 5 ? schema[key] === undefined : !schema[key])
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
