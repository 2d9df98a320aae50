/**
 * Code generation entry: `genValue` returns JavaScript statements that append the serialization of
 * the expression `input` (always a plain identifier) to the local variable `json`.
 * Property names and messages reach the source only as JSON.stringify'd literals; data never does.
 */
import { enterScope } from '../ref-resolver'
import type { GenContext, Schema } from './context'
import { genObjectFunction } from './generate-object'
import { genArrayFunction } from './generate-array'
import { genAlternativesFunction, genIfThenElseFunction } from './generate-combinators'

export type GenValue = (ctx: GenContext, schema: unknown, base: string, input: string, loc: string) => string

const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties', 'patternProperties', 'maxProperties', 'minProperties', 'dependencies']
const ARRAY_KEYWORDS = ['items', 'additionalItems', 'maxItems', 'minItems', 'uniqueItems', 'contains']
const STRING_KEYWORDS = ['maxLength', 'minLength', 'pattern']
const NUMBER_KEYWORDS = ['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum']
const KNOWN_TYPES = new Set(['null', 'boolean', 'string', 'number', 'integer', 'object', 'array'])

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

function isObject (v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

export const genValue: GenValue = (ctx, rawSchema, rawBase, input, rawLoc) => {
  if (rawSchema === undefined || typeof rawSchema === 'boolean') return `json += $any(${input})\n`
  if (!isObject(rawSchema)) throw new Error(`schema is invalid: ${rawLoc} must be an object or a boolean`)
  const { schema: target, base, location: loc } = ctx.deref(rawSchema, rawBase, rawLoc)
  if (target === undefined || typeof target === 'boolean') return `json += $any(${input})\n`
  if (!isObject(target)) throw new Error(`schema is invalid: ${loc} must be an object or a boolean`)
  const schema = target

  if (Array.isArray(schema.allOf)) {
    const allOf = schema.allOf
    const rest = ctx.variant(schema, 'without:allOf', () => { const { allOf: _a, ...r } = schema; return r })
    const inner = enterScope(base, schema)
    const merged = ctx.merge([{ schema: rest, base }, ...allOf.map((s) => ({ schema: s, base: inner }))])
    return genValue(ctx, merged.schema, merged.base, input, loc)
  }
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    return `json += ${genAlternativesFunction(ctx, schema, base, loc, genValue)}(${input})\n`
  }
  if (schema.if !== undefined && schema.then !== undefined) {
    return `json += ${genIfThenElseFunction(ctx, schema, base, loc, genValue)}(${input})\n`
  }

  const type = inferType(schema)
  let code: string
  if (schema.const !== undefined) {
    const constJson = JSON.stringify(schema.const) ?? 'null'
    code = Array.isArray(type) && type.includes('null')
      ? `if (${input} === null) json += 'null'\nelse json += ${lit(constJson)}\n`
      : `json += ${lit(constJson)}\n`
  } else if (Array.isArray(type)) {
    code = genMultiType(ctx, schema, base, input, loc, type)
  } else {
    code = genSingleType(ctx, schema, base, input, loc, type)
  }
  if (schema.nullable === true) code = `if (${input} === null) json += 'null'\nelse {\n${code}}\n`
  return code
}

function genSingleType (ctx: GenContext, schema: Schema, base: string, input: string, loc: string, type: unknown): string {
  switch (type) {
    case undefined: return `json += $any(${input})\n`
    case 'null': return 'json += \'null\'\n'
    case 'boolean': return `json += ${input} ? 'true' : 'false'\n`
    case 'integer': return `json += Number.isInteger(${input}) ? '' + ${input} : $int(${input})\n`
    case 'number': return `json += (typeof ${input} === 'number' && ${input} - ${input} === 0) ? '' + ${input} : $num(${input})\n`
    case 'string': {
      if (schema.format === 'date-time') return `json += $dateTime(${input})\n`
      if (schema.format === 'date') return `json += $date(${input})\n`
      if (schema.format === 'time') return `json += $time(${input})\n`
      return `json += typeof ${input} === 'string' ? (${input}.length < 5000 && !$esc.test(${input}) ? '"' + ${input} + '"' : JSON.stringify(${input})) : $coerceStr(${input})\n`
    }
    case 'object': return `json += ${genObjectFunction(ctx, schema, base, loc, genValue)}(${input})\n`
    case 'array': return `json += ${genArrayFunction(ctx, schema, base, loc, genValue)}(${input})\n`
    default: throw new Error(`${String(type)} unsupported`)
  }
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

function genMultiType (ctx: GenContext, schema: Schema, base: string, input: string, loc: string, types: unknown[]): string {
  const sorted = [...types].sort((a, b) => (a === 'null' ? -1 : 0) - (b === 'null' ? -1 : 0))
  let code = ''
  sorted.forEach((t, i) => {
    if (typeof t !== 'string' || !KNOWN_TYPES.has(t)) throw new Error(`${String(t)} unsupported`)
    const single = t === 'object' || t === 'array' ? ctx.variant(schema, 'type:' + t, () => ({ ...schema, type: t })) : schema
    if (single !== schema) ctx.hint(single, ctx.baseOf(schema, base))
    code += `${i === 0 ? 'if' : 'else if'} (${typeCondition(t, input)}) {\n${genSingleType(ctx, single, base, input, loc, t)}}\n`
  })
  code += `else throw new TypeError(${lit(`The value of '${loc}' does not match schema definition.`)})\n`
  return code
}
