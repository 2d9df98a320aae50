/**
 * Schema merging for `allOf` and for combining a schema with the branch chosen by
 * `anyOf`/`oneOf`/`if-then-else`. Conflicts keep the first value (like fast-json-stringify@5's
 * `onConflict: 'skip'`), except: `type` is intersected, `required` is a union, `properties`/
 * `patternProperties` are merged per key, `additionalProperties: false` wins.
 * Sub-schemas are reused by reference; the base URI they came from is recorded so that relative
 * `$ref`s inside them still resolve against their own document.
 */
import { enterScope } from '../ref-resolver'

export interface Located { schema: Record<string, unknown>, base: string }

export interface MergeHost {
  /** follows `$ref` chains; returns the target and the base URI around it */
  deref: (schema: unknown, base: string) => { schema: unknown, base: string }
  /** remembers the base URI of a sub-schema moved into a merged schema */
  hint: (schema: unknown, base: string) => void
}

function isObject (v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

function intersectTypes (a: unknown, b: unknown): unknown {
  if (a === undefined) return b
  if (b === undefined) return a
  const la = Array.isArray(a) ? a : [a]
  const lb = Array.isArray(b) ? b : [b]
  const both = la.filter((t) => lb.includes(t) || (t === 'number' && lb.includes('integer')))
    .map((t) => (t === 'number' && !lb.includes('number') ? 'integer' : t))
  if (both.length === 0) throw new Error('Failed to merge "type" keyword schemas.')
  return both.length === 1 ? both[0] : both
}

export function mergeSchemas (parts: Located[], host: MergeHost): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const propParts = new Map<string, Array<{ schema: unknown, base: string }>>()
  const patternParts = new Map<string, Array<{ schema: unknown, base: string }>>()
  for (const { schema, base } of parts) {
    for (const key of Object.keys(schema)) {
      const value = schema[key]
      if (key === '$id' || key === '$ref' || key === 'allOf') continue
      if (key === 'type') { out.type = intersectTypes(out.type, value); continue }
      if (key === 'required' && Array.isArray(value)) {
        const prev = Array.isArray(out.required) ? out.required as unknown[] : []
        out.required = [...prev, ...value.filter((x) => !prev.includes(x))]
        continue
      }
      if ((key === 'properties' || key === 'patternProperties') && isObject(value)) {
        const map = key === 'properties' ? propParts : patternParts
        for (const name of Object.keys(value)) {
          const list = map.get(name) ?? []
          list.push({ schema: value[name], base })
          map.set(name, list)
        }
        continue
      }
      if (key === 'format' && out.format !== undefined && out.format !== value) throw new Error('Failed to merge "format" keyword schemas.')
      if (key === 'additionalProperties' && value === false) { out.additionalProperties = false; host.hint(value, base); continue }
      if (out[key] === undefined) {
        out[key] = value
        if (value !== null && typeof value === 'object') {
          if (Array.isArray(value)) for (const item of value) host.hint(item, base)
          else host.hint(value, base)
        }
      }
    }
  }
  const mergeNamed = (map: Map<string, Array<{ schema: unknown, base: string }>>): Record<string, unknown> => {
    const result: Record<string, unknown> = {}
    for (const [name, list] of map) {
      if (list.length === 1) {
        host.hint(list[0].schema, list[0].base)
        result[name] = list[0].schema
        continue
      }
      const resolved = list.map((p) => {
        const r = host.deref(p.schema, p.base)
        return { schema: r.schema, base: enterScope(r.base, r.schema) }
      })
      if (resolved.every((r) => isObject(r.schema))) {
        result[name] = mergeSchemas(resolved as Located[], host)
      } else {
        host.hint(list[0].schema, list[0].base)
        result[name] = list[0].schema
      }
    }
    return result
  }
  if (propParts.size > 0) out.properties = mergeNamed(propParts)
  if (patternParts.size > 0) out.patternProperties = mergeNamed(patternParts)
  return out
}
