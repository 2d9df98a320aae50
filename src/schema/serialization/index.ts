/**
 * Public seam of capability 3 (response serialization). The core calls exactly these.
 * See docs/serialization.md.
 */
import { serializerFromSchema, generateSource, type CompileOptions, type SerializerFn } from './compile'
import { getCached, getCachedByContent, setCached, sharedSchemasKey } from './cache'
import type { SerializerSourceCache, createSerializerSourceCache } from './source-cache'
import type { AotSerializers, aotSerializers as AotSerializersFactory } from '../aot/serializers'
import { aotRecorder } from '../aot/recording'
import type { AotOptions } from '../../base/option-types'

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
    (options.projectArrays === undefined ? '' : options.projectArrays ? '+project' : '-project') +
    (options.byteArrays === false ? '-bytes' : '')
}

/**
 * Compiles (or returns the cached serializer for) `schema` with the given shared schemas.
 * The result carries the generated `source`. With a `sourceCache` (the persistent schema cache),
 * a schema compiled by no earlier server of this process is looked up on disk first.
 */
export function compileSerializer (schema: unknown, options: CompileOptions = {}, sourceCache?: SerializerSourceCache, aot?: AotSerializers, where: () => string = () => 'a response'): SerializerFn & { source: string } {
  const key = sharedSchemasKey(options.sharedSchemas) + '|' + optionsKey(options)
  const cached = getCached(schema, key)
  if (cached !== undefined) return cached as SerializerFn & { source: string }
  const equal = getCachedByContent(schema, key)
  if (equal.fn !== undefined) {
    setCached(schema, key, equal.fn)
    return equal.fn as SerializerFn & { source: string }
  }
  const fn = aot?.compile(schema, options, where) ?? sourceCache?.compile(schema, options) ?? serializerFromSchema(schema, options)
  setCached(schema, key, fn, equal.contentKey)
  return fn
}

/**
 * The default serializer compiler for one set of shared schemas (`SchemaStore.getAll()`).
 * `rounding` comes from the `serializerOpts` server option (fast-json-stringify's option name).
 */
export function createDefaultSerializerCompiler (sharedSchemas: SharedSchemas, options: Pick<CompileOptions, 'debug' | 'rounding'> = {}, schemaCache?: { dir: string }, aotOptions?: AotOptions): SerializerCompiler {
  let sourceCache: SerializerSourceCache | undefined | null = schemaCache === undefined ? undefined : null
  // `trellis build` (docs/deployment.md): read at start, or recorded by the build command
  let aot: AotSerializers | undefined | null = aotOptions === undefined && aotRecorder() === null ? undefined : null
  return function defaultSerializerCompiler ({ schema, method, url, httpStatus, contentType }: SerializerCompilerInput): SerializerFn {
    if (sourceCache === null) sourceCache = serializerSourceCache(schemaCache!.dir, sharedSchemas)
    if (aot === null) aot = aotSerializerSide(aotOptions, sharedSchemas)
    const where = (): string => `${String(method)} ${url} response ${httpStatus}${contentType === undefined ? '' : ` (${contentType})`}`
    return compileSerializer(schema, { sharedSchemas, debug: options.debug, rounding: options.rounding }, sourceCache, aot, where)
  }
}

// one source cache per (directory, shared-schema set), built on the first schema compiled with it
const sourceCaches = new Map<string, SerializerSourceCache | undefined>()
function serializerSourceCache (dir: string, sharedSchemas: SharedSchemas): SerializerSourceCache | undefined {
  const key = dir + '\0' + sharedSchemasKey(sharedSchemas)
  if (sourceCaches.has(key)) return sourceCaches.get(key)
  // loaded only when the cache is on (it brings node:crypto and node:fs)
  const cache = (require('./source-cache') as { createSerializerSourceCache: typeof createSerializerSourceCache }).createSerializerSourceCache(dir, sharedSchemas)
  sourceCaches.set(key, cache)
  if (sourceCaches.size > 100) sourceCaches.delete(sourceCaches.keys().next().value as string)
  return cache
}

// one build side per (directory or recording, shared-schema set), as the source caches above
const aotSides = new Map<string, AotSerializers | undefined>()
function aotSerializerSide (aotOptions: AotOptions | undefined, sharedSchemas: SharedSchemas): AotSerializers | undefined {
  const key = (aotRecorder() !== null ? 'recording' : `${String(aotOptions?.line)}:${String(aotOptions?.dir)}`) + '\0' + sharedSchemasKey(sharedSchemas)
  if (aotSides.has(key)) return aotSides.get(key)
  const side = (require('../aot/serializers') as { aotSerializers: typeof AotSerializersFactory }).aotSerializers(aotOptions, sharedSchemas)
  aotSides.set(key, side)
  if (aotSides.size > 100) aotSides.delete(aotSides.keys().next().value as string)
  return side
}
