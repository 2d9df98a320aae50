/**
 * `anyOf`/`oneOf` and `if`/`then`/`else`: a generated function tests the value with a compiled
 * matcher (see match.ts) and serializes it with the schema merged from the parent (without the
 * combinator) and the chosen branch. Nothing matching throws
 * "The value of '<location>' does not match schema definition." (as fast-json-stringify@5).
 */
import type { CodegenState, Schema } from './codegen-state'
import type { GenValue } from './generate-value'
import { lit } from './generate-text'

/** True when `rest` (the schema without its combinator) carries nothing that changes serialization. */
function isTrivial (rest: Schema): boolean {
  return Object.keys(rest).every((k) => k === '$id' || k === 'description' || k === 'title' || k === '$schema' ||
    k === 'definitions' || k === '$defs' || k === 'examples' || k === '$comment')
}

export function genAlternativesFunction (ctx: CodegenState, schema: Schema, outer: string, loc: string, gen: GenValue): string {
  return ctx.functionFor(schema, outer, (name) => {
    const base = ctx.inner(outer, schema)
    const key = Array.isArray(schema.anyOf) ? 'anyOf' : 'oneOf'
    const options = schema[key] as unknown[]
    const rest = ctx.variant(schema, 'without:' + key, () => { const { [key]: _omit, ...r } = schema; return r })
    const trivial = isTrivial(rest)
    let code = `function ${name} (input) {\nlet json = ''\n`
    options.forEach((option, i) => {
      const optLoc = `${loc}/${key}/${i}`
      const matcher = ctx.matcher(option, base)
      let body: string
      if (trivial) {
        body = gen(ctx, option, base, 'input', optLoc)
      } else {
        const merged = ctx.merge([{ schema: rest, base: outer }, { schema: option, base }])
        body = gen(ctx, merged.schema, merged.base, 'input', optLoc)
      }
      code += `${i === 0 ? 'if' : 'else if'} (${matcher}(input)) {\n${body}}\n`
    })
    code += `else throw new TypeError(${lit(`The value of '${loc}' does not match schema definition.`)})\n`
    return code + 'return json\n}\n'
  })
}

export function genIfThenElseFunction (ctx: CodegenState, schema: Schema, outer: string, loc: string, gen: GenValue): string {
  return ctx.functionFor(schema, outer, (name) => {
    const base = ctx.inner(outer, schema)
    const { if: ifSchema, then: thenSchema, else: elseSchema } = schema
    const rest = ctx.variant(schema, 'without:if', () => { const { if: _i, then: _t, else: _e, ...r } = schema; return r })
    const matcher = ctx.matcher(ifSchema, base)
    const thenMerged = ctx.merge([{ schema: rest, base: outer }, { schema: thenSchema, base }])
    const elseMerged = elseSchema === undefined
      ? { schema: rest, base: outer }
      : ctx.merge([{ schema: rest, base: outer }, { schema: elseSchema, base }])
    let code = `function ${name} (input) {\nlet json = ''\n`
    code += `if (${matcher}(input)) {\n${gen(ctx, thenMerged.schema, thenMerged.base, 'input', `${loc}/then`)}}\n`
    code += `else {\n${gen(ctx, elseMerged.schema, elseMerged.base, 'input', elseSchema === undefined ? loc : `${loc}/else`)}}\n`
    return code + 'return json\n}\n'
  })
}
