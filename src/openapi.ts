/**
 * `trellis/openapi`: the OpenAPI document of the application (3.1 by default, 3.0.3 on request),
 * generated from the built route table and the ONE schema store, so it describes what the validator
 * and the serializer actually use.
 *
 *   import openapi from 'trellis/openapi'
 *   await app.register(openapi, { openapi: { info: { title: 'Shop', version: '1.0.0' } } })
 *   app.get('/items/:id', { schema: { params: { $ref: 'ItemId#' } } }, handler)
 *   await app.ready()
 *   app.openapi()              // the document (also app.swagger(), as with @fastify/swagger)
 *   app.openapi({ yaml: true }) // as YAML
 *
 * Served (both skippable): `GET /documentation/json`, `/documentation/yaml`, and the docs page at
 * `/documentation` (Swagger UI from the local swagger-ui-dist package). Register it anywhere, before
 * or after the routes: every route of every context is read from the route table at ready().
 */
import { stringify as toYaml } from 'yaml'
import plugin from './plugin'
import { createError } from './base/errors'
import type { TrellisInstance } from './types/instance'
import type { BothLinesPluginCallback } from './types/both-lines'
import { routeTable } from './context/route-table'
import { buildDocument } from './openapi/document'
import { DOCS_CSP, docsPage, initScript, loadUiAssets } from './openapi/docs-page'
import type { OpenApiOptions } from './openapi/options'

export type { OpenApiOptions, OpenApiTransformInput } from './openapi/options'

/** An OpenAPI document (a plain JSON object). */
export interface OpenApiDocument { openapi: string, info: { title: string, version: string, [key: string]: unknown }, paths: Record<string, unknown>, components?: Record<string, unknown>, [key: string]: unknown }

export interface OpenApiFunction {
  (options?: { yaml?: false }): OpenApiDocument
  (options: { yaml: true }): string
}

declare module './types/instance' {
  interface FastifyInstance {
    /** The OpenAPI document (after ready()); `{ yaml: true }` for YAML. Present after registering trellis/openapi. */
    openapi: OpenApiFunction
    /** Alias of `openapi()`, as @fastify/swagger names it. */
    swagger: OpenApiFunction
  }
}

declare module './types/v5/instance' {
  interface FastifyInstance {
    /** The OpenAPI document (after ready()); `{ yaml: true }` for YAML. Present after registering trellis/openapi. */
    openapi: OpenApiFunction
    /** Alias of `openapi()`, as @fastify/swagger names it. */
    swagger: OpenApiFunction
  }
}

declare module './types/schema' {
  interface RouteSchemaOptions {
    /** Leave the route out of the OpenAPI document. */
    hide?: boolean
    tags?: string[]
    summary?: string
    description?: string
    operationId?: string
    deprecated?: boolean
    security?: Array<Record<string, string[]>>
    externalDocs?: { url: string, description?: string }
    /** Request body media types (default: one per content-type parser of the route's context). */
    consumes?: string[]
    /** Response media types (default: application/json). */
    produces?: string[]
    /** Cookie parameters (documented only: trellis itself does not validate cookies). */
    cookies?: unknown
    links?: Record<string | number, Record<string, unknown>>
  }
}

export const openapiErrors = {
  TRELLIS_OPENAPI_NOT_READY: createError('TRELLIS_OPENAPI_NOT_READY', 'openapi(): the document is built from the route table; call it after ready()'),
  TRELLIS_OPENAPI_INVALID_OPTIONS: createError('TRELLIS_OPENAPI_INVALID_OPTIONS', 'trellis/openapi: %s', 500, TypeError)
}

function checkOptions (options: OpenApiOptions): void {
  const fail = (message: string): never => { throw new openapiErrors.TRELLIS_OPENAPI_INVALID_OPTIONS(message) }
  if (options === null || typeof options !== 'object') fail('options must be an object')
  for (const name of ['transform', 'transformObject'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') fail(`options.${name} must be a function`)
  }
  const version = options.openapi?.openapi
  if (version !== undefined && (typeof version !== 'string' || !/^3\.[01]\.\d+$/.test(version))) fail(`options.openapi.openapi must be '3.1.x' or '3.0.x', got ${JSON.stringify(version)}`)
  if (options.routePrefix !== undefined && (typeof options.routePrefix !== 'string' || !options.routePrefix.startsWith('/'))) fail('options.routePrefix must be a path starting with /')
}

function openapiPlugin (instance: TrellisInstance, opts: OpenApiOptions, done: (err?: Error) => void): void {
  const options = opts ?? {}
  try {
    checkOptions(options)
  } catch (err) {
    done(err as Error)
    return
  }
  let cached: { json: string, doc: OpenApiDocument, yaml?: string } | undefined
  const current = (): { json: string, doc: OpenApiDocument, yaml?: string } => {
    if (cached !== undefined) return cached
    const table = routeTable(instance)
    if (!table.booted) throw new openapiErrors.TRELLIS_OPENAPI_NOT_READY()
    const doc = buildDocument(table, options) as OpenApiDocument
    cached = { json: JSON.stringify(doc), doc }
    return cached
  }
  const yaml = (): string => {
    const c = current()
    c.yaml ??= toYaml(JSON.parse(c.json), { aliasDuplicateObjects: false })
    return c.yaml
  }
  const document = function (this: unknown, o?: { yaml?: boolean }): OpenApiDocument | string {
    return o?.yaml === true ? yaml() : current().doc
  } as OpenApiFunction
  instance.decorate('openapi', document)
  instance.decorate('swagger', document)

  const prefix = (options.routePrefix ?? '/documentation').replace(/\/+$/, '')
  const hide = { schema: { hide: true } }
  if (options.exposeRoute !== false) {
    instance.get(`${prefix}/json`, hide, async (_request, reply) => {
      reply.type('application/json; charset=utf-8')
      return current().json
    })
    instance.get(`${prefix}/yaml`, hide, async (_request, reply) => {
      reply.type('application/yaml; charset=utf-8')
      return yaml()
    })
  }
  if (options.ui !== false) {
    const assets = loadUiAssets()
    const base = instance.prefix.replace(/\/+$/, '') + prefix
    const title = options.openapi?.info?.title ?? 'API documentation'
    const page = docsPage(base, String(title))
    const init = initScript(base, options.uiConfig ?? {})
    instance.get(prefix === '' ? '/' : prefix, hide, async (_request, reply) => {
      reply.header('content-security-policy', DOCS_CSP).type('text/html; charset=utf-8')
      return page
    })
    // `<prefix>/` answers too (a redirect), unless the router already treats both as one
    if (prefix !== '' && instance.initialConfig.ignoreTrailingSlash !== true) {
      instance.get(`${prefix}/`, hide, async (_request, reply) => reply.redirect(base))
    }
    instance.get(`${prefix}/static/:file`, hide, async (request, reply) => {
      const file = (request.params as { file: string }).file
      if (file === 'init.js') return reply.type('text/javascript; charset=utf-8').send(init)
      const asset = assets.get(file)
      if (asset === undefined) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `no docs asset ${file}` })
      return reply.type(asset.type).header('cache-control', 'public, max-age=3600').send(asset.body)
    })
  }
  done()
}

/** The plugin, wrapped: `app.openapi()` is decorated where it is registered (usually the root). */
const openapi = plugin(openapiPlugin, { fastify: '4.x || 5.x', name: 'trellis-openapi' })
/** Typed as a plugin of each Fastify line: it runs on both. */
const typed = openapi as BothLinesPluginCallback<OpenApiOptions>

export { typed as openapi, typed as swagger }
export default typed
