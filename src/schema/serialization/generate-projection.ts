/**
 * Arrays of flat objects: project each item into a fresh object holding exactly the values the
 * concatenating serializer would write (coerced the same way), then one `JSON.stringify` of the
 * whole array. V8 serializes a run of same-shaped fresh objects in native code and returns a flat
 * string, where a concatenated result is a rope the server must flatten before writing it. Not used
 * by default (PROJECT_ARRAYS): the byte-writing form also returns a flat string and measured faster.
 *
 * Only item schemas whose output a plain object literal reproduces exactly take this path:
 * `type: 'object'` with `properties` (and `required`), every property a single primitive type, or
 * an array of one primitive type, without `format`, `const`, `nullable` or `default`, and no
 * property name that an object literal
 * would treat specially (`__proto__`) or reorder (integer-like names). A value the projection
 * cannot express (a BigInt) makes the whole array go through the concatenating serializer.
 */
import type { CodegenState, Schema } from './codegen-state'
import { lit } from './generate-text'
import { isSchemaObject, plainObjectShape } from './item-shape'

const OBJECT_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'title', 'description', '$comment', 'examples'])
const VALUE_KEYWORDS = new Set(['type', 'title', 'description', '$comment', 'examples', 'enum', 'minLength', 'maxLength', 'pattern',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'])
const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean'])
const ARRAY_KEYWORDS = new Set([...VALUE_KEYWORDS, 'items', 'minItems', 'maxItems', 'uniqueItems'])

/**
 * Whether arrays of flat objects are projected by default: no. Every item schema the projection
 * takes, the byte-writing form (generate-bytes.ts) takes too, and it measured faster on every line
 * (same process, µs per call + Buffer.byteLength, 100 items x 8 fields, bytes vs projection:
 * Node 20 35.5 vs 70.3, Node 22 32.7 vs 48.0, Node 24 30.2 vs 48.3, Node 26 26.8 vs 37.5, including
 * V8 14's JSON.stringify fast path for plain objects; docs/benchmarks.md, Serializer). The
 * projection stays as the `projectArrays` compile option.
 */
export const PROJECT_ARRAYS = false

/** Items with primitive-array properties are projected too (when arrays are projected at all). */
export const PROJECT_ARRAY_FIELDS = PROJECT_ARRAYS

const isObject = isSchemaObject

/** `type` is a primitive type; `items` is set (to the element's primitive type) for an array property. */
interface ProjectedField { key: string, type: string, items?: string, required: boolean }

function primitiveArrayItems (p: Schema): string | undefined {
  if (p.type !== 'array' || !isObject(p.items)) return undefined
  for (const k of Object.keys(p)) if (!ARRAY_KEYWORDS.has(k)) return undefined
  const items = p.items
  if (typeof items.type !== 'string' || !PRIMITIVES.has(items.type)) return undefined
  for (const k of Object.keys(items)) if (!VALUE_KEYWORDS.has(k)) return undefined
  return items.type
}

/** The fields of an item schema the projection reproduces exactly, or undefined. */
export function projectableFields (schema: unknown, arrayFields: boolean): ProjectedField[] | undefined {
  const shape = plainObjectShape(schema, OBJECT_KEYWORDS)
  if (shape === undefined) return undefined
  const { props, keys, required } = shape
  const fields: ProjectedField[] = []
  for (const key of keys) {
    if (key === '__proto__' || /^\d+$/.test(key)) return undefined
    const p = props[key]
    if (!isObject(p) || typeof p.type !== 'string') return undefined
    if (p.type === 'array') {
      const items = arrayFields ? primitiveArrayItems(p) : undefined
      if (items === undefined) return undefined
      fields.push({ key, type: 'array', items, required: required.includes(key) })
      continue
    }
    if (!PRIMITIVES.has(p.type)) return undefined
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

/** Statements replacing `v` (an array property's value) by a fresh array of projected elements, as the array serializer writes it. */
function arrayStatements (ctx: CodegenState, f: ProjectedField, v: string, loc: string): string {
  const out = ctx.tmp('a')
  const e = ctx.tmp('e')
  return `if (${v} === null) ${v} = []\n` +
    `else if (!Array.isArray(${v})) throw new TypeError(${lit(`The value of '${loc}' does not match schema definition.`)})\n` +
    `else {\nconst ${out} = new Array(${v}.length)\nfor (let i = 0; i < ${out}.length; i++) {\nconst ${e} = ${v}[i]\n` +
    `${out}[i] = ${valueExpr(f.items as string, e)}\n}\n${v} = ${out}\n}\n`
}

/**
 * Source of a function projecting one item (the same reads, order, coercions and errors as the
 * object serializer); `loc` is the item schema's location (for the messages an array value throws).
 */
export function genProjectionFunction (ctx: CodegenState, fields: ProjectedField[], loc: string): string {
  const name = 'p' + ctx.tmp('')
  let code = `function ${name} (input) {\n`
  code += 'const obj = (input && typeof input.toJSON === \'function\') ? input.toJSON() : input\n'
  code += 'if (obj == null) return {}\n'
  const vars: string[] = []
  for (const f of fields) {
    const v = ctx.tmp()
    vars.push(v)
    code += `let ${v} = obj[${lit(f.key)}]\n`
    const convert = f.items !== undefined ? arrayStatements(ctx, f, v, `${loc}/properties/${f.key}`) : `${v} = ${valueExpr(f.type, v)}\n`
    code += f.required
      ? `if (${v} === undefined) throw new Error(${lit(`"${f.key}" is required!`)})\n${convert}`
      : `if (${v} !== undefined) {\n${convert}}\n`
  }
  code += 'return { ' + fields.map((f, i) => `${lit(f.key)}: ${vars[i]}`).join(', ') + ' }\n}\n'
  ctx.functions.push(code)
  return name
}
