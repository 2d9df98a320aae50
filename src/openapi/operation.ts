/**
 * One route -> one OpenAPI Operation: request parts -> parameters and requestBody, `response`
 * codes -> responses. Schemas are written through `Components` (references mapped to components).
 */
import { isObject } from '../schema/ref-resolver'
import { normalizeResponseSchema } from '../schema/serialization/response-schemas'
import { unwrapFluentSchema } from '../schema/fluent'
import type { RouteTableEntry } from '../context/route-table'
import type { Components } from './components'

type Json = Record<string, unknown>

const PARAMETER_PARTS = [['params', 'path'], ['querystring', 'query'], ['query', 'query'], ['headers', 'header'], ['cookies', 'cookie']] as const
/** OpenAPI ignores header parameters with these names (they are described elsewhere). */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization'])
const COPIED = ['tags', 'summary', 'description', 'externalDocs', 'operationId', 'callbacks', 'deprecated', 'security', 'servers'] as const

interface OperationInput {
  route: RouteTableEntry
  method: string
  schema: Json
  pathParams: string[]
  /** prefix of component names for route-local schemas */
  name: string
}

export function buildOperation (components: Components, input: OperationInput): Json {
  const { route, schema, name } = input
  const op: Json = {}
  for (const key of COPIED) if (schema[key] !== undefined) op[key] = schema[key]
  for (const key of Object.keys(schema)) if (key.startsWith('x-')) op[key] = schema[key]

  const parameters = buildParameters(components, input)
  if (parameters.length > 0) op.parameters = parameters

  const body = unwrapFluentSchema(schema.body)
  if (body !== undefined && body !== null) {
    const written = components.part(route.scope, body, `${name}.body`)
    const root = components.resolveRoot(route.scope, body)
    const content: Json = {}
    for (const type of bodyTypes(route, schema, root)) content[type] = { schema: written }
    const requestBody: Json = { content, required: true }
    if (typeof root.description === 'string') requestBody.description = root.description
    op.requestBody = requestBody
  }
  op.responses = buildResponses(components, input)
  if (Array.isArray(schema.links) || isObject(schema.links)) attachLinks(op.responses as Json, schema.links as Json)
  return op
}

function buildParameters (components: Components, input: OperationInput): Json[] {
  const { route, schema, name, pathParams } = input
  const out: Json[] = []
  const declared = new Set<string>()
  for (const [part, location] of PARAMETER_PARTS) {
    const raw = unwrapFluentSchema(schema[part])
    if (raw === undefined || raw === null || (part === 'query' && schema.querystring !== undefined)) continue
    const { properties, required, root } = components.properties(route.scope, raw, `${name}.${part}`)
    for (const [prop, propSchema] of properties) {
      if (location === 'path' && !pathParams.includes(prop)) continue
      if (location === 'header' && IGNORED_HEADERS.has(prop.toLowerCase())) continue
      if (location === 'path') declared.add(prop)
      out.push(parameter(prop, location, propSchema, location === 'path' || required.has(prop), root))
    }
  }
  // every templated path parameter is declared (a route without a params schema has strings)
  const implicit = pathParams.filter((p) => !declared.has(p)).map((p) => ({ name: p, in: 'path', required: true, schema: { type: 'string' } }))
  return [...implicit, ...out].sort((a, b) => locationOrder(a.in as string) - locationOrder(b.in as string))
}

function locationOrder (location: string): number {
  return ['path', 'query', 'header', 'cookie'].indexOf(location)
}

function parameter (name: string, location: string, schema: Json, required: boolean, partRoot: Json): Json {
  const p: Json = { name, in: location }
  const s = { ...schema }
  if (typeof s.description === 'string') { p.description = s.description; delete s.description }
  if (required) p.required = true
  if (s.deprecated === true) p.deprecated = true
  for (const key of ['style', 'explode', 'allowReserved'] as const) {
    const value = s[key] ?? partRoot[key]
    delete s[key]
    if (value !== undefined) p[key] = value
  }
  const consume = s['x-consume']
  if (typeof consume === 'string') {
    delete s['x-consume']
    p.content = { [consume]: { schema: s } }
  } else {
    p.schema = s
  }
  return p
}

/** Content types of the request body: `consumes`, else one per parser of the route's context. */
function bodyTypes (route: RouteTableEntry, schema: Json, root: Json): string[] {
  if (Array.isArray(schema.consumes) && schema.consumes.length > 0) return schema.consumes.map(String)
  const types = new Set<string>()
  const acceptsString = root.type === undefined || root.type === 'string' || (Array.isArray(root.type) && root.type.includes('string'))
  for (const type of route.parserTypes) {
    // the built-in text parser hands the handler a string: listed only when the body may be one
    if (type === 'text/plain' && route.defaultTextParser && !acceptsString) continue
    types.add(type)
  }
  if (route.acceptsAnyType) types.add('*/*')
  if (types.size === 0) types.add('application/json')
  return [...types].sort()
}

function responseKey (code: string): string | undefined {
  if (code === 'default') return 'default'
  if (/^[1-5]xx$/i.test(code)) return code[0] + 'XX'
  if (/^[1-5]\d\d$/.test(code)) return code
  return undefined
}

function responseOrder (a: string, b: string): number {
  const rank = (k: string): string => k === 'default' ? '9' : k.replace('XX', 'ZZ')
  return rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0
}

function buildResponses (components: Components, input: OperationInput): Json {
  const { route, schema, name } = input
  const declared = isObject(schema.response) ? schema.response : {}
  const out: Json = {}
  const keys = Object.keys(declared).map((code) => [code, responseKey(code)] as const).filter((e): e is readonly [string, string] => e[1] !== undefined)
  keys.sort((a, b) => responseOrder(a[1], b[1]))
  for (const [code, key] of keys) {
    if (out[key] !== undefined) continue
    const raw = normalizeResponseSchema(declared[code])
    out[key] = response(components, route, raw, key, schema, `${name}.response.${key}`)
  }
  if (keys.length === 0) out['200'] = { description: 'Default Response' }
  return out
}

function response (components: Components, route: RouteTableEntry, raw: unknown, key: string, routeSchema: Json, name: string): Json {
  if (!isObject(raw)) return { description: 'Default Response' }
  const { headers, 'x-response-description': ownDescription, ...body } = raw
  const root = components.resolveRoot(route.scope, body)
  const description = typeof ownDescription === 'string' ? ownDescription : typeof root.description === 'string' ? root.description : 'Default Response'
  const out: Json = { description }
  if (isObject(headers)) {
    const written: Json = {}
    for (const header of Object.keys(headers)) {
      const headerSchema = { ...(components.part(route.scope, headers[header], `${name}.headers.${header}`) as Json) }
      const entry: Json = {}
      if (typeof headerSchema.description === 'string') { entry.description = headerSchema.description; delete headerSchema.description }
      entry.schema = headerSchema
      written[header] = entry
    }
    out.headers = written
  }
  if (key === '204' || key === '304' || root.type === 'null') return out
  const written = components.part(route.scope, body, name)
  const produces = Array.isArray(routeSchema.produces) && routeSchema.produces.length > 0 ? routeSchema.produces.map(String) : ['application/json']
  const content: Json = {}
  for (const type of produces) content[type] = { schema: written }
  out.content = content
  return out
}

/** `links: { 200: { name: Link } }` on the route schema -> responses[code].links. */
function attachLinks (responses: Json, links: Json): void {
  for (const code of Object.keys(links)) {
    const key = responseKey(code) ?? code
    const target = responses[key]
    if (isObject(target) && isObject(links[code])) target.links = links[code]
  }
}
