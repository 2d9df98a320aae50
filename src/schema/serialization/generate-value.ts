/**
 * Code generation entry: `genValue` returns JavaScript statements that append the serialization of
 * the expression `input` (always a plain identifier) to the local variable `json`.
 * Property names and messages reach the source only as JSON.stringify'd literals; data never does.
 */
import { enterScope } from '../ref-resolver'
import type { CodegenState, Part, Schema } from './codegen-state'
import { inferType, lit, typeCondition } from './generate-text'
import { genObjectFunction } from './generate-object'
import { genArrayFunction } from './generate-array'
import { genAlternativesFunction, genIfThenElseFunction } from './generate-combinators'

export type GenValue = (ctx: CodegenState, schema: unknown, base: string, input: string, loc: string) => string

const KNOWN_TYPES = new Set(['null', 'boolean', 'string', 'number', 'integer', 'object', 'array'])

function isObject (v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

export const genValue: GenValue = (ctx, schema, base, input, loc) => {
  const r = genPart(ctx, schema, base, input, loc)
  return r.expr !== undefined ? `json += ${r.expr}\n` : r.code as string
}

export function genPart (ctx: CodegenState, rawSchema: unknown, rawBase: string, input: string, rawLoc: string): Part {
  if (rawSchema === undefined || typeof rawSchema === 'boolean') return { expr: `$any(${input})` }
  if (!isObject(rawSchema)) throw new Error(`schema is invalid: ${rawLoc} must be an object or a boolean`)
  const { schema: target, base, location: loc } = ctx.deref(rawSchema, rawBase, rawLoc)
  if (target === undefined || typeof target === 'boolean') return { expr: `$any(${input})` }
  if (!isObject(target)) throw new Error(`schema is invalid: ${loc} must be an object or a boolean`)
  const schema = target

  if (Array.isArray(schema.allOf)) {
    const allOf = schema.allOf
    const rest = ctx.variant(schema, 'without:allOf', () => { const { allOf: _a, ...r } = schema; return r })
    const inner = enterScope(base, schema)
    const merged = ctx.merge([{ schema: rest, base }, ...allOf.map((s) => ({ schema: s, base: inner }))])
    return genPart(ctx, merged.schema, merged.base, input, loc)
  }
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    return { expr: `${genAlternativesFunction(ctx, schema, base, loc, genValue)}(${input})` }
  }
  if (schema.if !== undefined && schema.then !== undefined) {
    return { expr: `${genIfThenElseFunction(ctx, schema, base, loc, genValue)}(${input})` }
  }

  const type = inferType(schema)
  const nullable = schema.nullable === true
  if (schema.const !== undefined) {
    const constLit = lit(JSON.stringify(schema.const) ?? 'null')
    const orNull = nullable || (Array.isArray(type) && type.includes('null'))
    return { expr: orNull ? `(${input} === null ? 'null' : ${constLit})` : constLit }
  }
  if (Array.isArray(type)) {
    const code = genMultiType(ctx, schema, base, input, loc, type)
    return { code: nullable ? `if (${input} === null) json += 'null'\nelse {\n${code}}\n` : code }
  }
  const expr = genSingleType(ctx, schema, base, input, loc, type)
  return { expr: nullable && type !== 'null' ? `(${input} === null ? 'null' : ${expr})` : expr }
}

function genSingleType (ctx: CodegenState, schema: Schema, base: string, input: string, loc: string, type: unknown): string {
  switch (type) {
    case undefined: return `$any(${input})`
    case 'null': return '\'null\''
    case 'boolean': return `(${input} ? 'true' : 'false')`
    case 'integer': return `(Number.isInteger(${input}) ? '' + ${input} : $int(${input}))`
    case 'number': return `((typeof ${input} === 'number' && ${input} - ${input} === 0) ? $fnum(${input}) : $num(${input}))`
    case 'string': {
      if (schema.format === 'date-time') return `$dateTime(${input})`
      if (schema.format === 'date') return `$date(${input})`
      if (schema.format === 'time') return `$time(${input})`
      return `(typeof ${input} === 'string' ? $str(${input}) : $coerceStr(${input}))`
    }
    case 'object': return `${genObjectFunction(ctx, schema, base, loc, genValue)}(${input})`
    case 'array': return `${genArrayFunction(ctx, schema, base, loc, genValue)}(${input})`
    default: throw new Error(`${String(type)} unsupported`)
  }
}

function genMultiType (ctx: CodegenState, schema: Schema, base: string, input: string, loc: string, types: unknown[]): string {
  const sorted = [...types].sort((a, b) => (a === 'null' ? -1 : 0) - (b === 'null' ? -1 : 0))
  let code = ''
  sorted.forEach((t, i) => {
    if (typeof t !== 'string' || !KNOWN_TYPES.has(t)) throw new Error(`${String(t)} unsupported`)
    const single = t === 'object' || t === 'array' ? ctx.variant(schema, 'type:' + t, () => ({ ...schema, type: t })) : schema
    if (single !== schema) ctx.hint(single, ctx.baseOf(schema, base))
    code += `${i === 0 ? 'if' : 'else if'} (${typeCondition(t, input)}) {\njson += ${genSingleType(ctx, single, base, input, loc, t)}\n}\n`
  })
  code += `else throw new TypeError(${lit(`The value of '${loc}' does not match schema definition.`)})\n`
  return code
}
