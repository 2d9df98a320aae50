/**
 * Running a route's validators against a request, in Fastify 4.3's order:
 * params, body, querystring, headers. The first failing part ends validation.
 */
import { inspect } from 'node:util'
import { errorCodes } from '../../errors'
import type { RequestParts, RouteValidators, SchemaErrorFormatter, ValidationError, ValidatorFn } from './types'

type PartKey = keyof RequestParts
type Outcome = { ok: true } | { ok: false, errors: unknown }

const ORDER: ReadonlyArray<readonly [keyof RouteValidators, PartKey, string]> = [
  ['params', 'params', 'params'],
  ['body', 'body', 'body'],
  ['querystring', 'query', 'querystring'],
  ['headers', 'headers', 'headers']
]

const PASS: Outcome = { ok: true }

/** Runs one validator; on success writes the (possibly replaced) value back into `request`. */
function runValidator (fn: ValidatorFn, request: RequestParts, key: PartKey): Outcome {
  const original = request[key]
  // headers: validate a copy, so Ajv's coercion / defaults never touch the raw Node headers; the
  // coerced copy then becomes the request's headers
  const data = key === 'headers' && original !== null && typeof original === 'object'
    ? { ...(original as Record<string, unknown>) }
    : (original === undefined ? null : original)
  const ret = fn(data)
  if (ret === false) return { ok: false, errors: fn.errors ?? [] }
  if (ret !== null && typeof ret === 'object') {
    if (ret.error) return { ok: false, errors: ret.error }
    if (ret.value) {
      request[key] = ret.value
      return PASS
    }
  }
  if (key === 'headers' && data !== original) request[key] = data
  return PASS
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
  for (const [validatorKey, requestKey, dataVar] of ORDER) {
    const fn = validators[validatorKey]
    if (fn === undefined) continue
    const outcome = runValidator(fn, request, requestKey)
    if (!outcome.ok) return wrapValidationError(outcome.errors, dataVar, formatter)
  }
  return null
}
