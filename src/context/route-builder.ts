/**
 * The route builder: the plugin tree turned into routes. `addRoute` runs when the application calls
 * `route()` or a shorthand: it checks the options, applies the context prefix, runs onRoute hooks
 * and inserts the route in the router (with its automatic HEAD twin). At `ready()`, `buildRoute`
 * resolves what the route inherits from its context (hooks, request-id generator, child logger
 * factory, error handler, compilers, decorated Request/Reply classes) into its RouteContext, and
 * `buildNotFoundRoutes` builds the 404 route of each prefix.
 */
import { errorCodes } from '../base/errors'
import { errorCodesAddedInV5 } from '../base/errors-v5'
import { emitDeprecation } from '../base/warnings'
import { requestHookNames, type AnyHook, type RequestHookName, type RequestHooks } from '../lifecycle/hooks'
import { buildErrorHandler, type ErrorHandlerFn } from '../lifecycle/error-handling'
import type { RequestClass } from '../lifecycle/request'
import type { ReplyClass } from '../lifecycle/reply'
import { kRouteSerializeFns, kRouteValidateFns, type RouteContext } from '../lifecycle/route-context'
import { resolveInstanceFields, type FieldCarrier } from '../lifecycle/instance-fields'
import { defaultSchemaErrorFormatter } from '../schema/validation'
import { basicNotFound, nothingObserves, notFoundTable, type NotFoundEntry } from '../routing/not-found'
import { checkOptions, checkRouteHooks, headOnSend, type RouteOptions } from '../routing/route-options'
import type { PluginContext } from './plugin-context'
import { compileRouteSchemas, routeSchemaCompilers } from './schema-compilers'

export interface RouteRecord {
  context: PluginContext
  options: RouteOptions
  method: string
  url: string
  route: RouteContext
  /**
   * The `prefix` half of a prefix's `'/'` route registered both ways (`prefix` and `prefix/`):
   * it answers requests, but route listings (OpenAPI) show the pair once, under `prefix/`, as
   * @fastify/swagger lists it.
   */
  twinListed?: true
}

/** What differs between a route and a 404 route when its RouteContext is first made. */
type RouteSpec = Pick<RouteContext, 'config' | 'schema' | 'handler' | 'errorHandler' | 'hooks' | 'bodyLimit' | 'handlerTimeout' | 'attachValidation' | 'logLevel' | 'logSerializers'>

/**
 * A RouteContext of `context`, every field in one order (one hidden class for routes and 404
 * routes alike); what is resolved at ready() starts empty.
 */
function newRouteContext (context: PluginContext, spec: RouteSpec): RouteContext {
  return {
    env: context.app.dispatcher,
    genReqId: context.app.dispatcher.genReqId,
    childLoggerFactory: null,
    exposeHeadRoute: undefined,
    prefixTrailingSlash: undefined,
    server: context.instance,
    config: spec.config,
    schema: spec.schema,
    handler: spec.handler,
    errorHandler: spec.errorHandler,
    hooks: spec.hooks,
    bodyLimit: spec.bodyLimit,
    handlerTimeout: spec.handlerTimeout,
    attachValidation: spec.attachValidation,
    validators: {},
    serializers: null,
    schemaErrorFormatter: null as never,
    replySerializer: context.replySerializer,
    Request: context.Request,
    Reply: context.Reply,
    parsers: context.parsers,
    logLevel: spec.logLevel,
    logSerializers: spec.logSerializers,
    is404: false,
    traceInfo: null,
    notFound: null,
    validates: false,
    schemaCompilers: null,
    [kRouteValidateFns]: null,
    [kRouteSerializeFns]: null
  }
}

/** A context's request hooks followed by a route's own (a function or a list per hook name). */
function withRouteHooks (hooks: RequestHooks, own: Partial<Record<RequestHookName, AnyHook | AnyHook[] | undefined>>): RequestHooks {
  const merged = {} as RequestHooks
  for (const name of requestHookNames) {
    const extra = own[name]
    merged[name] = extra === undefined ? hooks[name].slice() : hooks[name].concat(extra)
  }
  return merged
}

