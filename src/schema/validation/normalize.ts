/**
 * Route schema normalization: the shorthand form (properties listed at top level) becomes a full
 * object schema, and header property names / `required` entries are lowercased (HTTP header
 * names are case-insensitive and Node gives them lowercased). Never mutates the user's objects.
 */
import type { HttpPart } from './types'
import { unwrapFluentSchema } from '../fluent'
import { emitDeprecation } from '../../base/warnings'

/** Keywords whose presence means "this is already a real schema", as Fastify 4.3 decides. */
const FULL_SCHEMA_MARKERS = ['$ref', 'oneOf', 'allOf', 'anyOf', '$merge', '$patch'] as const

/**
 * A plain JSON-schema object literal (prototype Object.prototype or null). Anything else
 * (Joi, yup, class instances) is a foreign schema and is passed to the compiler untouched.
 */
export function isPlainSchemaObject (schema: unknown): schema is Record<string, unknown> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return false
  const proto = Object.getPrototypeOf(schema)
  return proto === Object.prototype || proto === null
}

export interface NormalizeOptions {
  /** Fastify's `jsonShorthand` server option (default true). When false, no shorthand expansion. */
  jsonShorthand?: boolean
  /** The route's URL, named by the FSTDEP022 deprecation when the shorthand is expanded. */
  url?: string
}

/** Shorthand -> `{ type: 'object', properties }`, following Fastify 4.3's rule. */
export function expandShorthand (schema: Record<string, unknown>): Record<string, unknown> {
  for (const key of FULL_SCHEMA_MARKERS) if (schema[key]) return schema
  if (!schema.type && !schema.properties) return { type: 'object', properties: schema }
  return schema
}

/** A copy of a headers schema with property names and `required` entries lowercased. */
export function lowercaseHeaderSchema (schema: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...schema }
  if (Array.isArray(schema.required)) {
    copy.required = schema.required.map((name: unknown) => typeof name === 'string' ? name.toLowerCase() : name)
  }
  const props = schema.properties
  if (props !== null && typeof props === 'object') {
    const lowered: Record<string, unknown> = {}
    for (const key of Object.keys(props)) lowered[key.toLowerCase()] = (props as Record<string, unknown>)[key]
    copy.properties = lowered
  }
  return copy
}

// memo: the same user schema object normalizes to the same object, so the compiler's
// identity cache still hits for shorthand and header schemas shared by many routes
const memo = {
  shorthand: new WeakMap<object, Record<string, unknown>>(),
  shorthandHeaders: new WeakMap<object, Record<string, unknown>>(),
  plainHeaders: new WeakMap<object, Record<string, unknown>>()
}

/**
 * Normalizes the schema of one request part: fluent schemas are unwrapped, plain objects get the
 * shorthand expansion, header schemas get lowercased names. Foreign schemas come back as given.
 * The same input object (and options) always yields the same output object.
 */
export function normalizeSchema (schema: unknown, part: HttpPart, options: NormalizeOptions = {}): unknown {
  schema = unwrapFluentSchema(schema)
  if (!isPlainSchemaObject(schema)) return schema
  const shorthand = options.jsonShorthand !== false
  const headers = part === 'headers'
  if (!shorthand && !headers) return schema
  const cache = shorthand ? (headers ? memo.shorthandHeaders : memo.shorthand) : memo.plainHeaders
  const hit = cache.get(schema)
  if (hit !== undefined) return hit
  let out: Record<string, unknown> = shorthand ? expandShorthand(schema) : schema
  // the shorthand is deprecated since Fastify 4.26 (FSTDEP022, emitted under code FSTDEP021)
  if (out !== schema) emitDeprecation('FSTDEP022', options.url)
  if (headers) out = lowercaseHeaderSchema(out)
  cache.set(schema, out)
  return out
}
