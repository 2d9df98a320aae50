/**
 * Arrays of flat objects, written as bytes: each item's keys and separators are stored as literal
 * bytes, numbers as their digits, strings char by char while they are checked for escapes, into one
 * reused buffer (byte-writer.ts), decoded once at the end. The result is a flat string: the server
 * measures and writes it without flattening a rope, which on Node 24 cost more than building it
 * (docs/benchmarks.md, Serializer).
 *
 * The item is written the way the general object form (generate-object.ts) writes it: the same
 * `toJSON` call and null check, the same property reads in the same order (required first), each
 * once, the same coercions through the same runtime helpers (a value of an unexpected type, a
 * string that needs escaping or is not ASCII, a number the digit writers do not cover: its text is
 * made by the helper the concatenating form calls, then copied), the same `"x" is required!` error,
 * `default` literals, and commas decided as the general form decides them. A property test compares
 * the output, the error and the read sequence with the concatenating form.
 *
 * Taken for item schemas `type: 'object'` (`nullable` allowed) whose every property is one
 * primitive type (string without `format` or with `format: 'date-time'`, number, integer, boolean;
 * `nullable` and `default` allowed) or an array of one primitive type, and no undeclared property
 * written (`additionalProperties` absent or false). Anything else (a nested object, say) is
 * concatenated: copying a property's own concatenated string into the buffer flattens it there,
 * which measured slower than concatenating the whole item (docs/benchmarks.md, Serializer).
 */
import type { Schema } from './codegen-state'
import { lit } from './generate-text'
import { isSchemaObject, plainObjectShape } from './item-shape'
import { NUMBER_ROOM } from './byte-writer'

const OBJECT_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'title', 'description', '$comment', 'examples', 'nullable', 'default'])
/** Nested object properties are written inline down to this depth (deeper items are concatenated: the generated loop stays small). */
const MAX_DEPTH = 4
const VALUE_KEYWORDS = new Set(['type', 'title', 'description', '$comment', 'examples', 'enum', 'minLength', 'maxLength', 'pattern',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'default', 'nullable', 'format'])
const TYPES = new Set(['string', 'number', 'integer', 'boolean'])
const ARRAY_KEYWORDS = new Set([...VALUE_KEYWORDS, 'items', 'minItems', 'maxItems', 'uniqueItems'])

/** Strings up to this length are written by $wstr within the item's reserved room (6 bytes a unit at most). */
const SHORT_STRING = 64

type Primitive = 'string' | 'number' | 'integer' | 'boolean' | 'date-time'

interface ByteField {
  key: string
  type: Primitive | 'array' | 'object'
  /** for an array property: its elements' type */
  items?: Primitive
  /** for an object property: its properties */
  fields?: ByteField[]
  /** `nullable: true`: null is written as null */
  nullable: boolean
  required: boolean
  /** JSON of the schema's `default`, written when the property is absent */
  dflt: string | undefined
}

const isObject = isSchemaObject

/** The item schema's properties in writing order (required first), or undefined when it does not fit. */
export function byteFields (schema: unknown, depth = 0): ByteField[] | undefined {
  const shape = plainObjectShape(schema, OBJECT_KEYWORDS)
  if (shape === undefined) return undefined
  const { props, keys, required } = shape
  const fields: ByteField[] = []
  for (const key of keys) {
    const p = props[key]
    if (!isObject(p)) return undefined
    const dflt = p.default === undefined ? undefined : (JSON.stringify(p.default) ?? 'null')
    const base = { key, nullable: p.nullable === true, required: required.includes(key), dflt }
    if (p.type === 'object') {
      const nested = depth < MAX_DEPTH ? byteFields(p, depth + 1) : undefined
      if (nested === undefined) return undefined
      fields.push({ ...base, type: 'object', fields: nested })
      continue
    }
    const items = primitiveArrayItems(p)
    const type = items !== undefined ? 'array' : primitiveType(p)
    if (type === undefined) return undefined
    fields.push({ ...base, type, items })
  }
  return [...fields.filter((f) => f.required), ...fields.filter((f) => !f.required)]
}

