/**
 * Text helpers shared by the serializer's generators: string literals for the generated source, the
 * type a schema implies, and the type tests of multi-type schemas. A leaf: the generators import it,
 * it imports none of them.
 */
import type { Schema } from './codegen-state'

const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties', 'patternProperties', 'maxProperties', 'minProperties', 'dependencies']
const ARRAY_KEYWORDS = ['items', 'additionalItems', 'maxItems', 'minItems', 'uniqueItems', 'contains']
const STRING_KEYWORDS = ['maxLength', 'minLength', 'pattern']
const NUMBER_KEYWORDS = ['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum']
/** The type a schema without `type` implies by its keywords (as fast-json-stringify@5 infers it). */
export function inferType (schema: Schema): unknown {
  if (schema.type !== undefined) return schema.type
  for (const k of OBJECT_KEYWORDS) if (k in schema) return 'object'
  for (const k of ARRAY_KEYWORDS) if (k in schema) return 'array'
  for (const k of STRING_KEYWORDS) if (k in schema) return 'string'
  for (const k of NUMBER_KEYWORDS) if (k in schema) return 'number'
  return undefined
}

export function lit (value: string): string {
  return JSON.stringify(value)
}

/** The test choosing a branch of a multi-type schema (fast-json-stringify@5 conditions). */
export function typeCondition (type: string, x: string): string {
  switch (type) {
    case 'null': return `${x} === null`
    case 'string': return `(typeof ${x} === 'string' || ${x} === null || ${x} instanceof Date || ${x} instanceof RegExp || ` +
      `(typeof ${x} === 'object' && typeof ${x}.toString === 'function' && ${x}.toString !== Object.prototype.toString))`
    case 'array': return `Array.isArray(${x})`
    case 'integer': return `(Number.isInteger(${x}) || typeof ${x} === 'bigint' || ${x} === null)`
    case 'number': return `(typeof ${x} === 'number' || ${x} === null)`
    case 'boolean': return `(typeof ${x} === 'boolean' || ${x} === null)`
    case 'object': return `(typeof ${x} === 'object' || ${x} === null)`
    default: throw new Error(`${type} unsupported`)
  }
}
