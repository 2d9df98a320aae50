/**
 * Arrays: one generated function per (schema, base URI). `items` as a schema serializes every
 * element with it; `items` as a tuple checks each position's type (fast-json-stringify@5 behaviour:
 * a mismatching item throws "Item at <i> does not match schema definition."), and extra elements are
 * written with `additionalItems` (a schema, or JSON.stringify for `true`) or refused.
 */
import type { CodegenState, Schema } from './codegen-state'
import type { GenValue } from './generate-value'
import { inferType, lit, typeCondition } from './generate-text'
import { genProjectionFunction, projectableFields } from './generate-projection'
import { plainString, unquotedString } from './generate-object-straight'
import { buildByteLoop, byteFields } from './generate-bytes'

export function genArrayFunction (ctx: CodegenState, schema: Schema, base: string, loc: string, gen: GenValue): string {
  return ctx.functionFor(schema, base, (name) => buildArray(ctx, schema, base, loc, gen, name))
}

function itemCondition (type: unknown, x: string): string | undefined {
  if (typeof type === 'string') {
    switch (type) {
      case 'integer': return `Number.isInteger(${x})`
      case 'number': return `Number.isFinite(${x})`
      case 'boolean': return `typeof ${x} === 'boolean'`
      case 'object': return `(${x} !== null && typeof ${x} === 'object' && ${x}.constructor === Object)`
      case 'string': return `(typeof ${x} === 'string' || ${x} === null || ${x} instanceof Date || ${x} instanceof RegExp || ` +
        `(typeof ${x} === 'object' && typeof ${x}.toString === 'function' && ${x}.toString !== Object.prototype.toString))`
      default: return typeCondition(type, x)
    }
  }
  if (Array.isArray(type)) return '(' + type.map((t) => itemCondition(t, x) ?? 'true').join(' || ') + ')'
  return undefined
}

function buildArray (ctx: CodegenState, schema: Schema, outer: string, loc: string, gen: GenValue, name: string): string {
  const base = ctx.inner(outer, schema)
  let code = `function ${name} (input) {\n`
  code += `if (input === null || input === undefined) return ${schema.nullable === true ? '\'null\'' : '\'[]\''}\n`
  code += `if (!Array.isArray(input)) throw new TypeError(${lit(`The value of '${loc}' does not match schema definition.`)})\n`
  code += 'const n = input.length\nif (n === 0) return \'[]\'\n'
  const items = schema.items !== null && typeof schema.items === 'object' && !Array.isArray(schema.items)
    ? (() => { const r = ctx.deref(schema.items, base); return Array.isArray(r.schema) ? (ctx.hintAll(r.schema, r.base), r.schema) : schema.items })()
    : schema.items
  if (Array.isArray(items)) {
    const additional = schema.additionalItems
    if (additional === undefined || additional === false) {
      code += `if (n > ${items.length}) throw new Error(${lit(`Item at ${items.length} does not match schema definition.`)})\n`
    }
    code += 'let json = \'[\'\n'
    items.forEach((item, i) => {
      const v = ctx.tmp()
      const itemLoc = `${loc}/items/${i}`
      const target = ctx.deref(item, base, itemLoc).schema
      const cond = target !== null && typeof target === 'object' ? itemCondition(inferType(target as Schema), v) : undefined
      const check = cond === undefined ? '' : `if (!(${cond})) throw new Error(${lit(`Item at ${i} does not match schema definition.`)})\n`
      code += `if (n > ${i}) {\n${i > 0 ? 'json += \',\'\n' : ''}const ${v} = input[${i}]\n${check}${gen(ctx, item, base, v, itemLoc)}}\n`
    })
    if (additional !== undefined && additional !== false) {
      code += `for (let i = ${items.length}; i < n; i++) {\nif (i > 0) json += ','\nconst v = input[i]\n`
      code += additional === true ? 'json += $any(v)\n' : gen(ctx, additional, base, 'v', `${loc}/additionalItems`)
      code += '}\n'
    }
    return code + 'return json + \']\'\n}\n'
  }
  const itemsTarget = items !== null && typeof items === 'object' ? ctx.deref(items, base, `${loc}/items`) : undefined
  const fields = itemsTarget !== undefined && ctx.projectArrays ? projectableFields(itemsTarget.schema, ctx.projectArrayFields) : undefined
  if (fields !== undefined && itemsTarget !== undefined) {
    // arrays of flat objects: project, then one JSON.stringify; the concatenating code below is the
    // fallback for values a projection cannot express (BigInt)
    const project = genProjectionFunction(ctx, fields, itemsTarget.location)
    const concat = name + 'c'
    ctx.functions.push(buildConcatLoop(ctx, items, base, loc, code.replace(`function ${name} (`, `function ${concat} (`)))
    code += `const out = new Array(n)
try {
for (let i = 0; i < n; i++) out[i] = ${project}(input[i])
} catch (e) {
`
    code += `if (e === $fallback) return ${concat}(input)
throw e
}
return JSON.stringify(out)
}
`
    return code
  }
  const bytes = itemsTarget !== undefined && ctx.byteArrays ? byteFields(itemsTarget.schema) : undefined
  if (bytes !== undefined && itemsTarget !== undefined) {
    const nullable = (itemsTarget.schema as Schema).nullable === true
    return buildByteLoop(bytes, nullable, itemsTarget.location, code, (prefix) => ctx.tmp(prefix))
  }
  return buildConcatLoop(ctx, items, base, loc, code)
}

/** The rest of an array function after the shared prelude `code`: one serialized item after another. */
function buildConcatLoop (ctx: CodegenState, items: unknown, base: string, loc: string, code: string): string {
  const part = ctx.part(items, base, 'v', `${loc}/items`)
  if (part.expr === plainString('v')) {
    // strings: the quotes go into the literals between the elements (fewer concatenations per element)
    const u = unquotedString('v')
    code += `let v = input[0]\nlet json = '["' + ${u}\nfor (let i = 1; i < n; i++) {\nv = input[i]\njson += '","' + ${u}\n}\n`
    return code + 'return json + \'"]\'\n}\n'
  }
  if (part.expr !== undefined) {
    // first element outside the loop: no per-item comma test
    code += `let v = input[0]\nlet json = '[' + ${part.expr}\nfor (let i = 1; i < n; i++) {\nv = input[i]\njson += ',' + ${part.expr}\n}\n`
    return code + 'return json + \']\'\n}\n'
  }
  code += 'let json = \'[\'\nfor (let i = 0; i < n; i++) {\nif (i !== 0) json += \',\'\nconst v = input[i]\n'
  code += part.code as string
  return code + '}\nreturn json + \']\'\n}\n'
}