/** Registers a route in `context`; returns nothing: the route becomes live at ready(). */
export function addRoute (context: PluginContext, input: RouteOptions): void {
  const app = context.app
  // Fastify 4.29's error (trellis's FST_ERR_ROUTE_AFTER_START is kept in errorCodes, no longer thrown)
  if (app.booted) throw new errorCodes.FST_ERR_INSTANCE_ALREADY_LISTENING('Cannot add route!')
  const opts: RouteOptions = { ...input }
  const methods = (Array.isArray(opts.method) ? opts.method : [opts.method]).map((m) => typeof m === 'string' ? m.toUpperCase() : m)
  opts.method = Array.isArray(opts.method) ? methods : methods[0]
  const path = opts.url ?? opts.path ?? ''
  if (typeof path !== 'string') throw new errorCodes.FST_ERR_INVALID_URL(typeof path)
  checkOptions(opts, methods, path, app.dispatcher.methods)

  const prefix = context.prefix
  if (path === '/' && prefix.length > 0 && opts.method !== 'HEAD') {
    const mode = opts.prefixTrailingSlash ?? 'both'
    if (mode === 'slash') register(context, opts, path, prefix, false)
    else if (mode === 'no-slash') register(context, opts, '', prefix, false)
    else {
      const first = app.routes.length
      register(context, opts, '', prefix, false)
      // the '/' twin is `prefix + '/'`; it would collide with the '' route when slashes are
      // ignored or merged (a prefix ending in '/' gives 'prefix//', which merges into 'prefix/')
      const { ignoreTrailingSlash, ignoreDuplicateSlashes } = app.options
      if (!ignoreTrailingSlash && (!ignoreDuplicateSlashes || !prefix.endsWith('/'))) {
        const twin = app.routes.length
        register(context, { ...opts }, path, prefix, true)
        for (let i = first; i < twin; i++) app.routes[i].twinListed = true
      }
    }
  } else if (path[0] === '/' && prefix.endsWith('/')) {
    // '/prefix/' + '/route' is registered as '/prefix/route'
    register(context, opts, path.slice(1), prefix, false)
  } else {
    register(context, opts, path, prefix, false)
  }
}

/** Fastify 5: a route's `logLevel` must be a level of the application's logger (when it lists them). */
function checkLogLevel (opts: RouteOptions, log: unknown): void {
  const level = opts.logLevel as unknown
  if (level === undefined || level === null || level === '') return
  const values = (log as { levels?: { values?: Record<string, number> } }).levels?.values
  if (values === undefined || values === null) return
  if (typeof level !== 'string' || values[level] === undefined) throw new errorCodesAddedInV5.FST_ERR_ROUTE_LOG_LEVEL_INVALID(String(opts.method), String(opts.url), String(level))
}

function register (context: PluginContext, opts: RouteOptions, path: string, prefix: string, prefixing: boolean, autoHead = false): void {
  const app = context.app
  const url = prefix + path
  opts.url = url
  opts.path = url
  ;(opts as Record<string, unknown>).routePath = path
  ;(opts as Record<string, unknown>).prefix = prefix
  opts.logLevel = opts.logLevel ?? context.logLevel
  if (app.options.line === 5) checkLogLevel(opts, app.log)
  if (context.logSerializers !== undefined || opts.logSerializers !== undefined) opts.logSerializers = { ...context.logSerializers, ...opts.logSerializers }
  if (opts.attachValidation === undefined || opts.attachValidation === null) opts.attachValidation = false
  // the automatic HEAD route starts from the options as they were before onRoute hooks changed them (Fastify 4.29)
  const headBase = opts.method === 'GET' && !autoHead ? { ...opts } : opts
  if (!prefixing && context.onRoute.length > 0) {
    for (const hook of context.onRoute) hook.call(context.instance, opts)
    // onRoute hooks may have changed the route's hooks: checked again (Fastify 4.29)
    checkRouteHooks(opts)
  }

  const constraints = { ...(opts.constraints ?? {}) }
  // Fastify 5 removed the `version` route option: it is ignored (`constraints: { version }` instead)
  if (app.options.line === 4 && opts.version !== undefined && opts.version !== null && opts.version !== '') {
    emitDeprecation('FSTDEP008')
    constraints.version = opts.version
  }
  const finalMethods = (Array.isArray(opts.method) ? opts.method : [opts.method]).map((m) => String(m).toUpperCase())
  const finalUrl = opts.url ?? url
  const route = newRouteContext(context, {
    config: { ...(opts.config ?? {}), url: finalUrl, method: opts.method },
    schema: opts.schema,
    handler: opts.handler,
    errorHandler: context.errorHandler,
    hooks: context.hooks,
    bodyLimit: opts.bodyLimit,
    // a route's own wins; a route cannot opt out of the server's (Fastify 5)
    handlerTimeout: app.options.line === 5 ? (opts.handlerTimeout as number | undefined) ?? app.options.handlerTimeout : 0,
    attachValidation: opts.attachValidation === true,
    logLevel: opts.logLevel,
    logSerializers: opts.logSerializers
  })
  for (const method of finalMethods) {
    app.router.on(method, finalUrl, constraints, app.dispatcher.routeHandler, route, autoHead)
  }
  app.routes.push({ context, options: opts, method: String(opts.method), url: finalUrl, route })

  // A GET route also answers HEAD (exposeHeadRoutes), as a route of its own that onRoute hooks
  // see, unless a HEAD route of the application already answers it (Fastify 4.3: an unconstrained
  // HEAD route answers requests of any constraint value; Fastify 5: only a HEAD route with the same
  // constraints does).
  const exposeHead = opts.exposeHeadRoute ?? app.options.exposeHeadRoutes
  if (autoHead || opts.method !== 'GET') return
  const headAnswered = app.options.line === 5 ? app.router.has('HEAD', finalUrl, constraints) : app.router.matches('HEAD', finalUrl, constraints)
  if (exposeHead && !headAnswered) {
    const onSend = headBase.onSend === undefined ? [headOnSend] : ([] as unknown[]).concat(headBase.onSend, headOnSend)
    register(context, { ...headBase, method: 'HEAD', onSend, exposeHeadRoute: false }, path, prefix, prefixing, true)
  } else if (headAnswered && opts.exposeHeadRoute === true && app.options.line === 4) {
    // the route asked for a HEAD route that the application's own HEAD route already provides
    emitDeprecation('FSTDEP007')
  }
}

