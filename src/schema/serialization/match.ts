/**
 * A small JSON Schema matcher used where the serializer must choose between alternatives
 * (`anyOf`, `oneOf`, `if`). Compiled once per schema into a tree of predicates (no closure is
 * created per call). Like fast-json-stringify@5, a `Date` matches `type: 'string'`.
 * Supported: type, nullable, enum, const, numeric and string bounds, pattern, common formats,
 * items/tuples/additionalItems/contains/uniqueItems/min/maxItems, properties/required/
 * additionalProperties/patternProperties/propertyNames/min/maxProperties/dependencies,
 * allOf/anyOf/oneOf/not/if-then-else, $ref. Unknown keywords are ignored (they match).
 */
import { enterScope, type RefResolver } from '../ref-resolver'

type Matcher = (value: unknown) => boolean

const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d(?::?\d\d)?)$/,
  date: /^\d{4}-\d\d-\d\d$/,
  time: /^\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d(?::?\d\d)?)?$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uuid: /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i,
  ipv4: /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/,
  uri: /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/
}

function isPlainObject (v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

export function deepEqual (a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bb = b as unknown[]
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]))
  }
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) &&
    deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

function typeMatches (type: string, v: unknown): boolean {
  switch (type) {
    case 'null': return v === null
    case 'boolean': return typeof v === 'boolean'
    case 'number': return typeof v === 'number' || typeof v === 'bigint'
    case 'integer': return Number.isInteger(v) || typeof v === 'bigint'
    case 'string': return typeof v === 'string' || v instanceof Date
    case 'array': return Array.isArray(v)
    case 'object': return isPlainObject(v)
    default: return false
  }
}

function toRegExp (pattern: string): RegExp {
  try { return new RegExp(pattern, 'u') } catch { return new RegExp(pattern) }
}

export class MatcherCompiler {
  private readonly cache = new Map<unknown, Map<string, Matcher>>()
  constructor (private readonly resolver: RefResolver) {}

  compile (schema: unknown, outerBase: string): Matcher {
    if (schema === true || schema === undefined) return () => true
    if (schema === false) return () => false
    if (!isPlainObject(schema)) return () => true
    let byBase = this.cache.get(schema)
    if (byBase === undefined) { byBase = new Map(); this.cache.set(schema, byBase) }
    const hit = byBase.get(outerBase)
    if (hit !== undefined) return hit
    // placeholder so that recursive schemas compile: calls go through `impl` once it is built
    let impl: Matcher = () => true
    const lazy: Matcher = (v) => impl(v)
    byBase.set(outerBase, lazy)
    impl = this.build(schema, enterScope(outerBase, schema))
    return lazy
  }

