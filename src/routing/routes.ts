/**
 * Route options -> a route. `addRoute` runs when the application calls `route()` or a shorthand:
 * it checks the options, applies the context prefix, runs onRoute hooks and inserts the route in
 * the router. `buildRoute` runs at `ready()`: it resolves hooks, error handler, compilers and
 * Request/Reply classes into the route's RouteContext.
 */
import { errorCodes } from '../errors'
import type { Context } from '../context/context'
import { contextGenReqId } from '../context/gen-req-id'
import { contextChildLoggerFactory } from '../context/child-logger-factory'
import { checkAsyncArity, requestHookNames, type AnyHook, type RequestHookName } from '../context/hooks'
import { buildErrorHandler, type ErrorHandlerFn } from '../lifecycle/error-handling'
import type { RequestClass } from '../lifecycle/request'
import type { ReplyClass } from '../lifecycle/reply'
import { kRouteSerializeFns, kRouteValidateFns, type RouteContext } from './route-context'
import { compileRouteSchemas } from '../context/schema-compilers'
import { resolveInstanceFields, type FieldCarrier } from '../lifecycle/instance-fields'
import { emitDeprecation } from '../warnings'

export const supportedMethods = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS', 'SEARCH', 'TRACE', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'REPORT', 'MKCALENDAR'] as const
const supported = new Set<string>(supportedMethods)

export interface RouteOptions {
  method: string | string[]
  url: string
  path?: string
  handler: (this: any, request: any, reply: any) => unknown
  schema?: Record<string, unknown>
  attachValidation?: boolean
  config?: Record<string, unknown>
  constraints?: Record<string, unknown>
  version?: string
  errorHandler?: ErrorHandlerFn
  bodyLimit?: number
  logLevel?: string
  logSerializers?: Record<string, (value: any) => unknown>
  /** Fastify 4.29: makes this route's request loggers (see setChildLoggerFactory). */
  childLoggerFactory?: (...args: any[]) => any
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both'
  exposeHeadRoute?: boolean
  validatorCompiler?: (...args: any[]) => any
  serializerCompiler?: (...args: any[]) => any
  schemaErrorFormatter?: (...args: any[]) => Error
  [hook: string]: unknown
}

export interface RouteRecord { context: Context; options: RouteOptions; method: string; url: string; route: RouteContext }

/** `(path, [options], handler)` -> one options object, with Fastify's checks. */
export function shorthandOptions (method: string | string[], url: string, options: unknown, handler: unknown): RouteOptions {
  let opts = options as Record<string, unknown> | undefined
  let fn = handler
  if (fn === undefined && typeof opts === 'function') {
    fn = opts
    opts = {}
  } else if (fn !== undefined && typeof fn === 'function') {
    if (Object.prototype.toString.call(opts) !== '[object Object]') throw new errorCodes.FST_ERR_ROUTE_OPTIONS_NOT_OBJ(String(method), url)
    if (opts?.handler !== undefined) {
      if (typeof opts.handler === 'function') throw new errorCodes.FST_ERR_ROUTE_DUPLICATED_HANDLER(String(method), url)
      throw new errorCodes.FST_ERR_ROUTE_HANDLER_NOT_FN(String(method), url)
    }
  }
  return Object.assign({}, opts, { method, url, path: url, handler: fn ?? opts?.handler }) as RouteOptions
}

function checkOptions (opts: RouteOptions, methods: string[], path: string): void {
  for (const method of methods) {
    if (typeof method !== 'string') throw new errorCodes.FST_ERR_ROUTE_METHOD_INVALID()
    if (!supported.has(method)) throw new errorCodes.FST_ERR_ROUTE_METHOD_NOT_SUPPORTED(method)
    if ((method === 'GET' || method === 'HEAD') && opts.schema?.body !== undefined) throw new errorCodes.FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED(method, path)
  }
  if (typeof opts.handler !== 'function') {
    if (opts.handler === undefined || opts.handler === null) throw new errorCodes.FST_ERR_ROUTE_MISSING_HANDLER(String(opts.method), path)
    throw new errorCodes.FST_ERR_ROUTE_HANDLER_NOT_FN(String(opts.method), path)
  }
  if (opts.errorHandler !== undefined && typeof opts.errorHandler !== 'function') throw new errorCodes.FST_ERR_ROUTE_HANDLER_NOT_FN(String(opts.method), path)
  if (opts.bodyLimit !== undefined && (!Number.isInteger(opts.bodyLimit) || opts.bodyLimit <= 0)) {
    throw new errorCodes.FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT(String(opts.bodyLimit))
  }
  checkRouteHooks(opts)
}

