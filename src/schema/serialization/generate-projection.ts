/**
 * Arrays of flat objects: project each item into a fresh object holding exactly the values the
 * concatenating serializer would write (coerced the same way), then one `JSON.stringify` of the
 * whole array. V8 serializes a run of same-shaped fresh objects in native code and returns a flat
 * string, where a concatenated result is a rope the server must flatten before writing it; on
 * arrays of objects this is the faster of the two (docs/benchmarks.md, Serializer).
 *
 * Only item schemas whose output a plain object literal reproduces exactly take this path:
 * `type: 'object'` with `properties` (and `required`), every property a single primitive type
 * without `format`, `const`, `nullable` or `default`, and no property name that an object literal
 * would treat specially (`__proto__`) or reorder (integer-like names). A value the projection
 * cannot express (a BigInt) makes the whole array go through the concatenating serializer.
 */
import type { GenContext, Schema } from './context'
import { lit } from './generate-value'

const OBJECT_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'title', 'description', '$comment', 'examples'])
const VALUE_KEYWORDS = new Set(['type', 'title', 'description', '$comment', 'examples', 'enum', 'minLength', 'maxLength', 'pattern',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'])
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean'])

function isObject (v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

export interface ProjectedField { key: string, type: string, required: boolean }

/** The fields of an item schema the projection reproduces exactly, or undefined. */
export function projectableFields (schema: unknown): ProjectedField[] | undefined {
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) return undefined
  for (const k of Object.keys(schema)) if (!OBJECT_KEYWORDS.has(k)) return undefined
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return undefined
  const props = schema.properties
  const keys = Object.keys(props)
  if (keys.length === 0) return undefined
  const required = schema.required === undefined ? [] : schema.required
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string' && keys.includes(r))) return undefined
  const fields: ProjectedField[] = []
  for (const key of keys) {
    if (key === '__proto__' || /^\d+$/.test(key)) return undefined
    const p = props[key]
    if (!isObject(p) || typeof p.type !== 'string' || !PRIMITIVES.has(p.type)) return undefined
    for (const k of Object.keys(p)) if (!VALUE_KEYWORDS.has(k)) return undefined
    fields.push({ key, type: p.type, required: required.includes(key) })
  }
  // required properties first, as the concatenating serializer writes them
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)]
}

function valueExpr (type: string, v: string): string {
  switch (type) {
    case 'integer': return `(Number.isInteger(${v}) ? ${v} : $intV(${v}))`
    case 'number': return `((typeof ${v} === 'number' && ${v} - ${v} === 0) ? ${v} : $numV(${v}))`
    case 'string': return `(typeof ${v} === 'string' ? ${v} : $strV(${v}))`
    default: return `(${v} ? true : false)`
  }
}

/** Source of a function projecting one item (the same reads, order, coercions and errors as the object serializer). */
export function genProjectionFunction (ctx: GenContext, fields: ProjectedField[]): string {
  const name = 'p' + ctx.tmp('')
  let code = `function ${name} (input) {\n`
  code += 'const obj = (input && typeof input.toJSON === \'function\') ? input.toJSON() : input\n'
  code += 'if (obj == null) return {}\n'
  const vars: string[] = []
  for (const f of fields) {
    const v = ctx.tmp()
    vars.push(v)
    code += `let ${v} = obj[${lit(f.key)}]\n`
    code += f.required
      ? `if (${v} === undefined) throw new Error(${lit(`"${f.key}" is required!`)})\n${v} = ${valueExpr(f.type, v)}\n`
      : `if (${v} !== undefined) ${v} = ${valueExpr(f.type, v)}\n`
  }
  code += 'return { ' + fields.map((f, i) => `${lit(f.key)}: ${vars[i]}`).join(', ') + ' }\n}\n'
  ctx.functions.push(code)
  return name
}
