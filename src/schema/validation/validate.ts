/**
 * Running a route's validators against a request, in Fastify 4.3's order:
 * params, body, querystring, headers. The first failing part ends validation.
 */
import { inspect } from 'node:util'
import { errorCodes } from '../../errors'
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
function callValidator (fn: ValidatorFn, data: unknown): ReturnType<ValidatorFn> | typeof OVERFLOW {
  try {
    return fn(data)
  } catch (err) {
    if (err instanceof RangeError && /call stack/i.test(err.message)) return OVERFLOW
    throw err
  }
}

function tooDeep (): unknown[] {
  return [{ keyword: 'maxDepth', instancePath: '', schemaPath: '#', params: {}, message: 'must NOT be nested this deeply' }]
}

/**
 * Runs one validator; on success writes the (possibly replaced) value back into `request`.
 * Returns PASSED or the errors of the failure.
 */
function checkPart (fn: ValidatorFn, request: RequestParts, key: PartKey): unknown {
  const original = request[key]
  const data = original === undefined ? null : original
  const ret = callValidator(fn, data)
  if (ret === OVERFLOW) return tooDeep()
  if (ret === false) return fn.errors ?? []
  if (ret !== null && typeof ret === 'object') {
    if (ret.error) return ret.error
    if (ret.value) request[key] = ret.value
  }
  return PASSED
}

/**
 * Headers: a copy is validated, so Ajv's coercion / defaults / removal never touch the raw Node
 * headers; on success the coerced copy (or the validator's `value`) becomes `request.headers`.
 */
function checkHeaders (fn: ValidatorFn, request: RequestParts): unknown {
  const original = request.headers
  const data = original !== null && typeof original === 'object' ? { ...(original as Record<string, unknown>) } : (original ?? null)
  const ret = callValidator(fn, data)
  if (ret === OVERFLOW) return tooDeep()
  if (ret === false) return fn.errors ?? []
  if (ret !== null && typeof ret === 'object') {
    if (ret.error) return ret.error
    if (ret.value) {
      request.headers = ret.value
      return PASSED
    }
  }
  request.headers = data
  return PASSED
}

/** Builds the 400 error for a failed part. Throws when the formatter does not return an Error. */
export function wrapValidationError (errors: unknown, dataVar: string, formatter: SchemaErrorFormatter): ValidationError {
  if (errors instanceof Error) {
    // a custom validator reported an Error: keep it, fill in what it lacks
    const err = errors as Partial<ValidationError>
    err.statusCode = err.statusCode || 400
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
export function validateRequest (validators: RouteValidators, request: RequestParts, formatter: SchemaErrorFormatter): ValidationError | null {
  // unrolled on purpose: this runs on every request of a route with a schema
  let result: unknown
  if (validators.params !== undefined && (result = checkPart(validators.params, request, 'params')) !== PASSED) {
    return wrapValidationError(result, 'params', formatter)
  }
  if (validators.body !== undefined && (result = checkPart(validators.body, request, 'body')) !== PASSED) {
    return wrapValidationError(result, 'body', formatter)
  }
  if (validators.querystring !== undefined && (result = checkPart(validators.querystring, request, 'query')) !== PASSED) {
    return wrapValidationError(result, 'querystring', formatter)
  }
  if (validators.headers !== undefined && (result = checkHeaders(validators.headers, request)) !== PASSED) {
    return wrapValidationError(result, 'headers', formatter)
  }
  return null
}
