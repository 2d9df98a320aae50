/**
 * The validation seam's types. The core (routes, request lifecycle) talks to validation only
 * through these shapes; see ./index.ts for the functions.
 */

/** The four request parts a route schema may describe. */
export type HttpPart = 'body' | 'querystring' | 'params' | 'headers'

/** What a validator compiler receives for one part of one route. */
export interface ValidatorCompilerInput { schema: any; method: string; url: string; httpPart: HttpPart; contentType?: string }

/**
 * What a validator function returns:
 *  - `true` (or any truthy non-object): valid, data kept (Ajv may have coerced it in place);
 *  - `false`: invalid, the errors are read from `fn.errors` (Ajv's convention);
 *  - `{ value }`: valid, `value` replaces the request part (coerced data);
 *  - `{ error }`: invalid; `error` is an array of errors or an Error.
 */
export type ValidationResult = boolean | { value?: unknown; error?: unknown }
export type ValidatorFn = ((data: any) => ValidationResult) & { errors?: unknown }
export type ValidatorCompiler = (input: ValidatorCompilerInput) => ValidatorFn

/** The `ajv` factory option: `customOptions` merged over the baseline, `plugins` applied in order. */
export interface AjvFactoryOptions { customOptions?: Record<string, unknown>; plugins?: Array<unknown | [unknown, unknown]> }

/** `schema` route option. `query` is an alias of `querystring`. */
export interface RouteSchema {
  body?: unknown
  querystring?: unknown
  query?: unknown
  params?: unknown
  headers?: unknown
  response?: unknown
  [k: string]: unknown
}

/** Compiled validators of one route; a missing entry means "that part is not validated". */
export interface RouteValidators {
  body?: ValidatorFn
  /** Body validators by media type (`body.content[type].schema`, Fastify 4.29); replaces `body`. */
  bodyByContentType?: Record<string, ValidatorFn>
  querystring?: ValidatorFn
  params?: ValidatorFn
  headers?: ValidatorFn
  /**
   * Fastify 5's reading of validator results: a `{ value }` replaces the part whatever the value
   * (`{ value: 0 }` makes the body 0), and an async validator only passes or fails (what it
   * resolves with is the validated data, whose `value` / `error` keys are the client's). Without
   * it, Fastify 4's: only a truthy `value` replaces the part, async results are read like sync ones.
   */
  fastify5Results?: boolean
}

/**
 * The request parts to validate. `validateRequest` writes coerced values back into this object
 * (`query` for the querystring part), so the caller reads the parts back from it afterwards.
 */
export interface RequestParts { body: unknown; query: unknown; params: unknown; headers: unknown }

/** Turns validation errors into the Error sent as the 400 response. Must return an Error. */
export type SchemaErrorFormatter = (errors: unknown[], dataVar: string) => Error

/** The error `validateRequest` returns: an Error with the 400 status and the raw errors. */
export interface ValidationError extends Error {
  statusCode: number
  code: string
  validation?: unknown
  validationContext: string
}

/**
 * `schemaController.compilersFactory.buildValidator` of Fastify 4.3: given the shared schemas of a
 * context and the server's `ajv` option, returns the validator compiler for that context.
 */
export type ValidatorCompilerFactory = (externalSchemas: Record<string, unknown>, ajvOptions: AjvFactoryOptions) => ValidatorCompiler