/** Resolves everything a route needs, once, at ready(). */
export function buildRoute (record: RouteRecord): void {
  const { context, options: opts, route } = record
  route.hooks = withRouteHooks(context.hooks, opts as Partial<Record<RequestHookName, AnyHook | AnyHook[]>>)
  route.genReqId = context.genReqId()
  route.exposeHeadRoute = opts.exposeHeadRoute
  route.prefixTrailingSlash = opts.prefixTrailingSlash
  route.childLoggerFactory = typeof opts.childLoggerFactory === 'function' ? opts.childLoggerFactory as RouteContext['childLoggerFactory'] : context.childLoggerFactory()
  route.errorHandler = opts.errorHandler !== undefined ? buildErrorHandler(context.errorHandler, opts.errorHandler, context.instance) : context.errorHandler
  route.replySerializer = context.replySerializer
  route.parsers = context.parsers
  route.Request = nearestDecorated(context.Request)
  route.Reply = nearestDecorated(context.Reply)
  route.notFound = context.app.dispatcher.notFoundFor(record.url)
  compileRouteSchemas(context, route, opts, record.method, record.url)
}

/** Skips empty per-context subclasses so undecorated contexts share one hidden class. */
function nearestDecorated<T extends RequestClass | ReplyClass> (cls: T): T {
  let current = cls
  while (!current.decorated) {
    const parent = Object.getPrototypeOf(current) as T
    if (parent === null || typeof parent !== 'function' || !('decorated' in parent)) break
    current = parent
  }
  resolveInstanceFields(current as unknown as FieldCarrier)
  return current
}

/** The 404 route of `context`: its own handler and hooks (setNotFoundHandler), else the default. */
function notFoundRoute (context: PluginContext): RouteContext {
  const setup = context.notFound
  const route = newRouteContext(context, {
    config: {},
    schema: undefined,
    handler: (setup?.handler ?? basicNotFound) as RouteContext['handler'],
    // its own error handler first (Fastify 4.29), then the context's chain
    errorHandler: setup?.errorHandler !== undefined ? buildErrorHandler(context.errorHandler, setup.errorHandler as ErrorHandlerFn, context.instance) : context.errorHandler,
    hooks: withRouteHooks(context.hooks, setup?.hooks ?? {}),
    bodyLimit: undefined,
    handlerTimeout: 0,
    attachValidation: false,
    logLevel: context.logLevel,
    logSerializers: context.logSerializers
  })
  route.genReqId = context.genReqId()
  route.childLoggerFactory = context.childLoggerFactory()
  route.schemaErrorFormatter = defaultSchemaErrorFormatter
  route.Request = nearestDecorated(context.Request)
  route.Reply = nearestDecorated(context.Reply)
  route.is404 = true
  route.schemaCompilers = routeSchemaCompilers(context, {})
  return route
}

/** Builds the 404 routes of the whole tree, deepest prefix first. */
export function buildNotFoundRoutes (root: PluginContext): NotFoundEntry[] {
  const byPrefix = new Map<string, NotFoundEntry>()
  const visit = (context: PluginContext): void => {
    const isOwner = context.parent === null || context.ownNotFound || (context.prefix !== context.parent.prefix && !byPrefix.has(context.prefix))
    if (isOwner && (context.ownNotFound || !byPrefix.has(context.prefix))) {
      const route = notFoundRoute(context)
      byPrefix.set(context.prefix, { prefix: context.prefix, prefixSlash: context.prefix.endsWith('/') ? context.prefix : context.prefix + '/', route, plain: nothingObserves(route) })
    }
    for (const child of context.children) visit(child)
  }
  visit(root)
  return notFoundTable(byPrefix.values())
}
