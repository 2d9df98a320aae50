/**
 * A key for "a schema with this content": JSON-like text in the schema's own key order (property
 * order matters to a serializer, so keys are not sorted). Values that are not plain data
 * (functions, class instances, RegExps, Dates, symbols, cycles) are keyed by identity, so two
 * schemas get the same key only when a compiler cannot tell them apart.
 * Used by the default compilers so that equal schemas in different objects (each route's
 * `{ $ref: 'body#' }`) compile once. Returns undefined when the schema cannot be read safely
 * (a throwing getter): the caller then compiles without sharing.
 */
const identities = new WeakMap<object, number>()
let nextIdentity = 1

function identityOf (value: object): string {
  let id = identities.get(value)
  if (id === undefined) { id = nextIdentity++; identities.set(value, id) }
  return '#' + String(id)
}

function isPlain (value: object): boolean {
  if (Array.isArray(value)) return true
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

function write (value: unknown, seen: Set<object>): string {
  switch (typeof value) {
    case 'string': return JSON.stringify(value)
    case 'number': return Object.is(value, -0) ? '-0' : String(value)
    case 'boolean': return value ? 'true' : 'false'
    case 'undefined': return 'u'
    case 'bigint': return value.toString() + 'n'
    case 'symbol': case 'function': return identityOf(value as unknown as object)
  }
  if (value === null) return 'null'
  const obj = value as object
  if (!isPlain(obj) || seen.has(obj)) return identityOf(obj)
  seen.add(obj)
  let out: string
  if (Array.isArray(obj)) {
    out = '['
    for (let i = 0; i < obj.length; i++) out += (i === 0 ? '' : ',') + write(obj[i], seen)
    out += ']'
  } else {
    out = '{'
    let first = true
    for (const k of Object.keys(obj)) {
      out += (first ? '' : ',') + JSON.stringify(k) + ':' + write((obj as Record<string, unknown>)[k], seen)
      first = false
    }
    // symbol-keyed properties (e.g. a fluent-schema marker) make the schema identity-keyed
    if (Object.getOwnPropertySymbols(obj).length > 0) out += ',' + identityOf(obj)
    out += '}'
  }
  seen.delete(obj)
  return out
}

export function schemaContentKey (schema: unknown): string | undefined {
  try {
    return write(schema, new Set())
  } catch {
    return undefined
  }
}
