/**
 * The OpenAPI document of an application, from its built route table and its shared schemas.
 * Deterministic: paths sorted, methods in specification order, components sorted by name, so the
 * same application gives byte-identical JSON whatever order its routes were registered in.
 */
import { isObject } from '../schema/ref-resolver'
import { unwrapFluentSchema } from '../schema/fluent'
import type { RouteTable, RouteTableEntry } from '../context/route-table'
import { canonicalJson, cloneJson, componentName } from './canonical'
import { Components } from './components'
import { buildOperation } from './operation'
import { OPERATION_METHODS, toTemplate } from './paths'
import { hoistDefinitions, retarget, toDialect30, toDialect31 } from './versions'
import type { OpenApiOptions } from './options'

type Json = Record<string, unknown>

interface Candidate { route: RouteTableEntry, method: string, path: string, params: string[], schema: Json, sortKey: string }

export function buildDocument (table: RouteTable, options: OpenApiOptions): Json {
  const given = cloneJson(options.openapi ?? {}) as Json
  const version = typeof given.openapi === 'string' ? given.openapi : '3.1.0'
  const is30 = version.startsWith('3.0')
  const doc: Json = { openapi: version, info: { title: 'API', version: '1.0.0', ...(isObject(given.info) ? given.info : {}) } }
  if (given.jsonSchemaDialect !== undefined && !is30) doc.jsonSchemaDialect = given.jsonSchemaDialect
  if (given.servers !== undefined) doc.servers = given.servers
  const paths: Json = {}
  doc.paths = paths
  const userComponents = isObject(given.components) ? given.components : {}
  const userSchemas = isObject(userComponents.schemas) ? userComponents.schemas : {}
  const components = new Components(table.scopes, Object.keys(userSchemas))

  const candidates: Candidate[] = []
  for (const route of table.routes) {
    for (const upper of route.methods) {
      const method = upper.toLowerCase()
      if (!(OPERATION_METHODS as readonly string[]).includes(method)) continue
      const swaggerConfig = isObject(route.config.swagger) ? route.config.swagger : {}
      if (method === 'head' && options.exposeHeadRoutes !== true && swaggerConfig.exposeHeadRoute !== true) continue
      let schema = (unwrapFluentSchema(route.schema) ?? {}) as Json
      let url = route.url
      const transform = route.config.swaggerTransform === false ? undefined : (route.config.swaggerTransform as OpenApiOptions['transform']) ?? options.transform
      if (typeof transform === 'function') {
        const out = transform({ schema, url, route: route.options, openapiObject: doc, swaggerObject: doc })
        schema = (out?.schema ?? schema) as Json
        url = out?.url ?? url
      }
      if (schema === null || typeof schema !== 'object' || hidden(schema, options)) continue
      const { path, params } = toTemplate(url)
      candidates.push({ route, method, path, params, schema, sortKey: canonicalJson(schema) })
    }
  }
  candidates.sort((a, b) => compare(a.path, b.path) || OPERATION_METHODS.indexOf(a.method as never) - OPERATION_METHODS.indexOf(b.method as never) || compare(a.sortKey, b.sortKey))
  for (const c of candidates) {
    const item = (paths[c.path] ?? {}) as Json
    paths[c.path] = item
    if (item[c.method] !== undefined) continue // same method and path (other constraints): the first by content
    const name = typeof c.schema.operationId === 'string' ? c.schema.operationId : `${c.method}${c.path.replace(/[{}]/g, '')}`
    item[c.method] = buildOperation(components, { route: c.route, method: c.method, schema: c.schema, pathParams: c.params, name: componentName(name) })
  }

  const schemas = new Map<string, unknown>(Object.entries(userSchemas))
  for (const [name, schema] of components.schemas) schemas.set(name, schema)
  // 3.0 has no `definitions`: referenced ones become components of their own
  const moved = is30 ? hoistDefinitions(schemas, (wanted) => components.reserve(wanted)) : new Map<string, string>()
  const sorted: Json = {}
  for (const name of [...schemas.keys()].sort(compare)) sorted[name] = schemas.get(name)
  const out: Json = { ...userComponents }
  if (schemas.size > 0) out.schemas = sorted
  else delete out.schemas
  if (Object.keys(out).length > 0) doc.components = out
  retarget(doc, moved)
  if (given.security !== undefined) doc.security = given.security
  if (given.tags !== undefined) doc.tags = given.tags
  if (given.externalDocs !== undefined) doc.externalDocs = given.externalDocs
  if (given.webhooks !== undefined && !is30) doc.webhooks = given.webhooks
  for (const key of Object.keys(given)) if (key.startsWith('x-')) doc[key] = given[key]

  forEachSchema(doc, is30 ? toDialect30 : toDialect31)
  const transformed = typeof options.transformObject === 'function' ? options.transformObject({ openapiObject: doc, swaggerObject: doc }) : doc
  return (transformed ?? doc) as Json
}

function hidden (schema: Json, options: OpenApiOptions): boolean {
  if (schema.hide === true) return true
  const tags = Array.isArray(schema.tags) ? schema.tags : []
  if (tags.includes(options.hiddenTag ?? 'X-HIDDEN')) return true
  return options.hideUntagged === true && tags.length === 0
}

function compare (a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Applies `fn` to every Schema Object slot of the document (replacing it with the result). */
function forEachSchema (doc: Json, fn: (schema: unknown) => unknown): void {
  const media = (content: unknown): void => {
    if (!isObject(content)) return
    for (const type of Object.keys(content)) {
      const m = content[type]
      if (isObject(m) && m.schema !== undefined) m.schema = fn(m.schema)
    }
  }
  const responses = (rs: unknown): void => {
    if (!isObject(rs)) return
    for (const code of Object.keys(rs)) {
      const r = rs[code]
      if (!isObject(r)) continue
      media(r.content)
      if (isObject(r.headers)) for (const h of Object.values(r.headers)) if (isObject(h) && h.schema !== undefined) h.schema = fn(h.schema)
    }
  }
  const paths = isObject(doc.paths) ? doc.paths : {}
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue
    for (const op of Object.values(item)) {
      if (!isObject(op)) continue
      if (Array.isArray(op.parameters)) {
        for (const p of op.parameters) {
          if (!isObject(p)) continue
          if (p.schema !== undefined) p.schema = fn(p.schema)
          media(p.content)
        }
      }
      if (isObject(op.requestBody)) media(op.requestBody.content)
      responses(op.responses)
    }
  }
  const components = isObject(doc.components) ? doc.components : {}
  if (isObject(components.schemas)) for (const name of Object.keys(components.schemas)) components.schemas[name] = fn(components.schemas[name])
}
