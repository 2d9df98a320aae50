/**
 * Canonical JSON text of plain data, for cache keys that must be equal across processes. Unlike
 * `schemaContentKey` (identity markers for functions and class instances, valid only inside one
 * process), this refuses anything that is not plain JSON data: then the value cannot be keyed for
 * a persistent cache and the caller compiles without it.
 */

/** Thrown inside; the public functions turn it into `undefined`. */
class NotPlainData extends Error {}

function isPlainObject (value: object): boolean {
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

function write (value: unknown, sortKeys: boolean, seen: Set<object>): string {
  switch (typeof value) {
    case 'string': return JSON.stringify(value)
    case 'boolean': return value ? 'true' : 'false'
    case 'number':
      // NaN, Infinity and -0 have no JSON text that reads back as the same value
      if (!Number.isFinite(value) || Object.is(value, -0)) throw new NotPlainData()
      return JSON.stringify(value)
    case 'object': break
    default: throw new NotPlainData() // undefined, function, symbol, bigint
  }
  if (value === null) return 'null'
  const obj = value as object
  if (seen.has(obj)) throw new NotPlainData() // a cycle
  seen.add(obj)
  let out: string
  if (Array.isArray(obj)) {
    out = '['
    for (let i = 0; i < obj.length; i++) out += (i === 0 ? '' : ',') + write(obj[i], sortKeys, seen)
    out += ']'
  } else {
    if (!isPlainObject(obj) || Object.getOwnPropertySymbols(obj).length > 0) throw new NotPlainData()
    const keys = Object.keys(obj)
    if (sortKeys) keys.sort()
    out = '{'
    for (let i = 0; i < keys.length; i++) {
      out += (i === 0 ? '' : ',') + JSON.stringify(keys[i]) + ':' + write((obj as Record<string, unknown>)[keys[i]], sortKeys, seen)
    }
    out += '}'
  }
  seen.delete(obj)
  return out
}

/**
 * JSON text of `value` in its own key order (property order is meaningful to a schema: it is the
 * order Ajv checks properties in), or undefined when `value` is not plain JSON data (functions,
 * class instances, RegExps, symbols, `undefined` values, non-finite numbers, cycles, throwing getters).
 */
export function canonicalSchemaText (value: unknown): string | undefined {
  try { return write(value, false, new Set()) } catch { return undefined }
}

/** Like {@link canonicalSchemaText} with object keys sorted (for option objects, where order means nothing). */
export function canonicalOptionsText (value: unknown): string | undefined {
  try { return write(value, true, new Set()) } catch { return undefined }
}

/**
 * Whether a schema may reach other schemas: a `$ref` that is not a plain local pointer (`#...`),
 * an `$id` anywhere (it changes the base URI its local refs resolve against), or a dynamic ref.
 * Conservative on purpose: any `$ref`/`$id` key anywhere (also inside `enum` or `default` data)
 * counts. Such a schema's cache key includes the whole shared-schema set.
 */
export function mayReachSharedSchemas (value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) return value.some(mayReachSharedSchemas)
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key]
    if (key === '$ref' && (typeof v !== 'string' || !v.startsWith('#'))) return true
    if (key === '$id' || key === '$dynamicRef' || key === '$recursiveRef' || key === '$dynamicAnchor' || key === '$recursiveAnchor') return true
    if (mayReachSharedSchemas(v)) return true
  }
  return false
}

/**
 * The canonical text of a context's whole set of shared schemas (ids sorted), or undefined when one
 * of them has no canonical text: part of every cache key, so a change to any shared schema changes
 * the key of every entry compiled beside it.
 */
export function canonicalSharedSchemasText (sharedSchemas: Record<string, unknown>): string | undefined {
  const ids = Object.keys(sharedSchemas).sort()
  let text = '{'
  for (let i = 0; i < ids.length; i++) {
    const schemaText = canonicalSchemaText(sharedSchemas[ids[i]])
    if (schemaText === undefined) return undefined
    text += (i === 0 ? '' : ',') + JSON.stringify(ids[i]) + ':' + schemaText
  }
  return text + '}'
}
