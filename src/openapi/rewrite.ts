/**
 * Copies a JSON Schema for the document: `$id`, `$anchor` and `$schema` dropped, every `$ref`
 * replaced by what `refFor(ref, base)` answers. The walk follows the same keyword rules as the
 * ONE resolver (src/schema/ref-resolver.ts): data keywords are copied, never walked, and the base URI
 * changes where a nested `$id` says so, so each `$ref` is resolved exactly as the validator does.
 */
import { DATA_KEYWORDS, MAP_KEYWORDS, enterScope, isObject } from '../schema/ref-resolver'
import { cloneJson, pointerSegment } from './canonical'

export type RefMapper = (ref: string, base: string) => string

const DROPPED = new Set(['$id', '$anchor', '$schema', '$dynamicAnchor'])

export function rewriteSchema (node: unknown, base: string, refFor: RefMapper): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteSchema(item, base, refFor))
  if (!isObject(node)) return node
  const scope = enterScope(base, node)
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(node)) {
    const value = node[key]
    if (value === undefined || DROPPED.has(key)) continue
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = refFor(value, scope)
    } else if (DATA_KEYWORDS.has(key)) {
      out[key] = cloneJson(value)
    } else if (MAP_KEYWORDS.has(key) && isObject(value)) {
      const map: Record<string, unknown> = {}
      for (const name of Object.keys(value)) map[name] = rewriteSchema(value[name], scope, refFor)
      out[key] = map
    } else {
      out[key] = rewriteSchema(value, scope, refFor)
    }
  }
  return out
}

/** Every object and array reachable from `root`, by identity, with its JSON pointer (first path wins). */
export function indexNodes (root: unknown, into = new Map<object, string>(), pointer = ''): Map<object, string> {
  if (root === null || typeof root !== 'object' || into.has(root)) return into
  into.set(root, pointer)
  if (Array.isArray(root)) {
    root.forEach((item, i) => indexNodes(item, into, `${pointer}/${i}`))
  } else {
    for (const key of Object.keys(root)) {
      if (DATA_KEYWORDS.has(key)) continue
      indexNodes((root as Record<string, unknown>)[key], into, `${pointer}/${pointerSegment(key)}`)
    }
  }
  return into
}