/** The primitive a property schema is written as by the byte writers, or undefined. */
function primitiveType (p: Schema): Primitive | undefined {
  if (typeof p.type !== 'string' || !TYPES.has(p.type)) return undefined
  for (const k of Object.keys(p)) if (!VALUE_KEYWORDS.has(k)) return undefined
  // formats change only strings, and only these three (genPart)
  if (p.type === 'string' && p.format === 'date-time') return 'date-time'
  if (p.type === 'string' && (p.format === 'date' || p.format === 'time')) return undefined
  return p.type as Primitive
}

/** The element type of an array-of-one-primitive-type property schema, or undefined. */
function primitiveArrayItems (p: Schema): Primitive | undefined {
  if (p.type !== 'array' || !isObject(p.items)) return undefined
  for (const k of Object.keys(p)) if (!ARRAY_KEYWORDS.has(k) || k === 'nullable' || k === 'format') return undefined
  const items = p.items
  if (typeof items.type !== 'string' || !TYPES.has(items.type)) return undefined
  for (const k of Object.keys(items)) if (!VALUE_KEYWORDS.has(k) || k === 'default' || k === 'nullable' || k === 'format') return undefined
  return items.type as Primitive
}

/** Statements storing `text`'s UTF-8 bytes at `o` and advancing it. */
function stores (text: string): string {
  const bytes = [...Buffer.from(text, 'utf8')]
  return bytes.map((x, i) => `b[o${i === 0 ? '' : ' + ' + String(i)}] = ${x}`).join('; ') + `; o += ${bytes.length}\n`
}

/**
 * The rest of an array function after its prelude `code` (which ends once `n`, the length, is known
 * and not 0): the byte-writing loop over the items.
 */