/** Route-level hooks must be functions (an array may not hold anything else), with the arity their style needs. */
function checkRouteHooks (opts: RouteOptions): void {
  for (const name of requestHookNames) {
    const hook = opts[name]
    if (hook === undefined) continue
    for (const fn of Array.isArray(hook) ? hook : [hook]) {
      if (typeof fn !== 'function') throw new errorCodes.FST_ERR_HOOK_INVALID_HANDLER(name, Object.prototype.toString.call(fn))
      checkAsyncArity(name, fn)
    }
  }
}

/** Registers a route in `context`; returns nothing: the route becomes live at ready(). */
export function addRoute (context: Context, input: RouteOptions): void {
  const root = context.root
  // Fastify 4.29's error (trellis's FST_ERR_ROUTE_AFTER_START is kept in errorCodes, no longer thrown)
  if (root.booted) throw new errorCodes.FST_ERR_INSTANCE_ALREADY_LISTENING('Cannot add route!')
  const opts: RouteOptions = { ...input }
  const methods = (Array.isArray(opts.method) ? opts.method : [opts.method]).map((m) => typeof m === 'string' ? m.toUpperCase() : m)
  opts.method = Array.isArray(opts.method) ? methods : methods[0]
  const path = opts.url ?? opts.path ?? ''
  if (typeof path !== 'string') throw new errorCodes.FST_ERR_INVALID_URL(typeof path)
  checkOptions(opts, methods, path)

  const prefix = context.prefix
  if (path === '/' && prefix.length > 0 && opts.method !== 'HEAD') {
    const mode = opts.prefixTrailingSlash ?? 'both'
    if (mode === 'slash') register(context, opts, path, prefix, false)
    else if (mode === 'no-slash') register(context, opts, '', prefix, false)
    else {
      register(context, opts, '', prefix, false)
      // the '/' twin is `prefix + '/'`; it would collide with the '' route when slashes are
      // ignored or merged (a prefix ending in '/' gives 'prefix//', which merges into 'prefix/')
      const { ignoreTrailingSlash, ignoreDuplicateSlashes } = root.options
      if (!ignoreTrailingSlash && (!ignoreDuplicateSlashes || !prefix.endsWith('/'))) register(context, { ...opts }, path, prefix, true)
    }
  } else if (path[0] === '/' && prefix.endsWith('/')) {
    // '/prefix/' + '/route' is registered as '/prefix/route'
    register(context, opts, path.slice(1), prefix, false)
  } else {
    register(context, opts, path, prefix, false)
  }
}

function register (context: Context, opts: RouteOptions, path: string, prefix: string, prefixing: boolean, autoHead = false): void {
  const root = context.root
  const url = prefix + path
  opts.url = url
  opts.path = url
  ;(opts as Record<string, unknown>).routePath = path
  ;(opts as Record<string, unknown>).prefix = prefix
  opts.logLevel = opts.logLevel ?? context.logLevel
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
  if (opts.version !== undefined && opts.version !== null && opts.version !== '') {
    emitDeprecation('FSTDEP008')
    constraints.version = opts.version
  }
  const finalMethods = (Array.isArray(opts.method) ? opts.method : [opts.method]).map((m) => String(m).toUpperCase())
  const finalUrl = opts.url ?? url
  const route = createRouteContext(context, opts, finalUrl)
  for (const method of finalMethods) {
    root.router.on(method, finalUrl, constraints, root.routeHandler, route, autoHead)
  }
  root.routes.push({ context, options: opts, method: String(opts.method), url: finalUrl, route })

  // A GET route also answers HEAD (exposeHeadRoutes), as a route of its own that onRoute hooks
  // see, unless a HEAD route of the application already answers it (an unconstrained HEAD route
  // answers requests of any constraint value, as in Fastify 4.3).
  const exposeHead = opts.exposeHeadRoute ?? root.options.exposeHeadRoutes
  if (autoHead || opts.method !== 'GET') return
  const headAnswered = root.router.matches('HEAD', finalUrl, constraints)
  if (exposeHead && !headAnswered) {
    const onSend = headBase.onSend === undefined ? [headOnSend] : ([] as unknown[]).concat(headBase.onSend, headOnSend)
    register(context, { ...headBase, method: 'HEAD', onSend, exposeHeadRoute: false }, path, prefix, prefixing, true)
  } else if (headAnswered && opts.exposeHeadRoute === true) {
    // the route asked for a HEAD route that the application's own HEAD route already provides
    emitDeprecation('FSTDEP007')
  }
}

