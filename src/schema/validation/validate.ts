/**
 * Running a route's validators against a request, in Fastify's order:
 * params, body, querystring, headers. The first failing part ends validation.
 * A validator may answer with a promise (async validators, Fastify 4.29): validation then
 * continues with the next parts once it settles, and `validateRequest` returns a promise.
 * A body schema per content type (`body.content[type].schema`) picks the validator by the
 * request's media type, parsed by the one media-type parser that also chose the body parser; a
 * type without a schema is not validated (as Fastify 4.29).
 */
import { inspect } from 'node:util'
import { errorCodes } from '../../base/errors'
import { parseMediaType } from '../../base/media-type'
import type { RequestParts, RouteValidators, SchemaErrorFormatter, ValidationError, ValidatorFn } from './types'

type PartKey = keyof RequestParts

// sentinel: "this part passed"; anything else returned by checkPart is the failure's errors
const PASSED = Symbol('passed')

// sentinel: the validator overflowed the stack
const OVERFLOW = Symbol('overflow')

/**
 * Data nested deeper than the stack allows, against a recursive schema, makes a compiled validator
 * throw RangeError: that is the client's bad input, so it is a 400 like any other failure (not a
 * 500 carrying "Maximum call stack size exceeded"). Any other throw is a server bug and propagates.
 */
function callValidator (fn: ValidatorFn, data: unknown, holder?: { value: unknown }): ReturnType<ValidatorFn> | typeof OVERFLOW {
  try {
    return holder === undefined ? fn(data) : (fn as AjvValidatorFn)(data, { parentData: holder, parentDataProperty: 'value' })
  } catch (err) {
    if (err instanceof RangeError && /call stack/i.test(err.message)) return OVERFLOW
    throw err
  }
}

/** An Ajv validator called with Ajv's data context (the parent it writes a coerced root value into). */
type AjvValidatorFn = (data: unknown, context: { parentData: object, parentDataProperty: string }) => ReturnType<ValidatorFn>

const standaloneAjvValidators = new WeakSet<object>()

/**
 * Marks a validator made by Ajv without an Ajv instance at hand (standalone code read back from
 * the schema cache): like a compiled one (`schemaEnv`), it takes Ajv's data context.
 */
export function markAjvStandalone<T extends object> (fn: T): T {
  standaloneAjvValidators.add(fn)
  return fn
}

/**
 * Ajv coerces a root primitive (the body `"10"` against `type: 'integer'`) only by writing it into
 * the parent it is given; without one, the value passes as an integer but the handler gets the
 * string. So an Ajv validator gets a holder for a primitive, and the coerced value is kept.
 */
function rootHolder (fn: ValidatorFn, data: unknown): { value: unknown } | undefined {
  if (data !== null && typeof data === 'object') return undefined
  return (fn as { schemaEnv?: unknown }).schemaEnv !== undefined || standaloneAjvValidators.has(fn) ? { value: data } : undefined
}

function tooDeep (): unknown[] {
  return [{ keyword: 'maxDepth', instancePath: '', schemaPath: '#', params: {}, message: 'must NOT be nested this deeply' }]
}

/**
 * Runs one validator; on success writes the (possibly replaced) value back into `request`.
 * Returns PASSED or the errors of the failure. `v5`: Fastify 5's reading of the result
 * ({@link RouteValidators.fastify5Results}).
 */
function checkPart (fn: ValidatorFn, request: RequestParts, key: PartKey, v5: boolean | undefined): unknown {
  const original = request[key]
  const data = original === undefined ? null : original
  const holder = rootHolder(fn, data)
  const ret = callValidator(fn, data, holder)
  if (ret === OVERFLOW) return tooDeep()
  if (ret === false) return fn.errors ?? []
  if (ret !== null && typeof ret === 'object') {
    if (typeof (ret as unknown as PromiseLike<unknown>).then === 'function') return settleAsync(fn, request, key, ret as unknown as Promise<unknown>, holder, data, v5)
    if (ret.error) return ret.error
    if (v5 === true ? 'value' in ret : ret.value) request[key] = ret.value
  }
  if (holder !== undefined && holder.value !== data) request[key] = holder.value
  return PASSED
}

/** An async validator: resolves to PASSED or the failure (a rejection is the failure itself). */
function settleAsync (fn: ValidatorFn, request: RequestParts, key: PartKey, pending: Promise<unknown>, holder: { value: unknown } | undefined,
  data: unknown, v5: boolean | undefined): Promise<unknown> {
  return pending.then((ret) => {
    if (ret === false) return fn.errors ?? []
    if (v5 !== true && ret !== null && typeof ret === 'object') {
      const r = ret as { error?: unknown, value?: unknown }
      if (r.error) return r.error
      if (r.value) request[key] = r.value
    }
    if (holder !== undefined && holder.value !== data) request[key] = holder.value
    return PASSED
  }, (err: unknown) => err ?? [])
}

/** The body validator for the request's media type when the route has one per content type. */
function bodyValidator (validators: RouteValidators, request: RequestParts): ValidatorFn | undefined {
  const byType = validators.bodyByContentType
  if (byType === undefined) return validators.body
  const header = (request.headers as Record<string, unknown> | null)?.['content-type']
  if (typeof header !== 'string') return undefined
  // the same parser that chose the body parser: a header spelled differently (case, a leading
  // space, a tab, whitespace before `;`) cannot pick a parser and miss its schema
  const media = parseMediaType(header)
  return media !== null ? byType[media.essence] : undefined
}

