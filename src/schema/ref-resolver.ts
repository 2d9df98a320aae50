/**
 * The ONE `$ref` resolver of trellis. Serialization compiles through it; validation can use it to
 * pre-check a route schema's references (`checkRefs`) before handing the schema to Ajv.
 *
 * Supported reference forms (see SPEC "$ref resolution"):
 *   `#name`                  subschema with `$id: '#name'` (or `$anchor: 'name'`) in the current document
 *   `#/definitions/x`        any JSON pointer into the current document (~0, ~1 and %-escapes decoded)
 *   `uri`, `uri#`            the shared schema registered under `uri` (whole schema)
 *   `uri#/definitions/x`     a JSON pointer into that shared schema (any pointer: /properties/x ...)
 *   `uri#name`               an anchor inside that shared schema
 * A nested `$id` that is not a bare fragment changes the base URI: relative references inside it are
 * resolved against the nearest such `$id` (RFC 3986 for absolute URIs, path-like for plain names).
 * Unresolvable references throw `Error('Cannot find reference "<ref>"')`.
 */

type SchemaLike = Record<string, unknown>

/** Where a schema lives: its object and the base URI in effect *around* it (before its own `$id`). */
interface ResolvedRef {
  schema: unknown
  /** base URI of the enclosing scope; apply `enterScope(base, schema)` to get the schema's own base */
  base: string
  /** human readable location, e.g. `#/definitions/x` or `other#/properties/a` */
  location: string
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/

/** Keywords whose value is data, never a schema: not walked when indexing `$id`s or `$ref`s. */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'default', 'examples', 'example'])
/** Keywords whose value maps names to schemas. */
export const MAP_KEYWORDS: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies', 'dependentSchemas'])