/** The last onSend hook of automatic HEAD routes: content-length of what GET would send, no body. */
function headOnSend (_request: unknown, reply: { header: (k: string, v: string) => unknown; log: { error: (...a: unknown[]) => void } }, payload: unknown, done: (err: Error | null, value: unknown) => void): void {
  if (payload === undefined || payload === null) {
    reply.header('content-length', '0')
    done(null, null)
    return
  }
  const stream = payload as { resume?: () => void; on?: (e: string, f: (err: Error) => void) => void }
  if (typeof stream.resume === 'function') {
    stream.on?.('error', (err) => reply.log.error({ err }, 'Error on Stream found for HEAD route'))
    stream.resume()
    done(null, null)
    return
  }
  reply.header('content-length', String(Buffer.byteLength(payload as string | Buffer)))
  done(null, null)
}

function createRouteContext (context: Context, opts: RouteOptions, url: string): RouteContext {
  return {
    root: context.root,
    genReqId: context.root.genReqId,
    childLoggerFactory: null,
    exposeHeadRoute: undefined,
    prefixTrailingSlash: undefined,
    server: context.instance,
    config: { ...(opts.config ?? {}), url, method: opts.method },
    schema: opts.schema,
    handler: opts.handler,
    errorHandler: context.errorHandler,
    hooks: context.hooks,
    bodyLimit: opts.bodyLimit,
    attachValidation: opts.attachValidation === true,
    validators: {},
    serializers: null,
    schemaErrorFormatter: null as never,
    replySerializer: context.replySerializer,
    Request: context.Request,
    Reply: context.Reply,
    parsers: context.parsers,
    logLevel: opts.logLevel,
    logSerializers: opts.logSerializers,
    is404: false,
    notFound: null,
    validates: false,
    schemaCompilers: null,
    [kRouteValidateFns]: null,
    [kRouteSerializeFns]: null
  }
}

/** Resolves everything a route needs, once, at ready(). */
export function buildRoute (record: RouteRecord): void {
  const { context, options: opts, route } = record
  const hooks = {} as Record<RequestHookName, AnyHook[]>
  for (const name of requestHookNames) {
    const own = opts[name] as AnyHook | AnyHook[] | undefined
    hooks[name] = own === undefined ? context.hooks[name].slice() : context.hooks[name].concat(own)
  }
  route.hooks = hooks
  route.genReqId = contextGenReqId(context)
  route.exposeHeadRoute = opts.exposeHeadRoute
  route.prefixTrailingSlash = opts.prefixTrailingSlash
  route.childLoggerFactory = typeof opts.childLoggerFactory === 'function' ? opts.childLoggerFactory as RouteContext['childLoggerFactory'] : contextChildLoggerFactory(context)
  route.errorHandler = opts.errorHandler !== undefined ? buildErrorHandler(context.errorHandler, opts.errorHandler, context.instance) : context.errorHandler
  route.replySerializer = context.replySerializer
  route.parsers = context.parsers
  route.Request = nearestDecorated(context.Request)
  route.Reply = nearestDecorated(context.Reply)
  route.notFound = context.root.notFoundFor(record.url)
  compileRouteSchemas(context, route, opts, record.method, record.url)
}

/** Skips empty per-context subclasses so undecorated contexts share one hidden class. */
export function nearestDecorated<T extends RequestClass | ReplyClass> (cls: T): T {
  let current = cls
  while (!current.decorated) {
    const parent = Object.getPrototypeOf(current) as T
    if (parent === null || typeof parent !== 'function' || !('decorated' in parent)) break
    current = parent
  }
  resolveInstanceFields(current as unknown as FieldCarrier)
  return current
}
