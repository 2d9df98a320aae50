/**
 * The default validator compiler: Ajv 8 with Fastify 4.3's baseline options and ajv-formats.
 *
 * One Ajv instance per (shared schemas, customOptions, plugins) configuration, pooled: contexts with
 * the same configuration share it. Inside one instance a schema compiles once: cached by the schema
 * object's identity, then by its content (`schemaContentKey`), so equal schemas written as separate
 * objects (each route's `{ $ref: 'body#' }`) share one validator.
 */
import type Ajv from 'ajv'
import type { Options as AjvOptions, ValidateFunction } from 'ajv'
import { configurationKey, schemaContentKey } from '../content-key'
import type { createValidatorCodeCache } from './compile-cache/validator-code-cache'
import type { AotOptions, SchemaCacheOptions } from '../../base/option-types'
import type { aotValidators as AotValidatorsFactory } from '../aot/validators'
import { aotRecorder } from '../aot/recording'
import type { AjvFactoryOptions, ValidatorCompiler, ValidatorCompilerInput, ValidatorFn } from './types'

// Ajv and ajv-formats are loaded on first use: a server without request schemas (or whose
// validators all come from the schema cache) never loads them.
function ajvClass (): typeof Ajv {
  return (require('ajv') as { default: typeof Ajv }).default
}
function addFormats (ajv: Ajv): void {
  (require('ajv-formats') as { default: (ajv: Ajv) => unknown }).default(ajv)
}

/** Fastify 4.3's baseline. `allErrors` stays false: true lets a crafted payload cost a lot of CPU. */
export const DEFAULT_AJV_OPTIONS: Readonly<AjvOptions> = Object.freeze({
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: true,
  // schemas compiled for routes are not registered in the instance: two routes may use the same
  // `$id` for different schemas, and memory does not grow with every compiled route schema
  addUsedSchema: false,
  allErrors: false
})

/**
 * Ajv's `code.optimize` pass is off unless `ajv.customOptions.code.optimize` says otherwise: it
 * was about half of Ajv's compile time (a boot with 1,000 distinct schemas: ~5.5 s -> ~2.8 s CPU) and
 * the validators it produces ran no faster, on Node 20 or 24 (docs/validation.md, "Compile speed").
 */
const DEFAULT_AJV_CODE_OPTIONS: Readonly<Record<string, unknown>> = Object.freeze({ optimize: false })

/**
 * The options the default compiler gives Ajv: trellis' baseline, then `ajv.customOptions` (which
 * wins, as in Fastify 4.3), with `code.optimize` defaulting to false unless the user's `code` sets it.
 */
export function effectiveAjvOptions (customOptions: Record<string, unknown> = {}): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...DEFAULT_AJV_OPTIONS, ...customOptions }
  const code = customOptions.code
  if (code === undefined) merged.code = { ...DEFAULT_AJV_CODE_OPTIONS }
  else if (code !== null && typeof code === 'object' && !('optimize' in code)) merged.code = { ...DEFAULT_AJV_CODE_OPTIONS, ...code }
  return merged
}

type AjvPlugin = (ajv: Ajv, options?: unknown) => unknown

/** The compiler functions we hand out carry their Ajv instance (tests, advanced users). */
export interface DefaultValidatorCompiler extends ValidatorCompiler {
  readonly ajv: Ajv
}

const pool = new Map<string, DefaultValidatorCompiler>()

/**
 * Every Ajv instance compiles the JSON Schema meta-schema into a validator the first time it checks
 * a schema against it (~20–30 ms of CPU, more than compiling a route schema). The default compiler
 * makes one instance per set of shared schemas, so an application whose plugins add schemas pays
 * that once per plugin. Instead, the first instance built with given options checks schemas for
 * every later one with the same options: same meta-schema, same options and formats, so the same
 * verdict and the same error ("schema is invalid: ..."), thrown at the same point of Ajv's compile
 * or addSchema. Not shared (each instance checks for itself) when anything can make two such
 * instances differ in their meta-schemas: `ajv.plugins`, the options below, or a schema naming its
 * own `$schema` (a shared schema may be a meta-schema).
 */