  private build (s: Record<string, unknown>, base: string): Matcher {
    const checks: Matcher[] = []
    if (typeof s.$ref === 'string') {
      const ref = s.$ref
      let target: Matcher | undefined
      checks.push((v) => {
        if (target === undefined) {
          const r = this.resolver.resolve(ref, base)
          target = this.compile(r.schema, r.base)
        }
        return target(v)
      })
    }
    const nullable = s.nullable === true
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? s.type as string[] : [s.type as string]
      checks.push((v) => (nullable && v === null) || types.some((t) => typeMatches(t, v)))
    }
    if (Array.isArray(s.enum)) {
      const values = s.enum
      checks.push((v) => (nullable && v === null) || values.some((e) => deepEqual(e, v)))
    }
    if (s.const !== undefined) {
      const c = s.const
      checks.push((v) => deepEqual(c, v))
    }
    this.numberChecks(s, checks)
    this.stringChecks(s, checks)
    this.arrayChecks(s, base, checks)
    this.objectChecks(s, base, checks)
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const list = s[key]
      if (!Array.isArray(list)) continue
      const ms = list.map((x) => this.compile(x, base))
      if (key === 'allOf') checks.push((v) => ms.every((m) => m(v)))
      else if (key === 'anyOf') checks.push((v) => ms.some((m) => m(v)))
      else checks.push((v) => { let n = 0; for (const m of ms) if (m(v) && ++n > 1) return false; return n === 1 })
    }
    if (s.not !== undefined) {
      const m = this.compile(s.not, base)
      checks.push((v) => !m(v))
    }
    if (s.if !== undefined) {
      const mi = this.compile(s.if, base)
      const mt = this.compile(s.then, base)
      const me = this.compile(s.else, base)
      checks.push((v) => mi(v) ? mt(v) : me(v))
    }
    if (checks.length === 0) return () => true
    if (checks.length === 1) return checks[0]
    return (v) => { for (const c of checks) if (!c(v)) return false; return true }
  }

  private numberChecks (s: Record<string, unknown>, checks: Matcher[]): void {
    const num = (k: string): number | undefined => typeof s[k] === 'number' ? s[k] as number : undefined
    const min = num('minimum'); const max = num('maximum'); const mult = num('multipleOf')
    const exMin = s.exclusiveMinimum === true ? min : num('exclusiveMinimum')
    const exMax = s.exclusiveMaximum === true ? max : num('exclusiveMaximum')
    const incMin = s.exclusiveMinimum === true ? undefined : min
    const incMax = s.exclusiveMaximum === true ? undefined : max
    if ([incMin, incMax, exMin, exMax, mult].every((x) => x === undefined)) return
    checks.push((v) => {
      if (typeof v !== 'number') return true
      if (incMin !== undefined && v < incMin) return false
      if (incMax !== undefined && v > incMax) return false
      if (exMin !== undefined && v <= exMin) return false
      if (exMax !== undefined && v >= exMax) return false
      if (mult !== undefined) { const q = v / mult; if (Math.abs(q - Math.round(q)) > 1e-9) return false }
      return true
    })
  }

  private stringChecks (s: Record<string, unknown>, checks: Matcher[]): void {
    const minL = typeof s.minLength === 'number' ? s.minLength : undefined
    const maxL = typeof s.maxLength === 'number' ? s.maxLength : undefined
    const re = typeof s.pattern === 'string' ? toRegExp(s.pattern) : undefined
    const fmt = typeof s.format === 'string' ? FORMATS[s.format] : undefined
    if (minL === undefined && maxL === undefined && re === undefined && fmt === undefined) return
    checks.push((v) => {
      if (typeof v !== 'string') return true
      if (minL !== undefined || maxL !== undefined) {
        let len = 0
        // eslint-disable-next-line @typescript-eslint/no-unused-vars -- only the number of code points is needed
        for (const _ of v) len++ // code points, as JSON Schema counts
        if ((minL !== undefined && len < minL) || (maxL !== undefined && len > maxL)) return false
      }
      if (re !== undefined && !re.test(v)) return false
      return fmt === undefined || fmt.test(v)
    })
  }

  private arrayChecks (s: Record<string, unknown>, base: string, checks: Matcher[]): void {
    const tuple = Array.isArray(s.items) ? s.items.map((x) => this.compile(x, base)) : undefined
    const items = s.items !== undefined && !Array.isArray(s.items) ? this.compile(s.items, base) : undefined
    const extra = tuple !== undefined && s.additionalItems !== undefined ? this.compile(s.additionalItems, base) : undefined
    const contains = s.contains !== undefined ? this.compile(s.contains, base) : undefined
    const minI = typeof s.minItems === 'number' ? s.minItems : 0
    const maxI = typeof s.maxItems === 'number' ? s.maxItems : Infinity
    const unique = s.uniqueItems === true
    if (tuple === undefined && items === undefined && contains === undefined && minI === 0 && maxI === Infinity && !unique) return
    checks.push((v) => {
      if (!Array.isArray(v)) return true
      if (v.length < minI || v.length > maxI) return false
      for (let i = 0; i < v.length; i++) {
        if (tuple !== undefined) {
          if (i < tuple.length) { if (!tuple[i](v[i])) return false } else if (extra !== undefined && !extra(v[i])) return false
        } else if (items !== undefined && !items(v[i])) return false
      }
      if (contains !== undefined && !v.some((x) => contains(x))) return false
      if (unique) for (let i = 0; i < v.length; i++) for (let j = i + 1; j < v.length; j++) if (deepEqual(v[i], v[j])) return false
      return true
    })
  }

  private objectChecks (s: Record<string, unknown>, base: string, checks: Matcher[]): void {
    const props = isPlainObject(s.properties) ? Object.entries(s.properties).map(([k, x]) => [k, this.compile(x, base)] as const) : []
    const declared = new Set(props.map(([k]) => k))
    const patterns = isPlainObject(s.patternProperties)
      ? Object.entries(s.patternProperties).map(([p, x]) => [toRegExp(p), this.compile(x, base)] as const)
      : []
    const required = Array.isArray(s.required) ? s.required as string[] : []
    const additional = s.additionalProperties !== undefined ? this.compile(s.additionalProperties, base) : undefined
    const names = s.propertyNames !== undefined ? this.compile(s.propertyNames, base) : undefined
    const minP = typeof s.minProperties === 'number' ? s.minProperties : 0
    const maxP = typeof s.maxProperties === 'number' ? s.maxProperties : Infinity
    const deps = isPlainObject(s.dependencies)
      ? Object.entries(s.dependencies).map(([k, d]) => [k, Array.isArray(d) ? undefined : this.compile(d, base), Array.isArray(d) ? d as string[] : []] as const)
      : []
    if (props.length === 0 && patterns.length === 0 && required.length === 0 && additional === undefined &&
      names === undefined && minP === 0 && maxP === Infinity && deps.length === 0) return
    checks.push((v) => {
      if (!isPlainObject(v)) return true
      for (const k of required) if (v[k] === undefined) return false
      for (const [k, m] of props) if (v[k] !== undefined && !m(v[k])) return false
      const keys = Object.keys(v)
      if (keys.length < minP || keys.length > maxP) return false
      for (const k of keys) {
        if (names !== undefined && !names(k)) return false
        let matched = declared.has(k)
        for (const [re, m] of patterns) if (re.test(k)) { matched = true; if (!m(v[k])) return false }
        if (!matched && additional !== undefined && !additional(v[k])) return false
      }
      for (const [k, m, list] of deps) {
        if (v[k] === undefined) continue
        if (m !== undefined && !m(v)) return false
        for (const r of list) if (v[r] === undefined) return false
      }
      return true
    })
  }
}