export function isObject (value: unknown): value is SchemaLike {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function splitRef (ref: string): { uri: string, fragment: string | null } {
  const hash = ref.indexOf('#')
  if (hash === -1) return { uri: ref, fragment: null }
  return { uri: ref.slice(0, hash), fragment: ref.slice(hash + 1) }
}

/** Normalizes an absolute URI (lower-cased scheme/host, default path) so lookups agree; others unchanged. */
function normalizeUri (uri: string): string {
  if (!SCHEME.test(uri)) return uri
  try {
    const href = new URL(uri).href
    return href.endsWith('#') ? href.slice(0, -1) : href
  } catch {
    return uri
  }
}

/** Resolves `ref` (no fragment) against `base`: RFC 3986 when possible, path-like for plain names. */
function resolveUri (base: string, ref: string): string {
  if (ref === '') return base
  if (SCHEME.test(ref)) return normalizeUri(ref)
  if (SCHEME.test(base)) {
    try {
      const href = new URL(ref, base).href
      return href.endsWith('#') ? href.slice(0, -1) : href
    } catch { /* opaque base such as urn: — fall through to path-like */ }
  }
  if (ref.startsWith('/')) return ref
  const slash = base.lastIndexOf('/')
  return slash === -1 ? ref : base.slice(0, slash + 1) + ref
}

/** The base URI inside `schema`, given the base around it. */
export function enterScope (base: string, schema: unknown): string {
  if (!isObject(schema)) return base
  const id = schema.$id
  if (typeof id !== 'string' || id === '' || id.startsWith('#')) return base
  return resolveUri(base, splitRef(id).uri)
}

function decodePointerSegment (segment: string): string {
  let decoded = segment
  try { decoded = decodeURIComponent(segment) } catch { /* keep raw */ }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~')
}

interface DocEntry { schema: unknown, outerBase: string, label: string }

/**
 * Index of documents (schemas reachable by URI) and anchors. A resolver for a set of shared schemas is
 * built once; `forRoot(schema)` derives a cheap child that also knows one root schema.
 */
export class RefResolver {
  private readonly docs = new Map<string, DocEntry>()
  private readonly anchors = new Map<string, DocEntry>()
  private rootCounter = 0

  constructor (private readonly parent: RefResolver | null = null) {}

  /** Registers a schema under `key` (and its `$id`), indexing nested `$id`s and anchors. */
  addDocument (key: string, schema: unknown): void {
    const keyUri = normalizeUri(key)
    const idBase = enterScope('', schema)
    // a document without its own `$id` takes the key it is registered under as its base URI
    const entry: DocEntry = { schema, outerBase: idBase === '' ? keyUri : '', label: key }
    this.docs.set(keyUri, entry)
    if (idBase !== '' && !this.docs.has(idBase)) this.docs.set(idBase, entry)
    this.indexTree(schema, idBase === '' ? keyUri : idBase, key, true)
  }

  /** A child resolver that also knows `root` (the schema being compiled); returns it and the root's base. */
  forRoot (root: unknown): { resolver: RefResolver, base: string, outer: string } {
    const child = new RefResolver(this)
    const id = isObject(root) && typeof root.$id === 'string' && !root.$id.startsWith('#') ? root.$id : ''
    let base: string
    if (id !== '') {
      base = enterScope('', root)
      child.docs.set(base, { schema: root, outerBase: '', label: '' })
    } else {
      base = `trellis-root-${++this.rootCounter}`
      child.docs.set(base, { schema: root, outerBase: base, label: '' })
    }
    child.indexTree(root, base, '', true)
    return { resolver: child, base, outer: id !== '' ? '' : base }
  }

  private indexTree (schema: unknown, base: string, label: string, isDocRoot: boolean): void {
    if (Array.isArray(schema)) {
      for (const item of schema) this.indexTree(item, base, label, false)
      return
    }
    if (!isObject(schema)) return
    let scope = base
    const id = schema.$id
    if (typeof id === 'string' && id !== '') {
      const { uri, fragment } = splitRef(id)
      if (uri !== '' && !isObject(schema.$id)) {
        scope = resolveUri(base, uri)
        if (!isDocRoot && !this.docs.has(scope)) this.docs.set(scope, { schema, outerBase: base, label: uri })
      }
      if (fragment !== null && fragment !== '' && !fragment.startsWith('/')) {
        this.anchors.set(scope + '#' + fragment, { schema, outerBase: base, label })
      }
    }
    if (typeof schema.$anchor === 'string') this.anchors.set(scope + '#' + schema.$anchor, { schema, outerBase: base, label })
    for (const key of Object.keys(schema)) {
      if (DATA_KEYWORDS.has(key)) continue
      const value = schema[key]
      if (MAP_KEYWORDS.has(key) && isObject(value)) {
        for (const name of Object.keys(value)) this.indexTree(value[name], scope, label, false)
      } else if (value !== null && typeof value === 'object') {
        this.indexTree(value, scope, label, false)
      }
    }
  }

  private findDoc (uri: string): DocEntry | undefined {
    for (let r: RefResolver | null = this; r !== null; r = r.parent) {
      const found = r.docs.get(uri)
      if (found !== undefined) return found
    }
    return undefined
  }

  private findAnchor (key: string): DocEntry | undefined {
    for (let r: RefResolver | null = this; r !== null; r = r.parent) {
      const found = r.anchors.get(key)
      if (found !== undefined) return found
    }
    return undefined
  }

  /**
   * Resolves `ref` found in a schema whose base URI (after applying its own `$id`) is `base`.
   * Throws `Cannot find reference "<ref>"` when nothing matches.
   */
  resolve (ref: string, base: string): ResolvedRef {
    const found = this.tryResolve(ref, base)
    if (found === undefined) {
      const { uri } = splitRef(ref)
      if (uri !== '' && this.findDoc(resolveUri(base, uri)) === undefined && this.findDoc(normalizeUri(uri)) === undefined) {
        throw new Error(`Cannot resolve ref "${ref}". Schema with id "${uri}" is not found.`)
      }
      throw new Error(`Cannot find reference "${ref}"`)
    }
    return found
  }

  /** Like `resolve`, but returns undefined instead of throwing. */
  tryResolve (ref: string, base: string): ResolvedRef | undefined {
    const { uri, fragment } = splitRef(ref)
    const candidates = uri === '' ? [base] : [resolveUri(base, uri), normalizeUri(uri), uri]
    for (const docUri of candidates) {
      const doc = this.findDoc(docUri)
      if (doc === undefined) {
        if (fragment !== null && fragment !== '' && !fragment.startsWith('/')) {
          const anchor = this.findAnchor(docUri + '#' + fragment)
          if (anchor !== undefined) return { schema: anchor.schema, base: anchor.outerBase, location: `${anchor.label}#${fragment}` }
        }
        continue
      }
      const docBase = enterScope(doc.outerBase, doc.schema) || docUri
      if (fragment === null || fragment === '') return { schema: doc.schema, base: doc.outerBase, location: `${doc.label}#` }
      if (fragment.startsWith('/')) {
        const hit = this.walkPointer(doc, docBase, fragment)
        if (hit !== undefined) return hit
        continue
      }
      const anchor = this.findAnchor(docBase + '#' + fragment) ?? this.findAnchor(docUri + '#' + fragment)
      if (anchor !== undefined) return { schema: anchor.schema, base: anchor.outerBase, location: `${anchor.label}#${fragment}` }
    }
    return undefined
  }

  private walkPointer (doc: DocEntry, docBase: string, pointer: string): ResolvedRef | undefined {
    let node: unknown = doc.schema
    let base = docBase
    const segments = pointer.split('/').slice(1).map(decodePointerSegment)
    for (let i = 0; i < segments.length; i++) {
      if (node === null || typeof node !== 'object') return undefined
      const next: unknown = (node as Record<string, unknown>)[segments[i]]
      if (next === undefined || !Object.prototype.hasOwnProperty.call(node, segments[i])) return undefined
      node = next
      // the base around `node` is `base`; entering it (when more segments follow) applies its `$id`
      if (i < segments.length - 1) base = enterScope(base, node)
    }
    return { schema: node, base, location: `${doc.label}#${pointer}` }
  }
}

const resolverCache = new WeakMap<object, RefResolver>()

/** A resolver over shared schemas (`Record<$id, schema>`, e.g. `SchemaStore.getAll()`). */
export function createRefResolver (shared: Record<string, unknown> = {}): RefResolver {
  const cached = resolverCache.get(shared)
  if (cached !== undefined) return cached
  const resolver = new RefResolver()
  for (const key of Object.keys(shared)) resolver.addDocument(key, shared[key])
  resolverCache.set(shared, resolver)
  return resolver
}

/**
 * Every `$ref` reachable from `schema` (following resolved references into shared schemas),
 * as `{ ref, base }`. Throws on the first reference that cannot be resolved.
 */
export function checkRefs (schema: unknown, shared: Record<string, unknown> = {}): string[] {
  const { resolver, outer } = createRefResolver(shared).forRoot(schema)
  const seen = new Set<unknown>()
  const refs: string[] = []
  const visit = (node: unknown, outer: string): void => {
    if (Array.isArray(node)) { for (const item of node) visit(item, outer); return }
    if (!isObject(node) || seen.has(node)) return
    seen.add(node)
    const scope = enterScope(outer, node)
    if (typeof node.$ref === 'string') {
      const target = resolver.resolve(node.$ref, scope)
      refs.push(node.$ref)
      visit(target.schema, target.base)
    }
    for (const key of Object.keys(node)) {
      if (DATA_KEYWORDS.has(key)) continue
      const value = node[key]
      if (MAP_KEYWORDS.has(key) && isObject(value)) {
        for (const name of Object.keys(value)) visit(value[name], scope)
      } else if (value !== null && typeof value === 'object') {
        visit(value, scope)
      }
    }
  }
  visit(schema, outer)
  return refs
}