const metaCheckers = new Map<string, Ajv>()
const OWN_META_OPTIONS = ['validateSchema', 'meta', 'defaultMeta', 'schemas', 'keywords', 'formats', 'logger']

function shareMetaSchemaChecks (ajv: Ajv, options: AjvFactoryOptions): void {
  const custom = options.customOptions ?? {}
  if (custom === null || typeof custom !== 'object' || (options.plugins ?? []).length > 0 || OWN_META_OPTIONS.some((name) => name in custom)) return
  const key = configurationKey(custom)
  if (key === undefined) return
  const checker = metaCheckers.get(key)
  if (checker === undefined) { metaCheckers.set(key, ajv); return }
  const own = ajv.validateSchema.bind(ajv)
  ajv.validateSchema = function validateSchema (schema, throwOrLogError) {
    if (schema !== null && typeof schema === 'object' && '$schema' in schema) return own(schema, throwOrLogError)
    const valid = checker.validateSchema(schema, throwOrLogError)
    ajv.errors = checker.errors
    return valid
  }
}

function pluginName (entry: unknown): string {
  const fn = Array.isArray(entry) ? entry[0] : entry
  return typeof fn === 'function' ? fn.name : ''
}

function applyPlugins (ajv: Ajv, plugins: ReadonlyArray<unknown>): void {
  for (const entry of plugins) {
    const [plugin, options] = Array.isArray(entry) ? entry : [entry, undefined]
    if (typeof plugin !== 'function') {
      throw new TypeError(`ajv.plugins entries must be a plugin function or [plugin, options]; got ${typeof plugin}`)
    }
    if (Array.isArray(entry)) (plugin as AjvPlugin)(ajv, options)
    else (plugin as AjvPlugin)(ajv)
  }
}

/**
 * A fresh Ajv instance configured like the default compiler's (no shared schemas added). With
 * `keepSource` (the schema cache), validators keep their source for Ajv's standalone code.
 */
export function buildAjv (options: AjvFactoryOptions = {}, keepSource = false): Ajv {
  const merged = effectiveAjvOptions(options.customOptions)
  if (keepSource) merged.code = { ...(merged.code as Record<string, unknown> | undefined), source: true, esm: false }
  const Ajv = ajvClass()
  const ajv = new Ajv(merged as AjvOptions)
  const plugins = options.plugins ?? []
  applyPlugins(ajv, plugins)
  // the user may bring their own (configured) ajv-formats; then we do not add it twice
  if (!plugins.some((p) => pluginName(p) === 'formatsPlugin')) addFormats(ajv)
  return ajv
}