export function buildByteLoop (fields: ByteField[], nullable: boolean, loc: string, code: string, tmp: (prefix?: string) => string): string {
  // room an item's fixed parts take at most: separators, keys, numbers, short strings, defaults, '[]', nested objects
  const roomOf = (fs: ByteField[]): number => {
    let r = 4
    for (const f of fs) {
      r += Buffer.byteLength(',' + JSON.stringify(f.key) + ':[]null') +
        (f.type === 'object' ? roomOf(f.fields as ByteField[]) : f.type === 'string' || f.type === 'date-time' ? 2 + 6 * SHORT_STRING : NUMBER_ROOM)
      if (f.dflt !== undefined) r += Buffer.byteLength(f.dflt)
    }
    return r
  }
  const room = roomOf(fields)
  /** Statements copying the text `t` (any length) after making room for it. */
  const text = (t: string): string =>
    `if (o + ${t}.length * 3 + ${room} > b.length) b = $grow(b, o, ${t}.length * 3 + ${room})\no = $wtext(b, o, ${t})\n`
  /** Statements writing the literal `before`, then `v` as the primitive type's serialization writes it (strings with their quotes). */
  const primitiveValue = (before: string, v: string, type: Primitive): string => {
    const t = tmp('t')
    const head = (text: string): string => text === '' ? '' : stores(text)
    switch (type) {
      case 'integer':
        return head(before) + `if (Number.isInteger(${v})) o = $wint(b, o, ${v})\nelse {\nconst ${t} = $int(${v})\n${text(t)}}\n`
      case 'number':
        return head(before) + `if (typeof ${v} === 'number' && ${v} - ${v} === 0) o = $wnum(b, o, ${v})\nelse {\nconst ${t} = $num(${v})\n${text(t)}}\n`
      case 'boolean':
        return head(before) + `if (${v}) { ${stores('true').trimEnd()} } else { ${stores('false').trimEnd()} }\n`
      case 'date-time': {
        const r = tmp('r')
        // $dateTime's order: null, Date (one instanceof, only for objects: a primitive cannot be one), string
        return head(before) + `if (typeof ${v} === 'string' && ${v}.length <= ${SHORT_STRING}) { ${stores('"').trimEnd()}; o = $wstr(b, o, ${v}); ${stores('"').trimEnd()} }\n` +
          `else if (${v} !== null && typeof ${v} === 'object') {\nconst ${r} = $wdate(b, o, ${v})\nif (${r} >= 0) o = ${r}\nelse {\nconst ${t} = $pending()\n${text(t)}}\n}\n` +
          `else {\nconst ${t} = $dateTime(${v})\n${text(t)}}\n`
      }
      default:
        return head(before + '"') + `if (typeof ${v} === 'string' && ${v}.length <= ${SHORT_STRING}) o = $wstr(b, o, ${v})\n` +
          `else {\nconst ${t} = typeof ${v} === 'string' ? $strU(${v}) : $coerceStrU(${v})\n${text(t)}}\n` + stores('"')
    }
  }
  /** Statements writing the array `v` of `items` as the array serializer writes it (generate-array.ts). */
  const arrayValue = (v: string, items: Primitive, arrayLoc: string): string => {
    const j = tmp('j')
    const m = tmp('m')
    const e = tmp('e')
    const elementRoom = (items === 'string' ? 2 + 6 * SHORT_STRING : NUMBER_ROOM) + 1 + room
    return `if (${v} === null) { ${stores('[]').trimEnd()} }\n` +
      `else if (!Array.isArray(${v})) throw new TypeError(${lit(`The value of '${arrayLoc}' does not match schema definition.`)})\n` +
      `else {\nconst ${m} = ${v}.length\nb[o] = 91; o++\nfor (let ${j} = 0; ${j} < ${m}; ${j}++) {\n` +
      `if (o + ${elementRoom} > b.length) b = $grow(b, o, ${elementRoom})\n` +
      `if (${j} !== 0) { b[o] = 44; o++ }\nconst ${e} = ${v}[${j}]\n${primitiveValue('', e, items)}}\nb[o] = 93; o++\n}\n`
  }
  /**
   * Statements writing the object held by the mutable local `x` as the object form writes it: its
   * toJSON result if it has one, '{}' (or 'null') for null/undefined, else its properties.
   */
  const objectValue = (x: string, fs: ByteField[], isNullable: boolean, objLoc: string): string => {
    const start = tmp('s')
    let usesStart = false
    let body = ''
    let state: 'none' | 'some' | 'flag' = 'none'
    for (const f of fs) {
      const v = tmp()
      const always = f.required || f.dflt !== undefined
      const sep = state === 'some' ? stores(',') : state === 'flag' ? `if (o !== ${start}) { b[o] = 44; o++ }\n` : ''
      if (state === 'flag') usesStart = true
      const keyJson = JSON.stringify(f.key) + ':'
      const propLoc = `${objLoc}/properties/${f.key}`
      let value: string
      if (f.type === 'object') {
        const nested = tmp('x')
        value = stores(keyJson) + `let ${nested} = ${v}\n${objectValue(nested, f.fields as ByteField[], f.nullable, propLoc)}`
      } else if (f.type === 'array') {
        value = stores(keyJson) + arrayValue(v, f.items as Primitive, propLoc)
      } else if (f.nullable) {
        // as genPart writes it: (v === null ? 'null' : ...)
        value = stores(keyJson) + `if (${v} === null) { ${stores('null').trimEnd()} }\nelse {\n${primitiveValue('', v, f.type)}}\n`
      } else {
        value = primitiveValue(keyJson, v, f.type)
      }
      const write = sep + value
      body += `const ${v} = ${x}[${lit(f.key)}]\n`
      if (f.dflt !== undefined) {
        body += `if (${v} !== undefined) {\n${write}} else {\n${sep}${stores(keyJson + f.dflt)}}\n`
      } else if (f.required) {
        body += `if (${v} === undefined) throw new Error(${lit(`"${f.key}" is required!`)})\n${write}`
      } else {
        body += `if (${v} !== undefined) {\n${write}}\n`
      }
      if (always) state = 'some'
      else if (state === 'none') state = 'flag'
    }
    return `if (${x} && typeof ${x}.toJSON === 'function') ${x} = ${x}.toJSON()\n` +
      `if (${x} == null) { ${stores(isNullable ? 'null' : '{}').trimEnd()} }\n` +
      `else {\nb[o] = 123; o++\n${usesStart ? `const ${start} = o\n` : ''}${body}b[o] = 125; o++\n}\n`
  }
  code += 'let b = $take()\nlet o = 1\nb[0] = 91\nfor (let i = 0; i < n; i++) {\n'
  code += `if (o + ${room} > b.length) b = $grow(b, o, ${room})\n`
  code += 'if (i !== 0) { b[o] = 44; o++ }\n'
  code += 'let obj = input[i]\n' + objectValue('obj', fields, nullable, loc)
  code += '}\nb[o] = 93; o++\nreturn $done(b, o)\n}\n'
  return code
}
