/**
 * A read-only view of the built route table, for tools that document or inspect an application
 * (the `trellis/openapi` entry). It reads what `ready()` built: every route of every context, with
 * the shared schemas its context sees and the content types its parsers accept. Nothing here is on
 * the request path; the view is a fresh snapshot per call.
 */
import { contextOf, type PluginContext } from './plugin-context'
import type { RouteOptions } from '../routing/route-options'

/** The shared schemas one context sees (its own and its ancestors', by `$id`). */
export interface SchemaScope {
  readonly shared: Readonly<Record<string, Record<string, unknown>>>
  /** Depth of the context in the plugin tree (the root is 0). */
  readonly depth: number
}

export interface RouteTableEntry {
  /** Upper-case methods of the route. */
  readonly methods: readonly string[]
  /** The full URL as registered (context prefix included), in the router's syntax (`/users/:id`). */
  readonly url: string
  readonly schema: Readonly<Record<string, unknown>> | undefined
  readonly config: Readonly<Record<string, unknown>>
  readonly constraints: Readonly<Record<string, unknown>> | undefined
  /** The route options after onRoute hooks ran (read-only by convention). */
  readonly options: Readonly<RouteOptions>
  readonly scope: SchemaScope
  /** Media types with a string-registered parser in the route's context, most recent first. */
  readonly parserTypes: readonly string[]
  /** A catch-all (`'*'`) parser is registered: the route accepts any content type. */
  readonly acceptsAnyType: boolean
  /** `text/plain` is parsed by the built-in text parser (not replaced by the application). */
  readonly defaultTextParser: boolean
}

export interface RouteTable {
  /** The plugin tree has loaded: no route can be added any more. */
  readonly booted: boolean
  readonly routes: readonly RouteTableEntry[]
  /** One scope per context, root first, depth-first in registration order. */
  readonly scopes: readonly SchemaScope[]
}

/** The route table of the application `instance` belongs to (any context of it). */
export function routeTable (instance: unknown): RouteTable {
  const app = contextOf(instance).app
  const scopes = new Map<PluginContext, SchemaScope>()
  const visit = (context: PluginContext, depth: number): void => {
    scopes.set(context, { shared: context.schemas.getAll(), depth })
    for (const child of context.children) visit(child, depth + 1)
  }
  visit(app.rootContext, 0)
  // a prefix's '/' route registered both ways is listed once, under `prefix/` (@fastify/swagger 8)
  const routes = app.routes.filter((record) => record.twinListed !== true).map((record): RouteTableEntry => {
    const { context, options } = record
    const parsers = record.route.parsers ?? context.parsers
    const methods = (Array.isArray(options.method) ? options.method : [options.method]).map((m) => String(m).toUpperCase())
    const scope = scopes.get(context) ?? { shared: context.schemas.getAll(), depth: 0 }
    return {
      methods,
      url: record.url,
      schema: options.schema,
      config: options.config ?? {},
      constraints: options.constraints,
      options,
      scope,
      parserTypes: parsers.parserList,
      acceptsAnyType: '' in parsers.customParsers,
      defaultTextParser: !parsers.existingParser('text/plain')
    }
  })
  return { booted: app.booted, routes, scopes: [...scopes.values()] }
}
