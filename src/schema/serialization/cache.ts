/**
 * Compile once: serializers are cached by the identity of the schema object, then by a key of the
 * shared-schema set (the identity of every shared schema and the `$id` it is registered under) and
 * the compile options. Two contexts that see the same shared schemas share compiled serializers.
 * Schemas equal in content (`schemaContentKey`) under the same key share one serializer too.
 */
import type { SerializerFn } from './compile'
import { schemaContentKey } from '../content-key'

const objectIds = new WeakMap<object, number>()
let nextId = 0

function idOf (o: object): number {
  let id = objectIds.get(o)
  if (id === undefined) { id = ++nextId; objectIds.set(o, id) }
  return id
}

/** A string identifying a set of shared schemas by content identity (not by the container object). */
export function sharedSchemasKey (shared: Record<string, unknown> | undefined): string {
  if (shared === undefined) return ''
  let key = ''
  for (const id of Object.keys(shared)) {
    const schema = shared[id]
    key += JSON.stringify(id) + '=' + (schema !== null && typeof schema === 'object' ? String(idOf(schema)) : JSON.stringify(schema)) + ';'
  }
  return key
}

const cache = new WeakMap<object, Map<string, SerializerFn>>()

export function getCached (schema: unknown, key: string): SerializerFn | undefined {
  if (schema === null || typeof schema !== 'object') return undefined
  return cache.get(schema)?.get(key)
}

// bounded (servers created and dropped by the thousand in a test run must not grow it forever):
// past the limit the oldest entry goes, which costs at worst a recompilation
const byContent = new Map<string, SerializerFn>()
const BY_CONTENT_LIMIT = 10_000

/** The serializer compiled for a schema equal in content (same key), and the content key computed. */
export function getCachedByContent (schema: unknown, key: string): { fn?: SerializerFn, contentKey?: string } {
  if (schema === null || typeof schema !== 'object') return {}
  const content = schemaContentKey(schema)
  if (content === undefined) return {}
  const contentKey = key + '|' + content
  return { fn: byContent.get(contentKey), contentKey }
}

export function setCached (schema: unknown, key: string, fn: SerializerFn, contentKey?: string): void {
  if (contentKey !== undefined) {
    byContent.set(contentKey, fn)
    if (byContent.size > BY_CONTENT_LIMIT) byContent.delete(byContent.keys().next().value as string)
  }
  if (schema === null || typeof schema !== 'object') return
  let byKey = cache.get(schema)
  if (byKey === undefined) { byKey = new Map(); cache.set(schema, byKey) }
  byKey.set(key, fn)
}
