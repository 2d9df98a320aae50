/**
 * The default validator compiler: Ajv 8 with Fastify 4.3's baseline options and ajv-formats.
 *
 * One Ajv instance per (shared schemas, customOptions, plugins) configuration, pooled: contexts with
 * the same configuration share it. Inside one instance a schema compiles once: cached by the schema
 * object's identity, then by its content (`schemaContentKey`), so equal schemas written as separate
 * objects (each route's `{ $ref: 'body#' }`) share one validator.
 */
import Ajv from 'ajv'
import type { Options as AjvOptions, ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { poolKey } from './pool-key'
import { schemaContentKey } from '../content-key'
import type { AjvFactoryOptions, ValidatorCompiler, ValidatorCompilerInput, ValidatorFn } from './types'

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

type AjvPlugin = (ajv: Ajv, options?: unknown) => unknown

/** The compiler functions we hand out carry their Ajv instance (tests, advanced users). */
export interface DefaultValidatorCompiler extends ValidatorCompiler {
  readonly ajv: Ajv
}

const pool = new Map<string, DefaultValidatorCompiler>()

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

/** A fresh Ajv instance configured like the default compiler's (no shared schemas added). */
export function buildAjv (options: AjvFactoryOptions = {}): Ajv {
  const ajv = new Ajv({ ...DEFAULT_AJV_OPTIONS, ...(options.customOptions ?? {}) } as AjvOptions)
  const plugins = options.plugins ?? []
  applyPlugins(ajv, plugins)
  // the user may bring their own (configured) ajv-formats; then we do not add it twice
  if (!plugins.some((p) => pluginName(p) === 'formatsPlugin')) addFormats(ajv)
  return ajv
}

function createCompiler (sharedSchemas: Record<string, Record<string, unknown>>, options: AjvFactoryOptions): DefaultValidatorCompiler {
  const ajv = buildAjv(options)
  for (const schema of Object.values(sharedSchemas)) ajv.addSchema(schema)
  const compiled = new WeakMap<object, ValidatorFn>()
  const byContent = new Map<string, ValidatorFn>()

  const compile = function defaultValidatorCompiler ({ schema }: ValidatorCompilerInput): ValidatorFn {
    const isObject = schema !== null && typeof schema === 'object'
    if (isObject) {
      const hit = compiled.get(schema)
      if (hit !== undefined) return hit
      // a route schema that IS a shared schema (e.g. `body: fastify.getSchema('user')`)
      if (typeof schema.$id === 'string' && schema.$id !== '') {
        let stored: ValidateFunction | undefined
        try { stored = ajv.getSchema(schema.$id) } catch { stored = undefined }
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
    const fn = ajv.compile(schema) as unknown as ValidatorFn
    if (isObject) compiled.set(schema, fn)
    if (key !== undefined) byContent.set(key, fn)
    return fn
  } as DefaultValidatorCompiler
  Object.defineProperty(compile, 'ajv', { value: ajv, enumerable: false })
  return compile
}

/**
 * The default compiler for one set of shared schemas (from `SchemaStore.getAll()`) and the
 * server's `ajv` option. Same schemas + options -> the same compiler (and Ajv instance).
 */
export function createDefaultValidatorCompiler (sharedSchemas: Record<string, Record<string, unknown>>, ajv: AjvFactoryOptions = {}): DefaultValidatorCompiler {
  const options: AjvFactoryOptions = { customOptions: ajv.customOptions ?? {}, plugins: ajv.plugins ?? [] }
  let key: string | undefined
  try {
    key = poolKey(sharedSchemas, options.customOptions, options.plugins)
  } catch {
    key = undefined // not keyable (e.g. a getter that throws): no pooling
  }
  if (key !== undefined) {
    const hit = pool.get(key)
    if (hit !== undefined) return hit
  }
  const compiler = createCompiler(sharedSchemas ?? {}, options)
  if (key !== undefined) pool.set(key, compiler)
  return compiler
}

/** Test helper: forget pooled compilers. */
export function clearValidatorCompilerPool (): void {
  pool.clear()
}
