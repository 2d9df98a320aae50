/**
 * Objects: one generated function per (schema, base URI). Declared properties are read by literal
 * name (no Object.keys), required ones first (as fast-json-stringify@5 orders them), so commas are
 * known statically after the first always-written property. `patternProperties` and
 * `additionalProperties` (true or a schema) iterate the remaining own keys; undeclared properties are
 * never written otherwise.
 */
import type { CodegenState, Schema } from './codegen-state'
import type { GenValue } from './generate-value'
import { lit } from './generate-text'
import { buildStraightObject, straightProperties } from './generate-object-straight'

function isObject (v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

function toRegExp (pattern: string): RegExp {
  try { return new RegExp(pattern) } catch {
    try { return new RegExp(pattern, 'u') } catch {
      throw new Error('schema is invalid: data/patternProperties must match format "regex"')
    }
  }
}

export function genObjectFunction (ctx: CodegenState, schema: Schema, base: string, loc: string, gen: GenValue): string {
  return ctx.functionFor(schema, base, (name) => buildObject(ctx, schema, base, loc, gen, name))
}

function buildObject (ctx: CodegenState, schema: Schema, outer: string, loc: string, gen: GenValue, name: string): string {
  const base = ctx.inner(outer, schema)
  const properties = isObject(schema.properties) ? schema.properties : {}
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]).filter((x): x is string => typeof x === 'string') : []
  const keys = Object.keys(properties)
  const ordered = [...keys.filter((k) => required.includes(k)), ...keys.filter((k) => !required.includes(k))]

  let code = `function ${name} (input) {\n`
  code += 'const obj = (input && typeof input.toJSON === \'function\') ? input.toJSON() : input\n'
  code += `if (obj == null) return ${schema.nullable === true ? '\'null\'' : '\'{}\''}\n`
  for (const key of required) {
    if (!keys.includes(key)) code += `if (obj[${lit(key)}] === undefined) throw new Error(${lit(`"${key}" is required!`)})\n`
  }
  const patterns = isObject(schema.patternProperties) ? schema.patternProperties : undefined
  const additional = schema.additionalProperties
  const extraKeys = patterns !== undefined || (additional !== undefined && additional !== false)
  if (ctx.straightObjects && !extraKeys) {
    const defaultOf = (key: string): unknown => {
      const target = ctx.deref(properties[key], base, `${loc}/properties/${key}`).schema
      return isObject(target) ? target.default : undefined
    }
    const straight = straightProperties(ctx, properties, ordered, required, base, loc, defaultOf)
    if (straight !== undefined) return buildStraightObject(ctx, name, code, straight)
  }
  code += 'let json = \'{\'\n'
  // comma state: 'none' = nothing written yet for sure, 'some' = something written for sure, 'flag' = runtime flag `c`
  let state: 'none' | 'some' | 'flag' = 'none'
  let usesFlag = false
  const sep = (): string => {
    if (state === 'some') return 'json += \',\'\n'
    if (state === 'flag') return 'if (c) json += \',\'\nelse c = true\n'
    return ''
  }
  for (const key of ordered) {
    const prop = properties[key]
    const v = ctx.tmp()
    const keyLit = lit(JSON.stringify(key) + ':')
    const propLoc = `${loc}/properties/${key}`
    const target = ctx.deref(prop, base, propLoc).schema
    const dflt = isObject(target) ? target.default : undefined
    const isRequired = required.includes(key)
    const always = isRequired || dflt !== undefined
    const before = state === 'none' && !always ? 'c = true\n' : sep()
    if (state === 'none' && !always) usesFlag = true
    const part = ctx.part(prop, base, v, propLoc)
    let write: string
    if (part.expr !== undefined) {
      // separator, key and value in one concatenation
      const keyJson = JSON.stringify(key) + ':'
      if (state === 'some') write = `json += ${lit(',' + keyJson)} + ${part.expr}\n`
      else if (state === 'flag') write = `json += (c ? ${lit(',' + keyJson)} : ${lit(keyJson)}) + ${part.expr}\nc = true\n`
      else write = `json += ${lit(keyJson)} + ${part.expr}\n${always ? '' : 'c = true\n'}`
    } else {
      write = `${before}json += ${keyLit}\n${part.code as string}`
    }
    code += `const ${v} = obj[${lit(key)}]\nif (${v} !== undefined) {\n${write}}`
    if (dflt !== undefined) {
      // the default is part of the schema (author-controlled), written as JSON.stringify(default)
      code += ` else {\n${before}json += ${lit(JSON.stringify(key) + ':' + (JSON.stringify(dflt) ?? 'null'))}\n}\n`
    } else if (isRequired) {
      code += ` else throw new Error(${lit(`"${key}" is required!`)})\n`
    } else {
      code += '\n'
    }
    if (always) state = 'some'
    else if (state === 'none') state = 'flag'
  }

  if (extraKeys) {
    if (state === 'none') { usesFlag = true; state = 'flag' }
    const declared = ctx.constant(new Set(keys))
    code += `const keys = Object.keys(obj)\nfor (let i = 0; i < keys.length; i++) {\nconst k = keys[i]\nif (${declared}.has(k)) continue\n`
    code += 'const v = obj[k]\nif (v === undefined || typeof v === \'function\' || typeof v === \'symbol\') continue\n'
    for (const pattern of Object.keys(patterns ?? {})) {
      const re = ctx.constant(toRegExp(pattern))
      const pLoc = `${loc}/patternProperties/${pattern}`
      code += `if (${re}.test(k)) {\n${sep()}json += $str(k) + ':'\n${gen(ctx, patterns![pattern], base, 'v', pLoc)}continue\n}\n`
    }
    if (additional === true || (isObject(additional) && Object.keys(additional).length === 0)) {
      code += `${sep()}json += $str(k) + ':' + $any(v)\n`
    } else if (isObject(additional)) {
      code += `${sep()}json += $str(k) + ':'\n${gen(ctx, additional, base, 'v', `${loc}/additionalProperties`)}`
    }
    code += '}\n'
  }
  if (usesFlag) code = code.replace('let json = \'{\'\n', 'let json = \'{\'\nlet c = false\n')
  code += 'return json + \'}\'\n}\n'
  return code
}
