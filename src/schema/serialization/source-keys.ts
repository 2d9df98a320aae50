/**
 * The keys of response serializers, shared by the persistent schema cache (./source-cache.ts) and
 * `trellis build` (../aot/): a SHA-256 over the schema's content, the whole shared-schema set, the
 * compile options, the generator's fingerprint (this directory's files and the `$ref` resolver),
 * trellis' and V8's versions and the entry format.
 */
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { VERSION } from '../../base/version'
import { canonicalOptionsText, canonicalSchemaText } from '../content-key'
import { canonicalSharedSchemasText } from '../validation/compile-cache/canonical'
import { sha256 } from '../validation/compile-cache/hash'
import type { CompileOptions } from './compile'
import { PROJECT_ARRAYS, PROJECT_ARRAY_FIELDS } from './generate-projection'

/** Bumped when the entry or storage format changes (2: pack files). */
const SOURCE_CACHE_FORMAT = 2

/**
 * A hash of the generator's code: every source file in `dir` (this module's directory: the
 * generator, its runtime and this file) and the `$ref` resolver next to it, by name and content.
 * Undefined when the files cannot be read: then the cache is not used for serializers.
 */
export function generatorFingerprint (dir: string = __dirname): string | undefined {
  try {
    const files = readdirSync(dir).filter((f) => /\.(?:ts|js|cjs|mjs)$/.test(f) && !f.endsWith('.d.ts')).sort()
    if (files.length === 0) return undefined
    const hash = createHash('sha256')
    for (const f of files) hash.update(f + '\0').update(readFileSync(join(dir, f))).update('\0')
    const parent = join(dir, '..')
    const resolver = readdirSync(parent).filter((f) => /^ref-resolver\.(?:ts|js)$/.test(f))
    if (resolver.length === 0) return undefined
    for (const f of resolver) hash.update(f + '\0').update(readFileSync(join(parent, f))).update('\0')
    return hash.digest('hex')
  } catch {
    return undefined
  }
}

let fingerprintNow: string | undefined | null = null
function currentFingerprint (): string | undefined {
  if (fingerprintNow === null) fingerprintNow = generatorFingerprint()
  return fingerprintNow
}

/** Inputs of the key besides the schema; replaceable in tests. */
export interface SourceCacheVersions { format: number, trellis: string, v8: string, generator: string | undefined }

let pinned: SourceCacheVersions | undefined

export function currentSourceCacheVersions (): SourceCacheVersions {
  return pinned ?? { format: SOURCE_CACHE_FORMAT, trellis: VERSION, v8: process.versions.v8, generator: currentFingerprint() }
}

/**
 * Keys computed as where the build ran: a Worker (../../worker.ts) carries its build and the code
 * that made it, but has neither the generator's files to hash nor the same V8 version string.
 */
export function pinSourceCacheVersions (versions: SourceCacheVersions): void {
  pinned = versions
}

/** The key of a response schema's serializer, or undefined when it cannot be keyed. */
export type SerializerKeyer = (schema: unknown, options: CompileOptions) => string | undefined

/**
 * How the serializers of one shared-schema set are keyed (also by `trellis build`, ../aot/), or
 * undefined when they cannot be: a shared schema is not plain JSON, or the generator's fingerprint
 * is unknown.
 */
export function createSerializerKeyer (sharedSchemas: Record<string, unknown>, versions: SourceCacheVersions = currentSourceCacheVersions()): SerializerKeyer | undefined {
  if (versions.generator === undefined) return undefined
  const sharedText = canonicalSharedSchemasText(sharedSchemas)
  if (sharedText === undefined) return undefined
  const base = sha256(JSON.stringify(['serializer', versions.format, versions.trellis, versions.v8, versions.generator]) + ' ' + sha256(sharedText))
  return (schema, options) => {
    if (options.debug === true) return undefined
    const text = canonicalSchemaText(schema)
    const optionsText = canonicalOptionsText({
      rounding: options.rounding ?? 'trunc',
      projectArrays: options.projectArrays ?? PROJECT_ARRAYS,
      projectArrayFields: options.projectArrayFields ?? PROJECT_ARRAY_FIELDS,
      straightObjects: options.straightObjects ?? true,
      byteArrays: options.byteArrays ?? true
    })
    if (text === undefined || optionsText === undefined) return undefined
    return sha256(base + ' ' + optionsText + ' ' + text)
  }
}