function createCompiler (sharedSchemas: Record<string, Record<string, unknown>>, options: AjvFactoryOptions, cacheOptions: SchemaCacheOptions | undefined, aotOptions: AotOptions | undefined): DefaultValidatorCompiler {
  const custom = options.customOptions ?? {}
  // `trellis build` (docs/deployment.md): read at start, or recorded by the build command
  const aot = aotOptions === undefined && aotRecorder() === null
    ? undefined
    : (require('../aot/validators') as { aotValidators: typeof AotValidatorsFactory }).aotValidators(aotOptions, sharedSchemas, effectiveAjvOptions(custom), custom, options.plugins ?? [])
  const cache = cacheOptions === undefined || aot?.recording === true
    ? undefined
    // loaded only when the cache is on (it brings node:crypto)
    : (require('./compile-cache/validator-code-cache') as { createValidatorCodeCache: typeof createValidatorCodeCache }).createValidatorCodeCache(cacheOptions, sharedSchemas, effectiveAjvOptions(custom), custom, options.plugins ?? [])
  let instance: Ajv | undefined
  const getAjv = (): Ajv => {
    if (instance !== undefined) return instance
    const ajv = buildAjv(options, cache !== undefined || aot?.recording === true)
    shareMetaSchemaChecks(ajv, options)
    for (const schema of Object.values(sharedSchemas)) ajv.addSchema(schema)
    instance = ajv
    return ajv
  }
  // Ajv is built now (an invalid shared schema throws here, at ready()), unless the cache knows
  // that Ajv accepted this very set of shared schemas with these options: then on the first miss
  // (or the build's Ajv accepted them)
  if (aot?.sharedSetAccepted === true) {
    // checked when the application was built
  } else if (cache === undefined) getAjv()
  else if (!cache.sharedSetAccepted()) { getAjv(); cache.markSharedSetAccepted() }

  const compiled = new WeakMap<object, ValidatorFn>()
  const byContent = new Map<string, ValidatorFn>()

  const compile = function defaultValidatorCompiler (input: ValidatorCompilerInput): ValidatorFn {
    const schema = input.schema
    const isObject = schema !== null && typeof schema === 'object'
    if (isObject) {
      const hit = compiled.get(schema)
      if (hit !== undefined) return hit
      // a route schema that IS a shared schema (e.g. `body: fastify.getSchema('user')`)
      if (typeof schema.$id === 'string' && schema.$id !== '') {
        let stored: ValidateFunction | undefined
        try { stored = getAjv().getSchema(schema.$id) } catch { stored = undefined }
        if (stored !== undefined) {
          compiled.set(schema, stored as ValidatorFn)
          return stored as ValidatorFn
        }
      }
    }
    const key = isObject ? schemaContentKey(schema) : undefined
    if (key !== undefined) {
      const equal = byContent.get(key)
      if (equal !== undefined) {
        compiled.set(schema, equal)
        return equal
      }
    }
    let fn = aot !== undefined && isObject ? aot.find(schema, input) : undefined
    const cacheKey = fn === undefined && cache !== undefined && isObject ? cache.keyOf(schema) : undefined
    if (fn === undefined && cacheKey !== undefined) fn = cache!.load(cacheKey)
    if (fn !== undefined) {
      (fn as { schema?: unknown }).schema = schema // as Ajv's own validators carry it
    } else {
      const ajv = getAjv()
      fn = ajv.compile(schema) as unknown as ValidatorFn
      if (isObject) aot?.compiled(schema, ajv, fn)
      if (cacheKey !== undefined) {
        cache!.store(cacheKey, ajv, fn)
        // the source was kept for the cache only; a route validator is never referenced by another schema
        delete (fn as { source?: unknown }).source
      }
    }
    if (isObject) compiled.set(schema, fn)
    if (key !== undefined) byContent.set(key, fn)
    return fn
  } as DefaultValidatorCompiler
  Object.defineProperty(compile, 'ajv', { get: getAjv, enumerable: false })
  return compile
}

/**
 * The default compiler for one set of shared schemas (from `SchemaStore.getAll()`) and the
 * server's `ajv` option. Same schemas + options -> the same compiler (and Ajv instance).
 */
export function createDefaultValidatorCompiler (
  sharedSchemas: Record<string, Record<string, unknown>>,
  ajv: AjvFactoryOptions = {},
  schemaCache?: SchemaCacheOptions,
  aot?: AotOptions
): DefaultValidatorCompiler {
  const options: AjvFactoryOptions = { customOptions: ajv.customOptions ?? {}, plugins: ajv.plugins ?? [] }
  // undefined when not keyable (e.g. a getter that throws): no pooling
  const key = configurationKey(sharedSchemas, options.customOptions, options.plugins, schemaCache?.dir ?? null, aot === undefined ? null : `${aot.line}:${aot.dir}`, aotRecorder() !== null)
  if (key !== undefined) {
    const hit = pool.get(key)
    if (hit !== undefined) return hit
  }
  const compiler = createCompiler(sharedSchemas ?? {}, options, schemaCache, aot)
  if (key !== undefined) pool.set(key, compiler)
  return compiler
}

/** Test helper: forget pooled compilers. */
export function clearValidatorCompilerPool (): void {
  pool.clear()
  metaCheckers.clear()
}
