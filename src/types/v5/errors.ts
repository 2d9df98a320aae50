/** Errors as the Fastify 5 line types them: validation errors carry Ajv's errors and the request part. */
import type { FastifySchemaValidationError, SchemaErrorDataVar } from './schema'

export interface FastifyError extends Error {
  code: string
  name: string
  statusCode?: number
  /** On validation errors: the validator's errors. */
  validation?: FastifySchemaValidationError[]
  /** On validation errors: the request part that failed. */
  validationContext?: SchemaErrorDataVar
}

/** An error class of `errorCodes` (callable with or without `new`). */
export interface FastifyErrorConstructor<E extends { code: string, statusCode?: number } = { code: string, statusCode?: number }, T extends unknown[] = [any?, any?, any?]> {
  new (...args: T): FastifyError & E
  (...args: T): FastifyError & E
  readonly prototype: FastifyError & E
}
