/**
 * A stable string key for "this set of shared schemas + these Ajv options + these plugins", so
 * equal configurations share one Ajv instance. Functions, symbols and other identity-bearing values
 * (plugins, custom formats, uriResolver objects) are keyed by identity; plain data by content.
 */
const identities = new WeakMap<object, number>()
let nextIdentity = 1

function identityOf (value: object): number {
  let id = identities.get(value)
  if (id === undefined) {
    id = nextIdentity++
    identities.set(value, id)
  }
  return id
}

function isPlain (value: object): boolean {
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null || Array.isArray(value)
}

/** JSON-like text of `value` with sorted keys; non-plain objects and functions become `#<id>`. */
function stable (value: unknown, seen: Set<object>): string {
  if (value === undefined) return 'u'
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return String(value)
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'bigint') return value.toString() + 'n'
  if (typeof value === 'function') return `#fn${identityOf(value)}`
  if (typeof value === 'symbol') return `#sym:${String(value.description)}`
  const obj = value as object
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`
  if (!isPlain(obj) || seen.has(obj)) return `#obj${identityOf(obj)}`
  seen.add(obj)
  let out: string
  if (Array.isArray(obj)) {
    out = '[' + obj.map((v) => stable(v, seen)).join(',') + ']'
  } else {
    const rec = obj as Record<string, unknown>
    out = '{' + Object.keys(rec).sort().map((k) => JSON.stringify(k) + ':' + stable(rec[k], seen)).join(',') + '}'
  }
  seen.delete(obj)
  return out
}

export function poolKey (...parts: unknown[]): string {
  return parts.map((p) => stable(p, new Set())).join('|')
}