const isPending = (x: unknown): x is Promise<unknown> => x instanceof Promise

/**
 * Headers: a copy is validated, so Ajv's coercion / defaults / removal never touch the raw Node
 * headers; on success the coerced copy (or the validator's `value`) becomes `request.headers`.
 * `v5`: a header the schema removed (`additionalProperties: false`) reads as undefined there, as
 * in Fastify 5, whose validation removes it from the request's headers (`request.host` reads them).
 */
function checkHeaders (fn: ValidatorFn, request: RequestParts, v5: boolean | undefined): unknown {
  const original = request.headers
  const data = original !== null && typeof original === 'object' ? { ...(original as Record<string, unknown>) } : (original ?? null)
  const ret = callValidator(fn, data)
  if (ret === OVERFLOW) return tooDeep()
  if (ret === false) return fn.errors ?? []
  if (ret !== null && typeof ret === 'object') {
    if (typeof (ret as unknown as PromiseLike<unknown>).then === 'function') {
      return (ret as unknown as Promise<unknown>).then((r) => {
        if (r === false) return fn.errors ?? []
        const o = (v5 !== true && r !== null && typeof r === 'object' ? r : {}) as { error?: unknown, value?: unknown }
        if (o.error) return o.error
        request.headers = o.value ? o.value : v5 === true ? markRemoved(original, data) : data
        return PASSED
      }, (err: unknown) => err ?? [])
    }
    if (ret.error) return ret.error
    if (v5 === true ? 'value' in ret : ret.value) {
      request.headers = ret.value
      return PASSED
    }
  }
  request.headers = v5 === true ? markRemoved(original, data) : data
  return PASSED
}

/** `validated`, with each header of `original` it no longer has set to undefined. */
function markRemoved (original: unknown, validated: unknown): unknown {
  if (original === null || typeof original !== 'object' || validated === null || typeof validated !== 'object') return validated
  for (const name in original) if (!(name in validated)) (validated as Record<string, unknown>)[name] = undefined
  return validated
}

/** Builds the 400 error for a failed part. Throws when the formatter does not return an Error. */
export function wrapValidationError (errors: unknown, dataVar: string, formatter: SchemaErrorFormatter): ValidationError {
  if (errors instanceof Error) {
    // a custom validator reported an Error: keep it, fill in what it lacks
    const err = errors as Partial<ValidationError>
    err.statusCode = err.statusCode || 400
    err.code = err.code || 'FST_ERR_VALIDATION'
    err.validationContext = err.validationContext || dataVar
    return err as ValidationError
  }
  const list = Array.isArray(errors) ? errors : [errors]
  const error = formatter(list, dataVar) as unknown
  if (!(error instanceof Error)) {
    throw new errorCodes.FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_ERROR(inspect(error, { depth: 1, breakLength: Infinity }))
  }
  const out = error as ValidationError
  out.statusCode = out.statusCode || 400
  out.code = out.code || 'FST_ERR_VALIDATION'
  out.validation = errors
  out.validationContext = dataVar
  return out
}

/**
 * Validates the request parts that have a validator. Returns null when everything passed (the
 * parts in `request` now hold the coerced values), or the 400 error of the first failing part.
 * Throws whatever the formatter throws, and FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_ERROR (500) when
 * the formatter returns something that is not an Error: both are server bugs, not bad requests.
 */
export function validateRequestParts (validators: RouteValidators, request: RequestParts, formatter: SchemaErrorFormatter, from = 0): ValidationError | null | Promise<ValidationError | null> {
  // unrolled on purpose: this runs on every request of a route with a schema
  let result: unknown
  if (from < 1 && validators.params !== undefined && (result = checkPart(validators.params, request, 'params', validators.fastify5Results)) !== PASSED) {
    return failed(result, 'params', 1, validators, request, formatter)
  }
  let body: ValidatorFn | undefined
  if (from < 2 && (body = bodyValidator(validators, request)) !== undefined && (result = checkPart(body, request, 'body', validators.fastify5Results)) !== PASSED) {
    return failed(result, 'body', 2, validators, request, formatter)
  }
  if (from < 3 && validators.querystring !== undefined && (result = checkPart(validators.querystring, request, 'query', validators.fastify5Results)) !== PASSED) {
    return failed(result, 'querystring', 3, validators, request, formatter)
  }
  if (validators.headers !== undefined && (result = checkHeaders(validators.headers, request, validators.fastify5Results)) !== PASSED) {
    return failed(result, 'headers', 4, validators, request, formatter)
  }
  return null
}

/** A part did not pass synchronously: its 400 error, or (async validator) a promise of the outcome. */
function failed (result: unknown, part: string, next: number, validators: RouteValidators, request: RequestParts,
  formatter: SchemaErrorFormatter): ValidationError | null | Promise<ValidationError | null> {
  if (!isPending(result)) return wrapValidationError(result, part, formatter)
  return result.then((outcome) => outcome === PASSED
    ? (next > 3 ? null : validateRequestParts(validators, request, formatter, next))
    : wrapValidationError(outcome, part, formatter))
}

/**
 * {@link validateRequestParts} for validators known to be synchronous (tests, benchmarks): throws
 * a TypeError if a validator answered with a promise.
 */
export function validateRequest (validators: RouteValidators, request: RequestParts, formatter: SchemaErrorFormatter): ValidationError | null {
  const result = validateRequestParts(validators, request, formatter)
  if (result instanceof Promise) throw new TypeError('a validator answered with a promise: use validateRequestParts')
  return result
}
