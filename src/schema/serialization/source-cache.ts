/**
 * Response serializer sources in the persistent schema cache (`schemaCache: { dir }`,
 * docs/schema-cache.md). Loaded only when the cache is on.
 *
 * An entry (kind `serializer` in the directory's pack files) holds the source `generateSource` produced for a response schema and its
 * constants. The key hashes every input of that source:
 *
 *  - the schema's content (its JSON text, in its own key order);
 *  - the whole shared-schema set, by content (the generator checks every shared schema, not only
 *    the ones the schema reaches: an invalid shared schema must still fail at `ready()`);
 *  - the compile options (`rounding`; the defaults the generator picks, which depend on V8);
 *  - the **generator's fingerprint**: a hash of the text of every file of the generator (this
 *    directory) and of the `$ref` resolver it uses. Any change of the generator's code is a new
 *    fingerprint, so a changed generator never loads a source an older one wrote, whatever the
 *    version number says;
 *  - trellis' version, V8's version and the cache format.
 *
 * Only plain JSON schemas and sources whose constants are plain data, `Set`s and `RegExp`s are
 * cached; a constant that is a function (the matchers of `anyOf`/`oneOf`) or anything else keeps
 * that schema out of the cache: it is generated on every boot, as without the cache.
 */
import { checkCacheDir, readEntry, writeEntry } from '../validation/compile-cache/store'
import { warnUnusable } from '../validation/compile-cache/validator-code-cache'
import { generateSource, serializerFromSource, type CompileOptions, type SerializerFn } from './compile'
import { createSerializerKeyer, currentSourceCacheVersions, type SourceCacheVersions } from './source-keys'

export { generatorFingerprint, currentSourceCacheVersions } from './source-keys'

class NotEncodable extends Error {}

/** Constants as JSON data: plain values as they are, `Set`s, `RegExp`s, arrays and objects tagged. */
function encode (value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Object.is(value, -0)) throw new NotEncodable()
    return value
  }
  if (typeof value !== 'object') throw new NotEncodable() // functions (matchers), undefined, symbols, bigints
  if (Array.isArray(value)) return { a: value.map(encode) }
  if (value instanceof Set && Object.getPrototypeOf(value) === Set.prototype) return { s: [...value].map(encode) }
  if (value instanceof RegExp && Object.getPrototypeOf(value) === RegExp.prototype) return { r: [value.source, value.flags] }
  if (Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value)) out[key] = encode((value as Record<string, unknown>)[key])
    return { o: out }
  }
  throw new NotEncodable()
}

function decode (value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  const tagged = value as { a?: unknown[], s?: unknown[], r?: [string, string], o?: Record<string, unknown> }
  if (Array.isArray(tagged.a)) return tagged.a.map(decode)
  if (Array.isArray(tagged.s)) return new Set(tagged.s.map(decode))
  if (Array.isArray(tagged.r)) return new RegExp(tagged.r[0], tagged.r[1])
  if (tagged.o !== null && typeof tagged.o === 'object') {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(tagged.o)) out[key] = decode(tagged.o[key])
    return out
  }
  throw new NotEncodable()
}

/** The text of an entry, or undefined when a constant cannot be stored. */
function entryText (source: string, consts: unknown[]): string | undefined {
  try { return JSON.stringify({ source, consts: consts.map(encode) }) } catch { return undefined }
}

function parseEntry (text: string): { source: string, consts: unknown[] } | undefined {
  try {
    const entry = JSON.parse(text) as { source?: unknown, consts?: unknown }
    if (typeof entry.source !== 'string' || !Array.isArray(entry.consts)) return undefined
    return { source: entry.source, consts: entry.consts.map(decode) }
  } catch {
    return undefined
  }
}

export interface SerializerSourceCache {
  /** The serializer of `schema`: loaded from the cache, or generated (and stored); undefined when the schema cannot be keyed. */
  compile: (schema: unknown, options: CompileOptions) => (SerializerFn & { source: string }) | undefined
}

/**
 * The serializer source cache for one shared-schema set, or undefined when it cannot be used: the
 * directory is unusable (a warning says why, once), a shared schema is not plain JSON, or the
 * generator's fingerprint is unknown.
 */
export function createSerializerSourceCache (
  dir: string,
  sharedSchemas: Record<string, unknown>,
  versions: SourceCacheVersions = currentSourceCacheVersions()
): SerializerSourceCache | undefined {
  const keyOf = createSerializerKeyer(sharedSchemas, versions)
  if (keyOf === undefined) return undefined
  const unusable = checkCacheDir(dir)
  if (unusable !== null) { warnUnusable(dir, unusable); return undefined }

  return {
    compile (schema, options) {
      const key = keyOf(schema, options)
      if (key === undefined) return undefined
      const stored = readEntry(dir, key, 'serializer')
      const entry = stored === undefined ? undefined : parseEntry(stored)
      if (entry !== undefined) return serializerFromSource(entry.source, entry.consts, options)
      // a miss (or an unreadable entry): generate as without the cache; an invalid schema throws here
      const { source, consts } = generateSource(schema, options)
      const out = entryText(source, consts)
      if (out !== undefined) writeEntry(dir, key, 'serializer', out)
      return serializerFromSource(source, consts, options)
    }
  }
}
