/**
 * Shared schemas (`addSchema`) -> `components/schemas`, one source of truth with the validator and
 * the serializer: references are resolved by the ONE resolver (src/schema/ref-resolver.ts) over the
 * shared schemas of the context that uses them, exactly as at run time.
 *
 * Naming. A shared schema is identified by (the context's set of shared schemas, its `$id`). Two such
 * schemas get one component when their content is the same *after* their references are resolved
 * (partition refinement: start from the raw content, split by what each `$ref` reaches, repeat until
 * stable), else one component each: the same `$id` with different content in two sibling contexts
 * gives `User` and `User_2`, never an overwrite. Names derive from the `$id` (`componentName`); the
 * order of variants is by depth of the defining context, then content, so registration order never
 * matters and the output is byte-identical across runs.
 */
import { createRefResolver, enterScope, isObject, type RefResolver } from '../schema/ref-resolver'
import type { SchemaScope } from '../context/route-table'
import { canonicalJson, componentName, digest } from './canonical'
import { indexNodes, rewriteSchema, type RefMapper } from './rewrite'

const PREFIX = '#/components/schemas/'

interface ScopeState {
  readonly resolver: RefResolver
  /** node -> [$id of the shared schema holding it, pointer inside it] */
  readonly index: Map<object, [string, string]>
  readonly ids: string[]
  readonly shared: Readonly<Record<string, Record<string, unknown>>>
  readonly depth: number
  /** component name of each `$id` in this scope, once named */
  readonly names: Map<string, string>
}

interface Variant { id: string, state: ScopeState, schema: Record<string, unknown> }

export class Components {
  private readonly states: ScopeState[] = []
  private readonly byScope = new Map<SchemaScope, ScopeState>()
  /** name -> schema (already rewritten) */
  readonly schemas = new Map<string, unknown>()
  private readonly taken: Set<string>

  constructor (scopes: readonly SchemaScope[], reserved: Iterable<string>) {
    this.taken = new Set(reserved)
    // contexts that see the same shared schemas (same `$id`s, same objects) share one state
    const identity = new Map<object, number>()
    const groups = new Map<string, { first: SchemaScope, ids: string[], depth: number, members: SchemaScope[] }>()
    for (const scope of scopes) {
      const ids = Object.keys(scope.shared).sort()
      const key = ids.map((id) => {
        const schema = scope.shared[id]
        if (!identity.has(schema)) identity.set(schema, identity.size)
        return `${id}\u0000${identity.get(schema) as number}`
      }).join('\u0001')
      const group = groups.get(key) ?? { first: scope, ids, depth: scope.depth, members: [] }
      group.depth = Math.min(group.depth, scope.depth)
      group.members.push(scope)
      groups.set(key, group)
    }
    for (const group of groups.values()) {
      const state = this.newState(group.first, group.ids, group.depth)
      this.states.push(state)
      for (const member of group.members) this.byScope.set(member, state)
    }
    this.nameSharedSchemas()
  }

  private newState (scope: SchemaScope, ids: string[], depth: number): ScopeState {
    const index = new Map<object, [string, string]>()
    for (const id of ids) {
      for (const [node, pointer] of indexNodes(scope.shared[id])) if (!index.has(node)) index.set(node, [id, pointer])
    }
    return { resolver: createRefResolver(scope.shared as Record<string, unknown>), index, ids, shared: scope.shared, depth, names: new Map() }
  }

  stateOf (scope: SchemaScope): ScopeState {
    const state = this.byScope.get(scope)
    if (state === undefined) throw new Error('openapi: a route of an unknown context')
    return state
  }

  /** Reserves a unique component name starting from `wanted`. */
  reserve (wanted: string): string {
    let name = wanted
    for (let n = 2; this.taken.has(name); n++) name = `${wanted}_${n}`
    this.taken.add(name)
    return name
  }

  /** Maps a `$ref` in a schema of `state` to a document reference; `local` is the route schema being written. */
  refMapper (state: ScopeState, resolver: RefResolver, label: (state: ScopeState, id: string) => string, local?: LocalRoot): RefMapper {
    return (ref, base) => {
      const target = resolver.resolve(ref, base)
      const node = target.schema
      if (node !== null && typeof node === 'object') {
        const inLocal = local?.index.get(node)
        if (local !== undefined && inLocal !== undefined) { local.used = true; return PREFIX + local.name() + inLocal }
        const shared = state.index.get(node)
        if (shared !== undefined) return PREFIX + label(state, shared[0]) + shared[1]
      }
      throw new Error(`openapi: the target of "${ref}" is neither a shared schema nor inside the route schema`)
    }
  }

