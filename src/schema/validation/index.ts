/**
 * Request validation (capability 2): the seam the core calls.
 *
 *  - createDefaultValidatorCompiler(sharedSchemas, ajv) -> the pooled Ajv 8 compiler of a context
 *  - compileRouteValidators({ schema, method, url, compiler }) -> the route's part validators
 *  - validateRequest(validators, parts, formatter) -> null, or the 400 error
 *
 * See docs/validation.md.
 */
export type {
  HttpPart,
  ValidatorCompilerInput,
  ValidationResult,
  ValidatorFn,
  ValidatorCompiler,
  AjvFactoryOptions,
  RouteSchema,
  RouteValidators,
  RequestParts,
  SchemaErrorFormatter,
  ValidationError,
  ValidatorCompilerFactory
} from './types'
export { createDefaultValidatorCompiler, buildAjv, DEFAULT_AJV_OPTIONS, effectiveAjvOptions, clearValidatorCompilerPool } from './ajv-compiler'
export type { DefaultValidatorCompiler } from './ajv-compiler'
export { compileRouteValidators, hasRequestSchemas, warnMissingParts } from './route-validators'
export type { CompileRouteValidatorsInput } from './route-validators'
export { validateRequest, validateRequestParts, wrapValidationError } from './validate'
export { defaultSchemaErrorFormatter } from './error-formatter'
export { normalizeSchema, isPlainSchemaObject, expandShorthand, lowercaseHeaderSchema } from './normalize'
export type { NormalizeOptions } from './normalize'
export { buildValidatorCompilerFromFactory, defaultValidatorCompilerFactory, normalizeAjvOptions } from './factory'
