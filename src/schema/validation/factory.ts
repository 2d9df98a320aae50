/**
 * `schemaController.compilersFactory.buildValidator` support: the core hands us the user's factory,
 * the context's shared schemas and the server's `ajv` option; we call it the way Fastify 4.3 does
 * and check that it produced a compiler.
 */
import { createDefaultValidatorCompiler } from './ajv-compiler'
import type { AjvFactoryOptions, ValidatorCompiler, ValidatorCompilerFactory } from './types'

/** Fastify 4.3 always passes the `ajv` option with both keys present. */
export function normalizeAjvOptions (ajv: AjvFactoryOptions | undefined): Required<AjvFactoryOptions> {
  return { customOptions: ajv?.customOptions ?? {}, plugins: ajv?.plugins ?? [] }
}

/** The default factory, shaped like `compilersFactory.buildValidator`. */
export const defaultValidatorCompilerFactory: ValidatorCompilerFactory = (externalSchemas, ajvOptions) =>
  createDefaultValidatorCompiler(externalSchemas as Record<string, Record<string, unknown>>, ajvOptions)

/**
 * Builds the compiler of a context from a `compilersFactory.buildValidator` function. With no
 * factory (undefined/null) the default Ajv compiler is used.
 */
export function buildValidatorCompilerFromFactory (
  factory: ValidatorCompilerFactory | undefined | null,
  sharedSchemas: Record<string, unknown>,
  ajvOptions?: AjvFactoryOptions
): ValidatorCompiler {
  const options = normalizeAjvOptions(ajvOptions)
  const build = factory ?? defaultValidatorCompilerFactory
  if (typeof build !== 'function') {
    throw new TypeError(`schemaController.compilersFactory.buildValidator must be a function, got ${typeof build}`)
  }
  // a copy, so a factory that keeps or edits the object cannot alter the context's store view
  const compiler = build({ ...sharedSchemas }, options)
  if (typeof compiler !== 'function') {
    throw new TypeError(`schemaController.compilersFactory.buildValidator must return a validator compiler function, got ${compiler === null ? 'null' : typeof compiler}`)
  }
  return compiler
}