  private nameSharedSchemas (): void {
    let variants: Variant[] = []
    for (const state of this.states) {
      for (const id of state.ids) variants.push({ id, state, schema: state.shared[id] })
    }
    // a shared schema whose references do not resolve in a context (they name a schema only a child
    // context adds) is not usable there: it is no component of that context (and neither is what uses it)
    for (let excluded = true; excluded;) {
      excluded = false
      const usable = new Map<ScopeState, Set<string>>()
      for (const v of variants) usable.set(v.state, (usable.get(v.state) ?? new Set()).add(v.id))
      variants = variants.filter((v) => {
        const map = this.refMapper(v.state, v.state.resolver, (state, id) => {
          if (usable.get(state)?.has(id) !== true) throw new Error('unusable')
          return id
        })
        try { rewriteSchema(v.schema, '', map); return true } catch { excluded = true; return false }
      })
    }
    // partition refinement: a label per variant, split by the labels its references reach
    let labels = new Map<Variant, string>()
    const lookup = new Map<ScopeState, Map<string, Variant>>()
    for (const v of variants) {
      labels.set(v, digest(v.id + '\u0000' + canonicalJson(v.schema)))
      const inState = lookup.get(v.state) ?? new Map<string, Variant>()
      inState.set(v.id, v)
      lookup.set(v.state, inState)
    }
    let classes = new Set(labels.values()).size
    for (let round = 0; round <= variants.length; round++) {
      const current = labels
      const next = new Map<Variant, string>()
      for (const v of variants) {
        const map = this.refMapper(v.state, v.state.resolver, (state, id) => current.get(lookup.get(state)?.get(id) as Variant) ?? id)
        next.set(v, digest(current.get(v) + '\u0000' + canonicalJson(rewriteSchema(v.schema, '', map))))
      }
      labels = next
      const count = new Set(labels.values()).size
      if (count === classes) break
      classes = count
    }
    // names: per `$id`, variants ordered by depth, then content, then label
    const byId = new Map<string, Map<string, { depth: number, text: string, members: Variant[] }>>()
    for (const v of variants) {
      const group = byId.get(v.id) ?? new Map()
      byId.set(v.id, group)
      const label = labels.get(v) as string
      const entry = group.get(label) ?? { depth: v.state.depth, text: canonicalJson(v.schema), members: [] }
      entry.depth = Math.min(entry.depth, v.state.depth)
      entry.members.push(v)
      group.set(label, entry)
    }
    const first: Variant[] = []
    for (const id of [...byId.keys()].sort()) {
      const entries = [...(byId.get(id) as Map<string, { depth: number, text: string, members: Variant[] }>).entries()]
        .sort(([la, a], [lb, b]) => a.depth - b.depth || (a.text < b.text ? -1 : a.text > b.text ? 1 : la < lb ? -1 : la > lb ? 1 : 0))
      for (const [, entry] of entries) {
        const name = this.reserve(componentName(id))
        for (const member of entry.members) member.state.names.set(member.id, name)
        first.push(entry.members[0])
      }
    }
    const named = (state: ScopeState, id: string): string => state.names.get(id) as string
    for (const v of first) {
      this.schemas.set(named(v.state, v.id), rewriteSchema(v.schema, '', this.refMapper(v.state, v.state.resolver, named)))
    }
  }

  /**
   * A route's schema part for the document: references mapped to components. When it refers into
   * itself (`#/definitions/x`, `#anchor`), the part becomes a component of its own named `name` and
   * the answer is a reference to it (pointers inside it are kept).
   */
  part (scope: SchemaScope, raw: unknown, name: string): unknown {
    const state = this.stateOf(scope)
    const { resolver, outer } = state.resolver.forRoot(raw)
    const local = this.localRoot(raw, name)
    const written = rewriteSchema(raw, outer, this.refMapper(state, resolver, (s, id) => s.names.get(id) as string, local))
    if (!local.used) return written
    this.schemas.set(local.name(), written)
    return { $ref: PREFIX + local.name() }
  }

  /**
   * The object schema a parameter part stands for, following `$ref`s at its root (a part may be
   * `{ $ref: 'Query#' }` or a pointer into a shared schema): its properties (written for the
   * document) and required names.
   */
  properties (scope: SchemaScope, raw: unknown, name: string): { properties: Array<[string, Record<string, unknown>]>, required: Set<string>, root: Record<string, unknown> } {
    const state = this.stateOf(scope)
    const { resolver, outer } = state.resolver.forRoot(raw)
    const local = this.localRoot(raw, name)
    const required = new Set<string>()
    const map = this.refMapper(state, resolver, (s, id) => s.names.get(id) as string, local)
    const properties: Array<[string, Record<string, unknown>]> = []
    const seen = new Set<string>()
    let node: unknown = raw
    let base = outer
    let root: Record<string, unknown> = {}
    // the part's own properties first, then those reached through a `$ref` at its root
    for (let hops = 0; isObject(node) && hops < 64; hops++) {
      root = node
      const scopeBase = enterScope(base, node)
      if (Array.isArray(node.required)) for (const r of node.required) if (typeof r === 'string') required.add(r)
      if (isObject(node.properties)) {
        for (const prop of Object.keys(node.properties)) {
          if (seen.has(prop)) continue
          seen.add(prop)
          properties.push([prop, rewriteSchema(node.properties[prop], scopeBase, map) as Record<string, unknown>])
        }
      }
      if (typeof node.$ref !== 'string') break
      const target = resolver.resolve(node.$ref, scopeBase)
      node = target.schema
      base = target.base
    }
    if (local.used) this.schemas.set(local.name(), rewriteSchema(raw, outer, map))
    return { properties, required, root }
  }

  /** The schema a part stands for after following `$ref`s at its root (for its type and description). */
  resolveRoot (scope: SchemaScope, raw: unknown): Record<string, unknown> {
    const { resolver, outer } = this.stateOf(scope).resolver.forRoot(raw)
    let node: unknown = raw
    let base = outer
    for (let hops = 0; isObject(node) && typeof node.$ref === 'string' && hops < 64; hops++) {
      const target = resolver.resolve(node.$ref, enterScope(base, node))
      if (!isObject(target.schema)) break
      // own keywords beside `$ref` win (a description next to the reference describes this use)
      if (typeof node.description === 'string' || node.type !== undefined) return { ...target.schema, ...node }
      node = target.schema
      base = target.base
    }
    return isObject(node) ? node : {}
  }

  private localRoot (raw: unknown, wanted: string): LocalRoot {
    const index = new Map<object, string>()
    indexNodes(raw, index)
    let name: string | undefined
    return { index, used: false, name: () => (name ??= this.reserve(componentName(wanted))) }
  }
}

interface LocalRoot { index: Map<object, string>, used: boolean, name: () => string }
