/**
 * Objects, straight-line form: each declared property is read and serialized into a local, in the
 * same order as the general form (generate-object.ts) reads and writes them, and the object's JSON
 * is one concatenation at the end, with every separator and key known at generation time. It
 * measured faster than appending to `json` under a runtime comma flag (fewer branches and string
 * appends per object; docs/benchmarks.md, Serializer), most on nested objects.
 *
 * That needs every property present (or required, which throws as the general form does, or with a
 * `default`, whose literal is written). At the first absent optional property the function hands
 * over to its resume function (`<name>r`): the serializations written so far, and the index of the
 * absent property; the resume function writes them and continues with the general form from the
 * next property.
 * Nothing is read or converted twice: every property read, `toJSON` call, coercion and error
 * happens exactly once and in the general form's order.
 *
 * Taken for objects without `patternProperties` / `additionalProperties` whose every property has
 * a single-expression serialization (not a `type: [...]` list), with at most STRAIGHT_MAX_PROPERTIES
 * properties (each hand-over point passes the locals written so far, so the source grows with the
 * square of the property count).
 */
import type { CodegenState, Schema } from './codegen-state'
import { lit } from './generate-text'

const STRAIGHT_MAX_PROPERTIES = 32

interface StraightProperty {
  key: string
  /** the property's serialization: an expression of the local named `v` */
  expr: (v: string) => string
  /**
   * For a plain string property (its serialization is `$str`/`$coerceStr`, always a quoted JSON
   * string): the same serialization without its outer quotes, which go into the literals around it.
   * Two string concatenations fewer per property; the rope the server flattens has fewer nodes.
   */
  unquoted: ((v: string) => string) | undefined
  required: boolean
  /** JSON of the schema's `default`, written when the property is absent */
  dflt: string | undefined
}

/** The properties in writing order, or undefined when the object does not fit the straight form. */
export function straightProperties (ctx: CodegenState, properties: Schema, ordered: string[], required: string[],
  base: string, loc: string, defaultOf: (key: string) => unknown): StraightProperty[] | undefined {
  if (ordered.length === 0 || ordered.length > STRAIGHT_MAX_PROPERTIES) return undefined
  const out: StraightProperty[] = []
  for (const key of ordered) {
    const propLoc = `${loc}/properties/${key}`
    // generated once with a placeholder for the local's name (a NUL never occurs in generated
    // source: literals are JSON.stringify'd, which escapes it)
    const template = ctx.part(properties[key], base, '\u0000', propLoc).expr
    if (template === undefined) return undefined
    const parts = template.split('\u0000')
    const expr = (v: string): string => parts.join(v)
    const d = defaultOf(key)
    const unquoted = d === undefined && expr('v') === plainString('v') ? unquotedString : undefined
    out.push({ key, expr, unquoted, required: required.includes(key), dflt: d === undefined ? undefined : (JSON.stringify(d) ?? 'null') })
  }
  return out
}

/** What genPart writes for a plain `type: 'string'` schema. */
export function plainString (v: string): string {
  return `(typeof ${v} === 'string' ? $str(${v}) : $coerceStr(${v}))`
}

/** The same without the outer quotes ($strU / $coerceStrU: runtime.ts). */
export function unquotedString (v: string): string {
  return `(typeof ${v} === 'string' ? $strU(${v}) : $coerceStrU(${v}))`
}

/** Joins literal strings and expressions into one concatenation, adjacent literals merged. */
function concat (pieces: Array<{ text: string } | { expr: string }>): string {
  const merged: string[] = []
  let pending = ''
  for (const p of pieces) {
    if ('text' in p) { pending += p.text; continue }
    if (pending !== '') { merged.push(lit(pending)); pending = '' }
    merged.push(p.expr)
  }
  if (pending !== '') merged.push(lit(pending))
  return merged.join(' + ')
}

/**
 * Source of the straight-line object function `name` and its resume function. `head` is the
 * preamble up to and including the null check and the checks of required undeclared properties.
 */
export function buildStraightObject (ctx: CodegenState, name: string, head: string, props: StraightProperty[]): string {
  const vars = props.map(() => ctx.tmp())
  const strs = props.map(() => ctx.tmp('s'))
  const opens = props.map((p, i) => (i === 0 ? '{' : ',') + JSON.stringify(p.key) + ':' + (p.unquoted !== undefined ? '"' : ''))
  const closes = props.map((p) => p.unquoted !== undefined ? '"' : '')
  const written = (): string => {
    const pieces: Array<{ text: string } | { expr: string }> = []
    props.forEach((p, i) => pieces.push({ text: opens[i] }, { expr: strs[i] }, { text: closes[i] }))
    pieces.push({ text: '}' })
    return concat(pieces)
  }
  let code = head
  props.forEach((p, i) => {
    const v = vars[i]
    code += `const ${v} = obj[${lit(p.key)}]\n`
    const value = p.unquoted !== undefined ? p.unquoted(v) : p.expr(v)
    if (p.dflt !== undefined) {
      // a default wins over required (as in the general form)
      code += `const ${strs[i]} = ${v} === undefined ? ${lit(p.dflt)} : ${value}\n`
    } else if (p.required) {
      code += `if (${v} === undefined) throw new Error(${lit(`"${p.key}" is required!`)})\nconst ${strs[i]} = ${value}\n`
    } else {
      code += `if (${v} === undefined) return ${name}r(obj, ${i}, [${strs.slice(0, i).join(', ')}])\nconst ${strs[i]} = ${value}\n`
    }
  })
  code += `return ${written()}\n}\n`
  return code + buildResume(ctx, name, props, ctx.constant(opens), ctx.constant(closes))
}

/**
 * `<name>r (obj, j, s)`: property `j` was absent, `s` holds the serializations of properties 0..j-1
 * (as the straight form writes them between `opens[i]` and `closes[i]`); writes them, then the rest
 * the general way.
 */
function buildResume (ctx: CodegenState, name: string, props: StraightProperty[], opens: string, closes: string): string {
  let code = `function ${name}r (obj, j, s) {\nlet json = j === 0 ? '{' : ''\nfor (let i = 0; i < j; i++) json += ${opens}[i] + s[i] + ${closes}[i]\nlet c = j !== 0\n`
  props.forEach((p, i) => {
    if (i === 0) return
    const v = ctx.tmp()
    const keyJson = JSON.stringify(p.key) + ':'
    code += `if (j < ${i}) {\nconst ${v} = obj[${lit(p.key)}]\n`
    code += `if (${v} !== undefined) {\njson += (c ? ${lit(',' + keyJson)} : ${lit(keyJson)}) + ${p.expr(v)}\nc = true\n}`
    if (p.dflt !== undefined) code += ` else {\njson += (c ? ${lit(',' + keyJson + p.dflt)} : ${lit(keyJson + p.dflt)})\nc = true\n}\n`
    else if (p.required) code += ` else throw new Error(${lit(`"${p.key}" is required!`)})\n`
    else code += '\n'
    code += '}\n'
  })
  return code + 'return json + \'}\'\n}\n'
}
