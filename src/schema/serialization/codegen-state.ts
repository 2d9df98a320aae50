/**
 * Code-generation state for one compiled serializer: the named functions generated so far
 * (one per object/array/alternative schema and base URI, so recursive schemas terminate),
 * the constants the generated code reads through `$c[i]` (regexps, matchers, default values),
 * merged schemas (cached by the identity of their parts) and matchers.
 */
import { enterScope, type RefResolver } from '../ref-resolver'
import { MatcherCompiler } from './match'
import { mergeSchemas, type Located, type MergeHost } from './merge'

export type Schema = Record<string, unknown>

interface Deref { schema: unknown, base: string, location: string }

/** Either an expression giving the serialized value (primitives, function calls) or statements appending to `json`. */
export interface Part { expr?: string, code?: string }

/** The generator of one value (generate-value.ts genPart), reached through the state as Ajv's generated code reaches its own through `it`. */
type PartGenerator = (state: CodegenState, schema: unknown, base: string, input: string, loc: string) => Part

export class CodegenState implements MergeHost {
  readonly functions: string[] = []
  readonly consts: unknown[] = []
  private fnCounter = 0
  private tmpCounter = 0
  private readonly fnNames = new Map<unknown, Map<string, string>>()
  private readonly baseHints = new WeakMap<object, string>()
  private readonly merged = new Map<string, Schema>()
  private readonly ids = new WeakMap<object, number>()
  private idCounter = 0
  private readonly matchers: MatcherCompiler
  private readonly matcherConsts = new Map<unknown, Map<string, string>>()

  /** Whether arrays of flat objects are projected + JSON.stringify'd at all (generate-projection.ts), else concatenated. */
  projectArrays = true
  /** Whether arrays of flat objects whose properties include primitive arrays are projected (generate-projection.ts). */
  projectArrayFields = false
  /** Whether arrays of flat objects are written as bytes (generate-bytes.ts) where they are not projected; off only to compare. */
  byteArrays = true
  /** Whether objects take the straight-line form where they fit (generate-object-straight.ts); off only to compare against the general form. */
  straightObjects = true

  constructor (readonly resolver: RefResolver, private readonly partGenerator: PartGenerator) {
    this.matchers = new MatcherCompiler(resolver)
  }

  /** The serialization of `input` by `schema` (at `base`, reported as `loc`): an expression or statements. */
  part (schema: unknown, base: string, input: string, loc: string): Part {
    return this.partGenerator(this, schema, base, input, loc)
  }

  /** Expression reading a runtime constant. */
  constant (value: unknown): string {
    this.consts.push(value)
    return `$c[${this.consts.length - 1}]`
  }

  /** A fresh local variable name. */
  tmp (prefix = 'v'): string {
    return prefix + String(this.tmpCounter++)
  }

  /**
   * The name of the function serializing `schema` at `base`; `build(name)` produces its source the
   * first time (the name is registered before building, so recursion refers to it).
   */
  functionFor (schema: unknown, base: string, build: (name: string) => string): string {
    let byBase = this.fnNames.get(schema)
    if (byBase === undefined) { byBase = new Map(); this.fnNames.set(schema, byBase) }
    const known = byBase.get(base)
    if (known !== undefined) return known
    const name = 'f' + String(this.fnCounter++)
    byBase.set(base, name)
    this.functions.push(build(name))
    return name
  }

  /** Expression of a matcher (`anyOf`/`oneOf`/`if`) for `schema` at `base`. */
  matcher (schema: unknown, base: string): string {
    let byBase = this.matcherConsts.get(schema)
    if (byBase === undefined) { byBase = new Map(); this.matcherConsts.set(schema, byBase) }
    let expr = byBase.get(base)
    if (expr === undefined) {
      expr = this.constant(this.matchers.compile(schema, this.baseOf(schema, base)))
      byBase.set(base, expr)
    }
    return expr
  }

  private readonly variants = new Map<string, Schema>()

  /** A derived schema cached by (parent identity, key), so derived schemas keep a stable identity. */
  variant (parent: Schema, key: string, make: () => Schema): Schema {
    const k = String(this.idOf(parent)) + ':' + key
    let v = this.variants.get(k)
    if (v === undefined) { v = make(); this.variants.set(k, v) }
    return v
  }

  /** The base URI inside `schema`. */
  inner (outer: string, schema: unknown): string {
    return enterScope(outer, schema)
  }

  hintAll (schemas: unknown[], base: string): void {
    for (const s of schemas) this.hint(s, base)
  }

  hint (schema: unknown, base: string): void {
    if (schema !== null && typeof schema === 'object' && !this.baseHints.has(schema)) this.baseHints.set(schema, base)
  }

  /** The base around `schema`: the recorded one for sub-schemas moved by a merge, else `base`. */
  baseOf (schema: unknown, base: string): string {
    if (schema !== null && typeof schema === 'object') {
      const hinted = this.baseHints.get(schema)
      if (hinted !== undefined) return hinted
    }
    return base
  }

  /** Follows `$ref` chains (siblings of `$ref` are ignored, as in draft 7). */
  deref (schema: unknown, base: string, location = '#'): Deref {
    let current = schema
    let outer = this.baseOf(schema, base)
    let loc = location
    const seen = new Set<unknown>()
    while (current !== null && typeof current === 'object' && typeof (current as Schema).$ref === 'string') {
      if (seen.has(current)) throw new Error(`Circular $ref "${String((current as Schema).$ref)}"`)
      seen.add(current)
      const r = this.resolver.resolve((current as Schema).$ref as string, enterScope(outer, current))
      current = r.schema
      outer = r.base
      loc = r.location
    }
    return { schema: current, base: outer, location: loc }
  }

  private idOf (o: object): number {
    let id = this.ids.get(o)
    if (id === undefined) { id = ++this.idCounter; this.ids.set(o, id) }
    return id
  }

  /** Merges located schemas (each `$ref` followed first); the same parts give the same object. */
  merge (parts: Array<{ schema: unknown, base: string }>): { schema: Schema, base: string } {
    const located: Located[] = []
    const expand = (schema: unknown, base: string, depth: number): void => {
      const r = this.deref(schema, base)
      const s = (r.schema !== null && typeof r.schema === 'object' ? r.schema : {}) as Schema
      const inner = enterScope(r.base, s)
      located.push({ schema: s, base: inner })
      // nested allOf: its members join the merge (the part itself contributes its other keywords)
      if (Array.isArray(s.allOf) && depth < 64) for (const item of s.allOf) expand(item, inner, depth + 1)
    }
    for (const p of parts) expand(p.schema, p.base, 0)
    const key = located.map((l) => String(this.idOf(l.schema)) + '@' + l.base).join('|')
    let result = this.merged.get(key)
    if (result === undefined) {
      result = mergeSchemas(located, this)
      this.merged.set(key, result)
    }
    const base = located.length > 0 ? located[0].base : ''
    this.hint(result, base)
    return { schema: result, base }
  }
}
