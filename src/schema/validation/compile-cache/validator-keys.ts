/**
 * The keys of the default validator compiler's compiled code, shared by the persistent schema cache
 * (./validator-code-cache.ts) and `trellis build` (../../aot/): a SHA-256 over the schema's content,
 * the shared schemas it may reach, the effective Ajv options and the versions (trellis, ajv,
 * ajv-formats, the cache format, Node's major). Configurations whose code depends on something that
 * is not plain data have no keys (see validator-code-cache.ts). Also: Ajv's standalone code of a
 * validator, when it can be loaded again.
 */
import type Ajv from 'ajv'
import { VERSION } from '../../../base/version'
import { canonicalOptionsText, canonicalSchemaText } from '../../content-key'
import { canonicalSharedSchemasText, mayReachSharedSchemas } from './canonical'
import { sha256 } from './hash'
import { ALLOWED_MODULES } from './load-standalone'
import type { ValidatorFn } from '../types'

/** Bumped when the storage format or what is stored changes (2: pack files). */
const CACHE_FORMAT = 2

function packageVersion (name: string): string {
  return String((require(name + '/package.json') as { version?: unknown }).version)
}

/** The versions a cache key includes: the code Ajv generates may change with any of them. */
export interface CacheVersions { format: number, trellis: string, ajv: string, ajvFormats: string, nodeMajor: string }

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

/** Keys computed as where the build ran (a Worker: ../../../worker.ts, whose runtime reports another Node version). */
export function pinCurrentVersions (versions: CacheVersions): void {
  versionsNow = versions
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

/** How route schemas of one default-compiler configuration are keyed (also by `trellis build`, ../../aot/). */
export interface ValidatorKeyer {
  /** The key of a route schema, or undefined when it cannot be keyed (not plain JSON). */
  keyOf: (schema: unknown) => string | undefined
  /** The key of this configuration's shared-schema set and options (Ajv accepted it once: a marker). */
  readonly sharedSetKey: string
}

/**
 * The keys of one default-compiler configuration, or undefined when it cannot be keyed across
 * processes (the list is in validator-code-cache.ts).
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
