/**
 * JSON Schema dialects of the two document versions.
 *
 * 3.1 (default): schemas are JSON Schema 2020-12. `nullable: true` becomes a type array with
 * 'null', boolean exclusive bounds become numeric ones, `example` becomes `examples: [..]`, tuple
 * `items: [..]` becomes `prefixItems`.
 * 3.0.3: the other way: type arrays with 'null' become `nullable`, `const` becomes `enum: [v]`,
 * numeric exclusive bounds become boolean ones, `examples` becomes `example`, a `$ref` with siblings
 * is wrapped in `allOf`, `definitions`/`$defs` move to components of their own, and keywords 3.0 does
 * not know are kept as `x-<keyword>` extensions.
 */
import { DATA_KEYWORDS, MAP_KEYWORDS, isObject } from '../schema/ref-resolver'

type Json = Record<string, unknown>

/** Sub-schema positions: keyword -> how its value holds schemas. */
function mapSubschemas (schema: Json, fn: (s: unknown) => unknown): void {
  for (const key of Object.keys(schema)) {
    if (DATA_KEYWORDS.has(key) || key.startsWith('x-')) continue
    const value = schema[key]
    if (MAP_KEYWORDS.has(key) && isObject(value)) {
      for (const name of Object.keys(value)) value[name] = fn(value[name])
    } else if (Array.isArray(value) && (key === 'allOf' || key === 'anyOf' || key === 'oneOf' || key === 'items' || key === 'prefixItems')) {
      schema[key] = value.map(fn)
    } else if (isObject(value) && key !== 'properties' && key !== 'required') {
      schema[key] = fn(value)
    }
  }
}

export function toDialect31 (node: unknown): unknown {
  if (!isObject(node)) return node
  const s = node
  if (s.nullable === true) {
    if (typeof s.type === 'string') s.type = [s.type, 'null']
    else if (Array.isArray(s.type) && !s.type.includes('null')) s.type = [...s.type, 'null']
    delete s.nullable
  } else if (s.nullable === false) delete s.nullable
  for (const [bound, limit] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (s[bound] === true && typeof s[limit] === 'number') { s[bound] = s[limit]; delete s[limit] } else if (s[bound] === false) delete s[bound]
  }
  if ('example' in s) {
    if (!Array.isArray(s.examples)) s.examples = [s.example]
    delete s.example
  }
  if (Array.isArray(s.items)) {
    s.prefixItems = s.items
    if ('additionalItems' in s) { s.items = s.additionalItems; delete s.additionalItems } else delete s.items
  }
  mapSubschemas(s, toDialect31)
  return s
}

/** Keywords of the OpenAPI 3.0 Schema Object; anything else is kept as an `x-` extension. */
const KNOWN_30 = new Set(['title', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'enum', 'type', 'not', 'allOf', 'oneOf',
  'anyOf', 'items', 'properties', 'additionalProperties', 'description', 'format', 'default', 'nullable', 'discriminator', 'readOnly',
  'writeOnly', 'example', 'externalDocs', 'deprecated', 'xml', '$ref'])

const DROPPED_30 = new Set(['$comment', 'definitions', '$defs'])

export function toDialect30 (node: unknown): unknown {
  if (!isObject(node)) return node
  let s = node
  if (Array.isArray(s.type)) {
    const types = s.type.filter((t) => t !== 'null')
    if (types.length !== s.type.length) s.nullable = true
    if (types.length === 1) s.type = types[0]
    else {
      delete s.type
      if (types.length > 1) {
        const alternatives = types.map((type) => ({ type }))
        if (Array.isArray(s.anyOf)) s.allOf = [...(Array.isArray(s.allOf) ? s.allOf : []), { anyOf: alternatives }]
        else s.anyOf = alternatives
      }
    }
  } else if (s.type === 'null') {
    delete s.type
    s.nullable = true
    s.enum = [null]
  }
  if ('const' in s) {
    s.enum = [s.const]
    if (s.const === null) s.nullable = true
    delete s.const
  }
  for (const [bound, limit] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof s[bound] === 'number') { s[limit] = s[bound]; s[bound] = true }
  }
  if (Array.isArray(s.examples)) {
    if (s.examples.length > 0 && !('example' in s)) s.example = s.examples[0]
    delete s.examples
  }
  if (Array.isArray(s.prefixItems) || Array.isArray(s.items)) {
    const tuple = (Array.isArray(s.prefixItems) ? s.prefixItems : s.items) as unknown[]
    s.items = tuple.length === 1 ? tuple[0] : { anyOf: tuple }
    delete s.prefixItems
  }
  for (const key of Object.keys(s)) {
    if (!KNOWN_30.has(key) && !key.startsWith('x-')) {
      // definitions left here are unreferenced (hoistDefinitions moved the referenced ones)
      if (!DROPPED_30.has(key)) s[`x-${key}`] = s[key]
      delete s[key]
    }
  }
  if (typeof s.$ref === 'string' && Object.keys(s).some((k) => k !== '$ref' && !k.startsWith('x-'))) {
    const { $ref, ...rest } = s
    s = { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), { $ref }] }
  }
  mapSubschemas(s, toDialect30)
  return s
}

/**
 * 3.0 has no `definitions`: each entry of a component's (nested) `definitions`/`$defs` becomes a
 * component `<owner>.<name>`, and references into it are rewritten.
 */
export function hoistDefinitions (schemas: Map<string, unknown>, reserve: (wanted: string) => string): Map<string, string> {
  const moved = new Map<string, string>() // old pointer prefix -> new component ref
  const queue = [...schemas.keys()]
  while (queue.length > 0) {
    const name = queue.shift() as string
    const visit = (node: unknown, pointer: string, owner: string): void => {
      if (Array.isArray(node)) { node.forEach((item, i) => visit(item, `${pointer}/${i}`, owner)); return }
      if (!isObject(node)) return
      for (const key of Object.keys(node)) {
        const value = node[key]
        if ((key === 'definitions' || key === '$defs') && isObject(value)) {
          for (const def of Object.keys(value)) {
            const newName = reserve(`${owner}.${def}`)
            schemas.set(newName, value[def])
            moved.set(`#/components/schemas/${name}${pointer}/${key}/${segment(def)}`, `#/components/schemas/${newName}`)
            queue.push(newName)
          }
          delete node[key]
        } else if (!DATA_KEYWORDS.has(key) && value !== null && typeof value === 'object') {
          visit(value, `${pointer}/${segment(key)}`, owner)
        }
      }
    }
    visit(schemas.get(name), '', name)
  }
  return moved
}

function segment (s: string): string {
  return encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1')).replace(/%7E/gi, '~')
}

/** Rewrites every `$ref` of the document whose target moved (longest moved prefix wins). */
export function retarget (node: unknown, moved: Map<string, string>): void {
  if (moved.size === 0) return
  const prefixes = [...moved.keys()].sort((a, b) => b.length - a.length)
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) { n.forEach(walk); return }
    if (!isObject(n)) return
    if (typeof n.$ref === 'string') {
      for (let changed = true; changed;) {
        changed = false
        for (const p of prefixes) {
          const ref = n.$ref as string
          if (ref === p || ref.startsWith(p + '/')) { n.$ref = (moved.get(p) as string) + ref.slice(p.length); changed = true; break }
        }
      }
    }
    for (const key of Object.keys(n)) if (key !== '$ref') walk(n[key])
  }
  walk(node)
}
