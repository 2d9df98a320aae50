/**
 * Compile once: serializers are cached by the identity of the schema object, then by a key of the
 * shared-schema set (the identity of every shared schema and the `$id` it is registered under) and
 * the compile options. Two contexts that see the same shared schemas share compiled serializers.
 */
import type { SerializerFn } from './compile'

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

export function setCached (schema: unknown, key: string, fn: SerializerFn): void {
  if (schema === null || typeof schema !== 'object') return
  let byKey = cache.get(schema)
  if (byKey === undefined) { byKey = new Map(); cache.set(schema, byKey) }
  byKey.set(key, fn)
}
