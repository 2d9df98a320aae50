/**
 * The persistent compile cache of the default validator compiler (opt-in, `schemaCache: { dir }`;
 * docs/schema-cache.md). Ajv's standalone code of each compiled route schema is stored under
 * a key that hashes every input the code depends on:
 *
 *  - the schema's content (its JSON text, in its own key order);
 *  - the shared schemas it may reach: the whole set (by content) when the schema has any
 *    non-local `$ref`, any `$id` or a dynamic ref; none otherwise;
 *  - the effective Ajv options (trellis' baseline + `ajv.customOptions`);
 *  - the versions of trellis, ajv, ajv-formats, the cache format and Node's major version.
 *
 * Any change of an input is another key (a miss); nothing is ever looked up by schema name.
 * Configurations whose code depends on something that is not plain data cannot be keyed across
 * processes and bypass the cache entirely: Ajv plugins (`ajv.plugins`), options holding functions
 * or class instances (custom formats or keywords as functions, `uriResolver`, `code.regExp`, a
 * logger object), `formats` / `keywords` in `customOptions`, `addUsedSchema` other than false, and
 * schemas that are not plain JSON.
 * Custom validator compilers never reach the default compiler, so they never touch the cache.
 */
import type Ajv from 'ajv'
import { checkCacheDir, readEntry, writeEntry } from './store'
import { loadStandalone } from './load-standalone'
import { createValidatorKeyer, currentVersions, standaloneCodeOf, type CacheVersions } from './validator-keys'
import { markAjvStandalone } from '../validate'
import type { ValidatorFn } from '../types'
import type { SchemaCacheOptions } from '../../../base/option-types'

export { currentVersions }

interface ValidatorCodeCache {
  readonly dir: string
  /** The cache key of a route schema, or undefined when it cannot be keyed (not plain JSON). */
  keyOf: (schema: unknown) => string | undefined
  /** The validator stored for `key`, loaded; undefined on a miss (or a file that fails its checks). */
  load: (key: string) => ValidatorFn | undefined
  /** Stores Ajv's standalone code of `fn` (compiled by `ajv` with `code.source`). */
  store: (key: string, ajv: Ajv, fn: ValidatorFn) => void
  /** Whether this shared-schema set + options was accepted by Ajv before (so building Ajv can wait for a miss). */
  sharedSetAccepted: () => boolean
  markSharedSetAccepted: () => void
}

const warnedDirs = new Set<string>()
export function warnUnusable (dir: string, reason: string): void {
  if (warnedDirs.has(dir)) return
  warnedDirs.add(dir)
  process.emitWarning(`schemaCache directory ${JSON.stringify(dir)} is not used: ${reason}`, 'TrellisWarning', 'TRELLIS_SCHEMA_CACHE_DIR')
}

/**
 * The cache for one default-compiler configuration, or undefined when that configuration cannot
 * use it (see the module comment) or the directory is not usable (a warning says why, once).
 */
export function createValidatorCodeCache (
  options: SchemaCacheOptions,
  sharedSchemas: Record<string, unknown>,
  effectiveOptions: Record<string, unknown>,
  customOptions: Record<string, unknown>,
  plugins: readonly unknown[],
  versions: CacheVersions = currentVersions()
): ValidatorCodeCache | undefined {
  const keyer = createValidatorKeyer(sharedSchemas, effectiveOptions, customOptions, plugins, versions)
  if (keyer === undefined) return undefined
  const dir = options.dir
  const unusable = checkCacheDir(dir)
  if (unusable !== null) { warnUnusable(dir, unusable); return undefined }
  const sharedSetKey = keyer.sharedSetKey

  return {
    dir,
    keyOf: keyer.keyOf,
    load (key) {
      const code = readEntry(dir, key, 'validator')
      if (code === undefined) return undefined
      try {
        return markAjvStandalone(loadStandalone(code))
      } catch {
        return undefined // verified but unusable (e.g. written by a trellis with other runtime helpers): recompile
      }
    },
    store (key, ajv, fn) {
      const code = standaloneCodeOf(ajv, fn)
      if (code !== undefined) writeEntry(dir, key, 'validator', code) // else it could not be loaded again: not stored
    },
    sharedSetAccepted: () => readEntry(dir, sharedSetKey, 'marker') !== undefined,
    markSharedSetAccepted: () => writeEntry(dir, sharedSetKey, 'marker', '')
  }
}
