/**
 * Public seam of capability 3 (response serialization). The core calls exactly these.
 * See docs/serialization.md.
 */
import { compileSerializer as compileUncached, generateSource, type CompileOptions, type SerializerFn } from './compile'
import { getCached, getCachedByContent, setCached, sharedSchemasKey } from './cache'

export type { SerializerFn, CompileOptions } from './compile'
export { compileResponseSerializers, normalizeResponseSchema, type ResponseSerializers } from './response-schemas'
export { generateSource }

export interface SerializerCompilerInput { schema: any, method: string, url: string, httpStatus: string, contentType?: string }
export type SerializerCompiler = (input: SerializerCompilerInput) => SerializerFn

type SharedSchemas = Record<string, Record<string, unknown>>

function optionsKey (options: CompileOptions): string {
  return (options.rounding ?? 'trunc') + (options.debug === true ? '+debug' : '') +
    (options.projectArrayFields === undefined ? '' : options.projectArrayFields ? '+arrays' : '-arrays') +
    (options.straightObjects === false ? '-straight' : '') +
    (options.projectArrays === undefined ? '' : options.projectArrays ? '+project' : '-project')
}

/**
 * Compiles (or returns the cached serializer for) `schema` with the given shared schemas.
 * The result carries the generated `source`.
 */
export function compileSerializer (schema: unknown, options: CompileOptions = {}): SerializerFn & { source: string } {
  const key = sharedSchemasKey(options.sharedSchemas) + '|' + optionsKey(options)
  const cached = getCached(schema, key)
  if (cached !== undefined) return cached as SerializerFn & { source: string }
  const equal = getCachedByContent(schema, key)
  if (equal.fn !== undefined) {
    setCached(schema, key, equal.fn)
    return equal.fn as SerializerFn & { source: string }
  }
  const fn = compileUncached(schema, options)
  setCached(schema, key, fn, equal.contentKey)
  return fn
}

/**
 * The default serializer compiler for one set of shared schemas (`SchemaStore.getAll()`).
 * `rounding` comes from the `serializerOpts` server option (fast-json-stringify's option name).
 */
export function createDefaultSerializerCompiler (sharedSchemas: SharedSchemas, options: Pick<CompileOptions, 'debug' | 'rounding'> = {}): SerializerCompiler {
  return function defaultSerializerCompiler ({ schema }: SerializerCompilerInput): SerializerFn {
    return compileSerializer(schema, { sharedSchemas, debug: options.debug, rounding: options.rounding })
  }
}
