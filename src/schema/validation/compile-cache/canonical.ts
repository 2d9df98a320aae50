/**
 * What the persistent caches key on besides a schema's own text (../../content-key.ts writes it):
 * whether a schema may reach the shared schemas, and the text of the whole shared-schema set.
 */
import { canonicalSchemaText } from '../../content-key'

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
