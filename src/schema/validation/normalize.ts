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

/** Keywords whose value is one subschema (or, for `items`, possibly an array of them). */
const SUBSCHEMA_KEYWORDS = new Set(['not', 'if', 'then', 'else', 'items', 'additionalItems', 'additionalProperties',
  'contains', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema', 'allOf', 'anyOf', 'oneOf', 'prefixItems'])
/** Keywords whose value maps names that are not header names to subschemas. */
const SCHEMA_MAP_KEYWORDS = new Set(['patternProperties', 'definitions', '$defs'])

const lower = (name: unknown): unknown => typeof name === 'string' ? name.toLowerCase() : name

/**
 * A copy of a headers schema with every header name lowercased, at every depth: `properties` and
 * `dependentSchemas` / `dependentRequired` / `dependencies` keys, `required` entries and
 * dependency lists, in the schema and in each of its subschemas (`allOf`, `if`/`then`, `not`,
 * local definitions, ...); inside `propertyNames` the `enum` / `const` strings are header names
 * too. A header name written in another case anywhere else would never match the lowercased
 * request headers, so its assertion would silently not apply (Fastify 5.12 normalizes the same
 * places; Fastify 4.29 only the top level).
 */
export function lowercaseHeaderSchema (schema: Record<string, unknown>): Record<string, unknown> {
  return lowercaseNames(schema, false) as Record<string, unknown>
}

function lowercaseNames (node: unknown, namesAreValues: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => lowercaseNames(item, namesAreValues))
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (value === null || typeof value !== 'object') {
      out[key] = namesAreValues && key === 'const' ? lower(value) : value
    } else if (key === 'properties' || key === 'dependentSchemas') {
      const mapped: Record<string, unknown> = {}
      for (const [name, sub] of Object.entries(value)) mapped[name.toLowerCase()] = lowercaseNames(sub, namesAreValues)
      out[key] = mapped
    } else if (key === 'dependencies' || key === 'dependentRequired') {
      const mapped: Record<string, unknown> = {}
      for (const [name, dep] of Object.entries(value)) mapped[name.toLowerCase()] = Array.isArray(dep) ? dep.map(lower) : lowercaseNames(dep, namesAreValues)
      out[key] = mapped
    } else if (key === 'required' && Array.isArray(value)) {
      out[key] = value.map(lower)
    } else if (key === 'enum' && Array.isArray(value)) {
      out[key] = namesAreValues ? value.map(lower) : value
    } else if (key === 'propertyNames') {
      out[key] = lowercaseNames(value, true)
    } else if (SUBSCHEMA_KEYWORDS.has(key)) {
      out[key] = lowercaseNames(value, namesAreValues)
    } else if (SCHEMA_MAP_KEYWORDS.has(key)) {
      const mapped: Record<string, unknown> = {}
      for (const [name, sub] of Object.entries(value)) mapped[name] = lowercaseNames(sub, namesAreValues)
      out[key] = mapped
    } else {
      out[key] = value // examples, default, const objects, unknown keywords: data, not schema
    }
  }
  return out
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
