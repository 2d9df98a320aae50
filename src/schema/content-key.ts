/**
 * Content keys: JSON-like text of a value, so that equal schemas (or equal option sets) in different
 * objects are recognized as equal. One writer, two scopes:
 * - `process` keys are valid inside this process only: values that are not plain data (functions,
 *   symbols, class instances, RegExps, Dates, cycles, symbol-keyed properties) are keyed by identity
 *   (`#<n>`), so two values get the same key only when nothing can tell them apart. The default
 *   compilers use them so that each route's `{ $ref: 'body#' }` compiles once and equal Ajv
 *   configurations share one Ajv instance.
 * - `persistent` keys must be equal across processes (the on-disk compile cache): anything that is
 *   not plain JSON data (also `undefined` values, non-finite numbers and -0) has no key.
 * Keys keep the value's own property order (it is meaningful to a schema: the order properties are
 * checked and written in) unless `sortKeys` is set (option objects, where order means nothing).
 * Every function returns undefined when the value cannot be keyed (or read: a throwing getter); the
 * caller then compiles without sharing.
 */

import { isPlainSchemaObject } from './validation/normalize'

/** Thrown inside; the public functions turn it into `undefined`. */
class Unkeyable extends Error {}

const identities = new WeakMap<object, number>()
let nextIdentity = 1

function identityOf (value: object): string {
  let id = identities.get(value)
  if (id === undefined) { id = nextIdentity++; identities.set(value, id) }
  return '#' + String(id)
}

/** Symbols have no WeakMap identity before ES2023's symbols-as-keys: one registry for them. */
const symbolIds = new Map<symbol, string>()
function symbolIdentity (value: symbol): string {
  let id = symbolIds.get(value)
  if (id === undefined) { id = '#s' + String(symbolIds.size + 1); symbolIds.set(value, id) }
  return id
}

function write (value: unknown, sortKeys: boolean, persistent: boolean, seen: Set<object>): string {
  switch (typeof value) {
    case 'string': return JSON.stringify(value)
    case 'boolean': return value ? 'true' : 'false'
    case 'number':
      if (!Number.isFinite(value) || Object.is(value, -0)) {
        // NaN, Infinity and -0 have no JSON text that reads back as the same value
        if (persistent) throw new Unkeyable()
        return Object.is(value, -0) ? '-0' : String(value)
      }
      return JSON.stringify(value)
    case 'object': break
    default:
      if (persistent) throw new Unkeyable() // undefined, function, symbol, bigint
      if (typeof value === 'undefined') return 'u'
      if (typeof value === 'bigint') return value.toString() + 'n'
      if (typeof value === 'symbol') return symbolIdentity(value)
      return identityOf(value as object)
  }
  if (value === null) return 'null'
  const obj = value as object
  const plain = Array.isArray(obj) || isPlainSchemaObject(obj)
  if (!plain || seen.has(obj)) {
    if (persistent) throw new Unkeyable() // a class instance or a cycle
    return identityOf(obj)
  }
  seen.add(obj)
  let out: string
  if (Array.isArray(obj)) {
    out = '['
    for (let i = 0; i < obj.length; i++) out += (i === 0 ? '' : ',') + write(obj[i], sortKeys, persistent, seen)
    out += ']'
  } else {
    const keys = Object.keys(obj)
    if (sortKeys) keys.sort()
    out = '{'
    for (let i = 0; i < keys.length; i++) {
      out += (i === 0 ? '' : ',') + JSON.stringify(keys[i]) + ':' + write((obj as Record<string, unknown>)[keys[i]], sortKeys, persistent, seen)
    }
    // symbol-keyed properties (e.g. a fluent-schema marker) make the object identity-keyed
    if (Object.getOwnPropertySymbols(obj).length > 0) {
      if (persistent) throw new Unkeyable()
      out += ',' + identityOf(obj)
    }
    out += '}'
  }
  seen.delete(obj)
  return out
}

function keyOf (value: unknown, sortKeys: boolean, persistent: boolean): string | undefined {
  try { return write(value, sortKeys, persistent, new Set()) } catch { return undefined }
}

/** A schema's key in this process, in its own key order. */
export function schemaContentKey (schema: unknown): string | undefined {
  return keyOf(schema, false, false)
}

/** One key for several values (shared schemas, Ajv options, plugins), keys sorted, in this process. */
export function configurationKey (...parts: unknown[]): string | undefined {
  let key = ''
  for (let i = 0; i < parts.length; i++) {
    const part = keyOf(parts[i], true, false)
    if (part === undefined) return undefined
    key += (i === 0 ? '' : '|') + part
  }
  return key
}

/** A schema's key across processes (its own key order), or undefined when it is not plain JSON data. */
export function canonicalSchemaText (value: unknown): string | undefined {
  return keyOf(value, false, true)
}

/** Like {@link canonicalSchemaText} with object keys sorted (for option objects, where order means nothing). */
export function canonicalOptionsText (value: unknown): string | undefined {
  return keyOf(value, true, true)
}
