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
import { VERSION } from '../../../base/version'
import { canonicalOptionsText, canonicalSchemaText } from '../../content-key'
import { canonicalSharedSchemasText, mayReachSharedSchemas } from './canonical'
import { checkCacheDir, readEntry, sha256, writeEntry } from './store'
import { ALLOWED_MODULES, loadStandalone } from './load-standalone'
import { markAjvStandalone } from '../validate'
import type { ValidatorFn } from '../types'
import type { SchemaCacheOptions } from '../../../base/option-types'

/** The `schemaCache` server option. */

/** Bumped when the storage format or what is stored changes (2: pack files). */
const CACHE_FORMAT = 2

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

function packageVersion (name: string): string {
  return String((require(name + '/package.json') as { version?: unknown }).version)
}

/** The versions a cache key includes: the code Ajv generates may change with any of them. */
interface CacheVersions { format: number, trellis: string, ajv: string, ajvFormats: string, nodeMajor: string }

let versionsNow: CacheVersions | undefined
export function currentVersions (): CacheVersions {
  versionsNow ??= {
    format: CACHE_FORMAT,
    trellis: VERSION,
    ajv: packageVersion('ajv'),
    ajvFormats: packageVersion('ajv-formats'),
    nodeMajor: process.versions.node.split('.')[0]
  }
  return versionsNow
}

/** Whether every `require(...)` in the code names an allowed module (Ajv writes them as `require("id")`). */
function onlyAllowedRequires (code: string): boolean {
  for (let at = code.indexOf('require('); at >= 0; at = code.indexOf('require(', at + 8)) {
    const end = code.indexOf(')', at)
    let id: unknown
    try { id = JSON.parse(code.slice(at + 8, end < 0 ? code.length : end)) } catch { return false }
    if (typeof id !== 'string' || !ALLOWED_MODULES.includes(id)) return false
  }
  return true
}

const warnedDirs = new Set<string>()
export function warnUnusable (dir: string, reason: string): void {
  if (warnedDirs.has(dir)) return
  warnedDirs.add(dir)
  process.emitWarning(`schemaCache directory ${JSON.stringify(dir)} is not used: ${reason}`, 'TrellisWarning', 'TRELLIS_SCHEMA_CACHE_DIR')
}

/** How route schemas of one default-compiler configuration are keyed (also by `trellis build`, ../../aot/). */
export interface ValidatorKeyer {
  /** The key of a route schema, or undefined when it cannot be keyed (not plain JSON). */
  keyOf: (schema: unknown) => string | undefined
  /** The key of this configuration's shared-schema set and options (Ajv accepted it once: a marker). */
  readonly sharedSetKey: string
}

/**
 * The keys of one default-compiler configuration, or undefined when it cannot be keyed across
 * processes (see the module comment).
 */
export function createValidatorKeyer (
  sharedSchemas: Record<string, unknown>,
  effectiveOptions: Record<string, unknown>,
  customOptions: Record<string, unknown>,
  plugins: readonly unknown[],
  versions: CacheVersions = currentVersions()
): ValidatorKeyer | undefined {
  if (plugins.length > 0) return undefined
  if (customOptions.formats !== undefined || customOptions.keywords !== undefined) return undefined
  // with addUsedSchema, a route schema's $id registers it for later route schemas to $ref: their
  // code would depend on schemas outside the key (and a cached one would never be registered)
  if (effectiveOptions.addUsedSchema !== false) return undefined
  const optionsText = canonicalOptionsText(effectiveOptions)
  if (optionsText === undefined) return undefined
  const sharedText = canonicalSharedSchemasText(sharedSchemas)
  if (sharedText === undefined) return undefined
  const base = sha256(JSON.stringify([
    versions.format, versions.trellis, versions.ajv, versions.ajvFormats, versions.nodeMajor, optionsText
  ]))
  const shared = sha256(sharedText)
  return {
    sharedSetKey: sha256(base + ' shared-set ' + shared),
    keyOf (schema) {
      const text = canonicalSchemaText(schema)
      if (text === undefined) return undefined
      return sha256(base + ' ' + (mayReachSharedSchemas(schema) ? shared : '-') + ' ' + text)
    }
  }
}

/** Ajv's standalone code of `fn` (compiled by `ajv` with `code.source`), or undefined when it cannot be loaded again. */
export function standaloneCodeOf (ajv: Ajv, fn: ValidatorFn): string | undefined {
  let code: string
  try {
    const standaloneCode = (require('ajv/dist/standalone') as { default: (ajv: Ajv, fn: unknown) => string }).default
    code = standaloneCode(ajv, fn)
  } catch {
    return undefined // a validator Ajv cannot write as standalone code
  }
  return onlyAllowedRequires(code) ? code : undefined
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
