/**
 * The public methods of a trellis instance (a context). The root is `new TrellisInstance`; each
 * plugin context is `Object.create(parentInstance)`, so instance decorators inherit downwards.
 * Methods here only check arguments and delegate to the module that owns the concern.
 * The public, typed view of this class is the `TrellisInstance` interface of src/types/instance.ts
 * (the factory returns that type); the signatures here are the run-time ones.
 */
import { isWorkerTarget, WorkerUnavailableError } from '../base/worker-target'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { errorCodes } from '../base/errors'
import { nextTurn } from '../base/next-turn'
import { contextOf, type PluginContext } from '../context/plugin-context'
import { kContext } from '../context/symbols'
import { checkHook, type AnyHook } from '../lifecycle/hooks'
import { decorate, hasDecorator } from '../context/decorators'
import { enqueueAfter, enqueuePlugin, loadForClose, loadQueued, onTreeLoaded, ready as bootReady, runOnClose, runOnListen, hasOnListen, runPreClose } from '../context/boot'
import { shorthandOptions, type RouteOptions } from '../routing/route-options'
import { addRoute } from '../context/route-builder'
import { buildErrorHandler, type ErrorHandlerFn } from '../lifecycle/error-handling'
import { closeIdleWhileClosing } from '../server/closing'
import { noteBridgedCaller } from '../context/fastify4-bridge'
import { beginClose, closeServer, assertCanListen, listen as listenServer, parseListenArgs, formatAddress } from '../server/listen'
import { defaultChildLoggerFactory, type ChildLoggerFactory, type Logger } from '../server/logger'
import { getDefaultJsonParser, defaultTextParser, type ContentTypeParserFn, type ParserOptions } from '../lifecycle/content-type-parsers'
import { fastifyVersionOf } from '../base/version'
import { lightMyRequest } from './inject'
import { emitDeprecation } from '../base/warnings'
import { assertSchemaErrorFormatter } from '../schema/validation/error-formatter'
import type { Dispatch } from '../transport/contract'
import type { AppState } from '../context/app-state'
import { defaultValidatorCompiler, defaultSerializerCompiler, contextValidatorCompiler, contextSerializerCompiler } from '../context/schema-compilers'

// the fetch transport is loaded on the first app.fetch(): a server that only listens never loads it
let fetchTransport: typeof import('../transport/fetch') | undefined
function transport (): typeof import('../transport/fetch') {
  return (fetchTransport ??= require('../transport/fetch') as typeof import('../transport/fetch'))
}

function nodeHttpPlugins (): typeof import('../transport/node-http-plugins') {
  return require('../transport/node-http-plugins') as typeof import('../transport/node-http-plugins')
}

/** Why `what` (a fetch exchange) cannot serve the application: a plugin that needs node:http's objects, or null. */
function fetchRefusal (app: AppState, what: string): Error | null {
  const { nodeHttpPlugin, FetchUnavailableError } = nodeHttpPlugins()
  const plugin = nodeHttpPlugin(app.loadedPluginNames)
  return plugin === null ? null : new FetchUnavailableError(what, plugin)
}

// listen() on Bun and Deno (their own servers): loaded there only, so Node never loads src/transport/ to listen
const onBunOrDeno = typeof (globalThis as { Bun?: { serve?: unknown } }).Bun?.serve === 'function' ||
  typeof (globalThis as { Deno?: { serve?: unknown } }).Deno?.serve === 'function'
let runtimeServerModule: typeof import('../transport/runtime-server') | undefined
function runtimeServer (): typeof import('../transport/runtime-server') {
  return (runtimeServerModule ??= require('../transport/runtime-server') as typeof import('../transport/runtime-server'))
}

type Callback = (err: Error | null, ...rest: any[]) => void

function ctx (instance: unknown): PluginContext { return contextOf(instance) }

/** In a Fastify 5 application with bridged plugins: the code calling now may be a bridged plugin's, loading (fastify4-bridge.ts). */
function noteCaller (instance: unknown): void {
  const app = ctx(instance).app
  if (app.bridgedPlugins.length > 0) noteBridgedCaller(app)
}

/** Fastify 4.29: FST_ERR_CTP_INSTANCE_ALREADY_STARTED for the parser registry, FST_ERR_INSTANCE_ALREADY_LISTENING otherwise. */
function assertNotBooted (instance: unknown, what: string): void {
  if (!ctx(instance).app.booted) return
  if (what.includes('ContentTypeParser')) throw new errorCodes.FST_ERR_CTP_INSTANCE_ALREADY_STARTED(what)
  throw new errorCodes.FST_ERR_INSTANCE_ALREADY_LISTENING(`Cannot call "${what}"!`)
}

export class TrellisInstance {
  declare [kContext]: PluginContext

  // ---------------------------------------------------------------- state
  get server (): import('node:http').Server { return ctx(this).app.server as import('node:http').Server }
  get log (): Logger { return ctx(this).log }
  set log (logger: Logger) { ctx(this).log = logger }
  get prefix (): string { return ctx(this).prefix }
  /** 'fastify' for the root, else the plugin's name; wrapped plugins loaded here are appended: 'fastify -> db'. */
  get pluginName (): string { return ctx(this).pluginNames.join(' -> ') }
  get version (): string { return fastifyVersionOf(ctx(this).app.options.line) }
  get initialConfig (): Readonly<Record<string, unknown>> { return ctx(this).app.initialConfig }
  get errorHandler (): ErrorHandlerFn | null { return ctx(this).errorHandler.fn }
  get validatorCompiler (): unknown { return contextValidatorCompiler(ctx(this)) }
  get serializerCompiler (): unknown { return contextSerializerCompiler(ctx(this)) }

  // ---------------------------------------------------------------- plugins
  register (plugin: unknown, opts?: unknown): this & PromiseLike<this> {
    noteCaller(this)
    enqueuePlugin(ctx(this).app, this, plugin, opts)
    // thenable at run time while loading (see the `then` defined after the class)
    return this as this & PromiseLike<this>
  }

  /**
   * Whether a plugin with this name was loaded into this very context (its plugin name chain), or
   * (Fastify 4.29) registered by name (metadata) here or in an ancestor, also after this context began.
   */
  hasPlugin (name: string): boolean {
    const context = ctx(this)
    if (context.pluginNames.includes(name)) return true
    for (let c: typeof context | null = context; c !== null; c = c.parent) if (c.registeredPlugins.includes(name)) return true
    return false
  }

  after (fn?: (...args: any[]) => unknown): any {
    const app = ctx(this).app
    if (fn === undefined) return loadQueued(app).then(() => this)
    if (typeof fn !== 'function') throw new errorCodes.FST_ERR_PLUGIN_CALLBACK_NOT_FN('after: callback must be a function')
    enqueueAfter(app, this, fn)
    return this
  }

  ready (cb?: Callback): any {
    const app = ctx(this).app
    if (typeof cb === 'function' && !app.booted && app.stack.length > 0) {
      // called from a plugin while the tree loads: called back once it has loaded, before onReady hooks
      onTreeLoaded(app, (err) => cb.call(this, err, this))
      bootReady(app)
      return undefined
    }
    const ready = bootReady(app).then(() => this)
    if (typeof cb === 'function') {
      // called back from the same depth of promise the `ready()` form resolves at, so that mixed
      // ready(cb) / ready().then() calls settle in call order (Fastify 4.29)
      ready.then(() => cb.call(this, null, this), (err: Error) => cb.call(this, err))
      return undefined
    }
    return ready
  }

  // ---------------------------------------------------------------- decorators
  decorate (name: string | symbol, value: unknown, dependencies?: string[]): this {
    noteCaller(this)
    decorate(ctx(this), 'instance', name, value, dependencies)
    return this
  }

  decorateRequest (name: string | symbol, value: unknown, dependencies?: string[]): this {
    noteCaller(this)
    decorate(ctx(this), 'request', name, value, dependencies)
    return this
  }

  decorateReply (name: string | symbol, value: unknown, dependencies?: string[]): this {
    noteCaller(this)
    decorate(ctx(this), 'reply', name, value, dependencies)
    return this
  }

  hasDecorator (name: string | symbol): boolean { return hasDecorator(ctx(this), 'instance', name) }
  hasRequestDecorator (name: string | symbol): boolean { return hasDecorator(ctx(this), 'request', name) }
  hasReplyDecorator (name: string | symbol): boolean { return hasDecorator(ctx(this), 'reply', name) }

  // ---------------------------------------------------------------- hooks
  /** Fastify/avvio's `onClose(fn)`: the same as `addHook('onClose', fn)`, `fn(instance, done)`. */
  onClose (fn: (instance: this, done: (err?: Error) => void) => unknown): this {
    return this.addHook('onClose', fn as AnyHook)
  }

  /** Any unknown name fails at run time with FST_ERR_HOOK_NOT_SUPPORTED. */
  addHook (name: string, fn: AnyHook): this {
    noteCaller(this)
    checkHook(name, fn)
    const context = ctx(this)
    if (name === 'onClose') { context.onClose.push(fn); return this }
    if (name === 'onListen' || name === 'preClose') { context[name].push(fn); return this }
    if (name === 'onReady') {
      if (context.app.isReady) throw new errorCodes.FST_ERR_HOOK_AFTER_START(name)
      context.onReady.push(fn)
      return this
    }
    if (context.app.booted) throw new errorCodes.FST_ERR_HOOK_AFTER_START(name)
    if (name === 'onRoute') { context.onRoute.push(fn); return this }
    // Like Fastify: added where addHook was called in the plugin queue, then to this context and its loaded descendants.
    enqueueAfter(context.app, this, () => { context.addTreeHook(name, fn) })
    return this
  }

  // ---------------------------------------------------------------- routes
  route (options: object): this {
    noteCaller(this)
    if (options === null || typeof options !== 'object') throw new TypeError('route options must be an object')
    addRoute(ctx(this), options as unknown as RouteOptions)
    return this
  }

  get (path: string, optsOrHandler: object, handler?: unknown): this { return this.shorthand('GET', path, optsOrHandler, handler) }
  head (path: string, optsOrHandler: object, handler?: unknown): this { return this.shorthand('HEAD', path, optsOrHandler, handler) }
  post (path: string, optsOrHandler: object, handler?: unknown): this { return this.shorthand('POST', path, optsOrHandler, handler) }
  put (path: string, optsOrHandler: object, handler?: unknown): this { return this.shorthand('PUT', path, optsOrHandler, handler) }
  delete (path: string, optsOrHandler: object, handler?: unknown): this { return this.shorthand('DELETE', path, optsOrHandler, handler) }
  options (path: string, optsOrHandler: object, handler?: unknown): this { return this.shorthand('OPTIONS', path, optsOrHandler, handler) }
  patch (path: string, optsOrHandler: object, handler?: unknown): this { return this.shorthand('PATCH', path, optsOrHandler, handler) }
  all (path: string, optsOrHandler: object, handler?: unknown): this { return this.shorthand(ctx(this).app.dispatcher.methods.list(), path, optsOrHandler, handler) }

  private shorthand (method: string | string[], path: string, opts: unknown, handler: unknown): this {
    noteCaller(this)
    addRoute(ctx(this), shorthandOptions(method, path, opts, handler))
    return this
  }

  /** Fastify 4.29: whether `findRoute` finds a route for this method and URL (a URL matching a parametric or regexp route counts). */
  hasRoute (options: { url: string; method: string; constraints?: Record<string, unknown> }): boolean {
    const method = typeof options?.method === 'string' ? options.method.toUpperCase() : ''
    if (method === '') return false
    return ctx(this).app.router.find(method, options.url || '', options.constraints) !== null
  }

  /** Fastify 4.29: the route a method and URL pattern lead to, `{ handler, params, searchParams }`, or null. */
  findRoute (options: { method: string, url: string, constraints?: Record<string, unknown> }): { handler: unknown, params: Record<string, string | undefined>, searchParams: Record<string, string> } | null {
    const found = ctx(this).app.router.find(String(options.method).toUpperCase(), options.url || '', options.constraints)
    if (found === null) return null
    // a fresh object each time: callers cannot change the route through it
    return { handler: found.store.handler, params: { ...found.params }, searchParams: { ...found.searchParams } }
  }

  /** The (req, res) function answering requests that match no route; by default the 404 routes. */
  getDefaultRoute (): (req: IncomingMessage, res: ServerResponse) => void {
    emitDeprecation('FSTDEP014')
    return ctx(this).app.router.defaultRoute
  }

  setDefaultRoute (defaultRoute: (req: IncomingMessage, res: ServerResponse) => void): this {
    emitDeprecation('FSTDEP014')
    if (typeof defaultRoute !== 'function') throw new errorCodes.FST_ERR_DEFAULT_ROUTE_INVALID_TYPE()
    ctx(this).app.router.defaultRoute = defaultRoute
    return this
  }

  addConstraintStrategy (strategy: Record<string, unknown>): this {
    const app = ctx(this).app
    if (app.booted) throw new errorCodes.FST_ERR_INSTANCE_ALREADY_LISTENING('Cannot add constraint strategy!')
    app.router.addConstraintStrategy(strategy)
    return this
  }

  hasConstraintStrategy (name: string): boolean { return ctx(this).app.router.hasConstraintStrategy(name) }

  printRoutes (opts?: Record<string, unknown>): string {
    return ctx(this).app.router.prettyPrint(opts)
  }

  printPlugins (): string {
    const lines: string[] = []
    const walk = (context: PluginContext, depth: number): void => {
      lines.push(`${depth === 0 ? '' : '  '.repeat(depth - 1) + '└── '}${context.name}`)
      for (const child of context.children) walk(child, depth + 1)
    }
    walk(ctx(this).app.rootContext, 0)
    return lines.join('\n') + '\n'
  }

  // ---------------------------------------------------------------- request ids and request loggers
  /** Fastify 4.29: this context's request-id generator (inherited by its children and routes). */
  setGenReqId (fn: (this: TrellisInstance, req: IncomingMessage) => string): this {
    assertNotBooted(this, 'setGenReqId')
    if (typeof fn !== 'function') throw new TypeError('setGenReqId expects a function')
    ctx(this).setGenReqId(fn)
    return this
  }

  get genReqId (): (req: IncomingMessage) => string { return ctx(this).genReqId() }

  /** Fastify 4.29: `(logger, bindings, opts, rawReq) => childLogger` for this context's requests. */
  setChildLoggerFactory (factory: ChildLoggerFactory): this {
    assertNotBooted(this, 'setChildLoggerFactory')
    if (typeof factory !== 'function') throw new TypeError('setChildLoggerFactory expects a function')
    ctx(this).ownChildLoggerFactory = factory
    return this
  }

  get childLoggerFactory (): ChildLoggerFactory { return ctx(this).childLoggerFactory() ?? defaultChildLoggerFactory }

  // ---------------------------------------------------------------- schemas
  addSchema (schema: unknown): this {
    ctx(this).schemas.add(schema)
    return this
  }

  getSchemas (): Record<string, unknown> { return ctx(this).schemas.raw() as Record<string, unknown> }
  getSchema (id: string): unknown { return ctx(this).schemas.get(id) }

  setValidatorCompiler (compiler: (...args: any[]) => any): this {
    assertNotBooted(this, 'setValidatorCompiler')
    ctx(this).validatorCompiler = compiler as never
    return this
  }

  setSerializerCompiler (compiler: (...args: any[]) => any): this {
    assertNotBooted(this, 'setSerializerCompiler')
    ctx(this).serializerCompiler = compiler as never
    return this
  }

  /** Fastify 4.3's type-provider hook: a type-level change only, so at run time the same instance. */
  withTypeProvider (): this { return this }

  setSchemaController (controller: Record<string, unknown>): this {
    assertNotBooted(this, 'setSchemaController')
    const context = ctx(this)
    // Fastify 4.3 merges the new options over the inherited ones; a compiler factory the new
    // options leave out is the inherited one (4.3 asks the parent controller for its builder)
    const inherited = (context.schemaController ?? {}) as Record<string, unknown>
    const merged = { ...inherited, ...controller } as NonNullable<typeof context.schemaController>
    const ownFactory = controller.compilersFactory as Record<string, unknown> | undefined
    const parentFactory = inherited.compilersFactory as Record<string, unknown> | undefined
    if (ownFactory !== undefined && ownFactory !== null && parentFactory !== undefined && parentFactory !== null) {
      const factory: Record<string, unknown> = { ...parentFactory }
      for (const [key, value] of Object.entries(ownFactory)) if (value !== undefined && value !== null) factory[key] = value
      ;(merged as Record<string, unknown>).compilersFactory = factory
    }
    context.schemaController = merged
    if (controller.bucket !== undefined) context.schemas.useBucket(controller.bucket as never)
    return this
  }

  setSchemaErrorFormatter (formatter: (errors: unknown[], dataVar: string) => Error): this {
    assertSchemaErrorFormatter(formatter)
    assertNotBooted(this, 'setSchemaErrorFormatter')
    ctx(this).schemaErrorFormatter = formatter.bind(this)
    return this
  }

  setReplySerializer (serializer: (payload: unknown, statusCode: number) => string): this {
    if (typeof serializer !== 'function') throw new TypeError('The reply serializer must be a function')
    ctx(this).replySerializer = serializer
    return this
  }

  /** The compiler the default validation would use in this context (for plugins that compile schemas themselves). */
  getValidatorCompiler (): unknown { return defaultValidatorCompiler(ctx(this)) }
  getSerializerCompiler (): unknown { return defaultSerializerCompiler(ctx(this)) }

  // ---------------------------------------------------------------- handlers
  setErrorHandler (handler: ErrorHandlerFn): this {
    noteCaller(this)
    if (typeof handler !== 'function') throw new errorCodes.FST_ERR_ERROR_HANDLER_NOT_FN()
    assertNotBooted(this, 'setErrorHandler')
    const context = ctx(this)
    // bound to the instance, as Fastify does (instance.errorHandler.name is 'bound <name>')
    context.errorHandler = buildErrorHandler(context.errorHandler, handler.bind(this), this)
    return this
  }

  setNotFoundHandler (opts?: unknown, handler?: unknown): this {
    noteCaller(this)
    assertNotBooted(this, 'setNotFoundHandler')
    let options = (opts ?? {}) as Record<string, unknown>
    let fn = handler
    if (typeof opts === 'function') { fn = opts; options = {} }
    const context = ctx(this)
    // one custom 404 handler per prefix level: the nearest context that introduced a prefix (or the
    // root) holds the lock, so siblings and parents of the same level cannot set a second one
    let level = context
    while (level.parent !== null && level.prefix === level.parent.prefix) level = level.parent
    if (level.notFoundLocked) throw new Error(`Not found handler already set for Fastify instance with prefix: '${context.prefix === '' ? '/' : context.prefix}'`)
    if (fn !== undefined) level.notFoundLocked = true
    const asArray = (v: unknown): AnyHook[] | undefined => v === undefined ? undefined : (Array.isArray(v) ? v : [v]) as AnyHook[]
    context.notFound = {
      handler: (fn ?? (undefined as never)) as (...args: any[]) => unknown,
      hooks: { preValidation: asArray(options.preValidation), preHandler: asArray(options.preHandler) },
      errorHandler: typeof options.errorHandler === 'function' ? (options.errorHandler as ErrorHandlerFn).bind(this) : undefined
    }
    if (fn === undefined) context.notFound = { ...context.notFound, handler: undefined as never }
    context.ownNotFound = true
    return this
  }

  // ---------------------------------------------------------------- content types
  addContentTypeParser (contentType: string | RegExp | Array<string | RegExp>, opts: ParserOptions | ContentTypeParserFn, parser?: ContentTypeParserFn): this {
    noteCaller(this)
    assertNotBooted(this, 'addContentTypeParser')
    if (typeof opts === 'function') { parser = opts; opts = {} }
    ctx(this).parsers.add(contentType, opts, parser as ContentTypeParserFn)
    return this
  }

  hasContentTypeParser (contentType: string | RegExp): boolean { return ctx(this).parsers.has(contentType) }
  removeContentTypeParser (contentType: string | RegExp | Array<string | RegExp>): this {
    assertNotBooted(this, 'removeContentTypeParser')
    ctx(this).parsers.remove(contentType)
    return this
  }

  removeAllContentTypeParsers (): this {
    assertNotBooted(this, 'removeAllContentTypeParsers')
    ctx(this).parsers.removeAll()
    return this
  }

  getDefaultJsonParser (onProtoPoisoning: 'error' | 'remove' | 'ignore', onConstructorPoisoning: 'error' | 'remove' | 'ignore'): ContentTypeParserFn {
    return getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning, ctx(this).app.options.jsonDepthLimit, ctx(this).app.options.line)
  }

  get defaultTextParser (): ContentTypeParserFn { return defaultTextParser }

  // ---------------------------------------------------------------- running
  /** The node:http request listener (for custom servers). */
  get routing (): (req: IncomingMessage, res: ServerResponse) => void {
    const app = ctx(this).app
    return (req, res) => app.router.lookup(req, res)
  }

  inject (opts?: unknown, cb?: (err: Error | null, res?: unknown) => void): any {
    const app = ctx(this).app
    const dispatch = (req: IncomingMessage, res: ServerResponse): void => {
      bootReady(app).then(() => app.dispatcher.dispatch(req, res), (err: Error) => res.emit('error', err))
    }
    // closing or closed: refused at once (Fastify 4.3's message, trellis's code)
    if (app.closed || (app.closing && app.booted)) {
      const error = new errorCodes.FST_ERR_REOPENED_CLOSE_SERVER()
      error.message = 'Server is closed'
      if (typeof cb === 'function') { cb(error); return undefined }
      return Promise.reject(error)
    }
    // once ready, inject dispatches synchronously: invalid options throw to the caller (as in Fastify)
    const line = app.options.line
    const dispatchReady = (req: IncomingMessage, res: ServerResponse): void => app.dispatcher.dispatch(req, res)
    if (app.isReady && !app.closing) return lightMyRequest(line, dispatchReady, opts, cb)
    if (typeof cb === 'function') {
      bootReady(app).then(() => lightMyRequest(line, dispatchReady, opts, cb), (err: Error) => cb(err))
      return undefined
    }
    return lightMyRequest(line, dispatch, opts)
  }

  /**
   * The application as a fetch handler: `(Request, ...context) => Promise<Response>`
   * (transport/fetch.ts). The first call readies the application; a closed one refuses.
   */
  fetch (request: Request, ...context: unknown[]): Promise<Response> {
    const app = ctx(this).app
    const { isFetchRequest, serveFetch } = transport()
    if (!isFetchRequest(request)) return Promise.reject(new TypeError('app.fetch() takes a fetch Request'))
    if (app.closed) {
      const error = new errorCodes.FST_ERR_REOPENED_CLOSE_SERVER()
      error.message = 'Server is closed'
      return Promise.reject(error)
    }
    if (app.isReady && app.fetchRefusal === null) return serveFetch(app.dispatcher.dispatch as unknown as Dispatch, request, context)
    return bootReady(app).then(() => {
      const refusal = app.fetchRefusal ??= fetchRefusal(app, 'app.fetch()')
      if (refusal !== null) throw refusal
      return serveFetch(app.dispatcher.dispatch as unknown as Dispatch, request, context)
    })
  }

  listen (...args: unknown[]): any {
    if (isWorkerTarget()) throw new WorkerUnavailableError('listen()', 'a Worker is served by its fetch handler (export default { fetch }), which trellis build --target worker writes')
    // FSTDEP011 (Fastify 4.29): listen(port, host, ...) and listen(options, port, ..., cb) are deprecated
    const firstIsOptions = args.length > 0 && (typeof args[0] === 'function' || (args[0] !== null && typeof args[0] === 'object'))
    if ((args.length > 0 && !firstIsOptions) || (firstIsOptions && args.length > 2)) emitDeprecation('FSTDEP011')
    const { options, callback } = parseListenArgs(args)
    const signal = options.signal as (AbortSignal & { on?: unknown }) | undefined
    const app = ctx(this).app
    // Fastify 5: aborted before the server binds, listen() closes the instance and settles with
    // undefined (its callback is not called); Fastify 4.29 goes on and fails on the closed instance
    const abortSkipsListen = app.options.line === 5
    if (signal !== undefined && signal !== null) {
      // Fastify 4.29: an abort signal closes the instance
      if (typeof signal.on !== 'function' && typeof signal.addEventListener !== 'function') throw new errorCodes.FST_ERR_LISTEN_OPTIONS_INVALID('Invalid options.signal')
      if (signal.aborted) {
        const closing = this.close()
        if (abortSkipsListen) return callback !== undefined ? undefined : closing.then(() => undefined)
      } else signal.addEventListener('abort', () => { this.close() }, { once: true })
    }
    // close() called while this listen waits for the application: the server never binds, and a
    // callback is never called (Fastify 4 and 5); the promise form rejects
    const closingAtCall = app.closing || app.closed
    const promise = (async () => {
      assertCanListen(app.listening, app.closed)
      await bootReady(app)
      // the server binds a turn after the application is ready (as Fastify's): what the plugins
      // scheduled for the next turn runs before listen() settles
      await nextTurn()
      if (abortSkipsListen && signal?.aborted === true) return undefined
      if (!closingAtCall && callback !== undefined && (app.closing || app.closed)) return undefined
      assertCanListen(app.listening, app.closed || app.closing)
      app.listening = true
      try {
        const server = app.server as import('node:http').Server
        if (onBunOrDeno) {
          // on Bun and Deno: their own server, or their node:http (runtimeServer; one log line says which)
          const { chooseServer, currentRuntime, listenNative, SERVER_NAME } = runtimeServer()
          const { nodeHttpPlugin, FetchUnavailableError } = nodeHttpPlugins()
          const runtime = currentRuntime() as 'bun' | 'deno'
          const plugin = nodeHttpPlugin(app.loadedPluginNames)
          const choice = chooseServer(runtime, app.options, options, server, plugin)
          if (choice.line !== '') app.log.info(choice.line)
          if (choice.native) {
            if (plugin !== null) throw new FetchUnavailableError(`${SERVER_NAME[runtime]} (runtimeServer: 'native')`, plugin)
            const dispatch = app.dispatcher.dispatch as unknown as Dispatch
            const { serveNative } = transport()
            return await listenNative(runtime, server, (request, info) => serveNative(dispatch, request, info), options, app.log)
          }
        }
        return await listenServer(server, options, app.options.https !== null, app.log)
      } catch (err) {
        app.listening = false
        throw err
      }
    })()
    // onListen hooks run after the caller learns the address (Fastify 4.29), never holding it up
    const rootContext = app.rootContext
    if (callback !== undefined) {
      promise.then((address) => {
        if (address === undefined) return
        callback(null, address)
        if (hasOnListen(rootContext)) runOnListen(rootContext)
      }, (err: Error) => callback(err, null))
      return undefined
    }
    return promise.then((address) => { if (address !== undefined && hasOnListen(rootContext)) runOnListen(rootContext); return address })
  }

  /**
   * The bound address. For a Unix socket / named pipe the entry is the path string (as Fastify
   * 4.3 at runtime); typed as Fastify's declaration (AddressInfo[]) so typed code stays compatible.
   */
  addresses (): Array<import('node:net').AddressInfo> {
    const server = ctx(this).app.server
    const address = server?.address()
    if (address === null || address === undefined) return []
    return [address as import('node:net').AddressInfo]
  }

  close (cb?: Callback): any {
    const app = ctx(this).app
    const promise = (async () => {
      if (app.closed) return
      app.closing = true
      const native = runtimeServerModule !== undefined && runtimeServerModule.servesNatively(app.server)
      if (app.listening && app.server !== null && !native) beginClose(app.server, app.options.forceCloseConnections)
      const stopClosingIdle = closeIdleWhileClosing(app.server, app.options.forceCloseConnections)
      try {
        await loadForClose(app)
        await runPreClose(app)
        if (app.listening && app.server !== null) {
          if (native) await runtimeServer().closeNative(app.server, app.options.forceCloseConnections)
          else await closeServer(app.server, app.options.forceCloseConnections)
        }
      } finally {
        stopClosingIdle()
      }
      app.listening = false
      try {
        await runOnClose(app)
      } finally {
        app.closed = true
      }
    })()
    if (typeof cb === 'function') {
      promise.then(() => cb.call(this, null), (err: Error) => cb.call(this, err))
      return undefined
    }
    return promise
  }

  /** `await using app = trellis()` closes it. */
  [Symbol.asyncDispose] (): Promise<void> { return this.close() }

  get listeningOrigin (): string {
    const server = ctx(this).app.server
    return server === null ? '' : formatAddress(server.address(), ctx(this).app.options.https !== null)
  }
}

/**
 * Fastify 4.29 defines `errorHandler` and `childLoggerFactory` as getters of the instance object
 * itself, without a setter: the root instance gets the same own accessors (child instances inherit them).
 */
export function defineOwnAccessors (instance: TrellisInstance): void {
  for (const name of ['errorHandler', 'childLoggerFactory']) {
    const descriptor = Object.getOwnPropertyDescriptor(TrellisInstance.prototype, name)
    if (descriptor?.get !== undefined) Object.defineProperty(instance, name, { configurable: true, enumerable: false, get: descriptor.get })
  }
}

/**
 * `await instance` (typically `await app.register(plugin)`) loads what is queued so far, with
 * Fastify/avvio semantics; once the tree has booted the instance is no longer thenable. Defined at
 * run time, not in the class, so TypeScript does not see a recursive `then` on every instance: the
 * methods that may be awaited (`register`) are typed `this & PromiseLike<this>` instead.
 */
Object.defineProperty(TrellisInstance.prototype, 'then', {
  configurable: true,
  enumerable: false,
  get (this: TrellisInstance) {
    const app = ctx(this).app
    if (app.booted) return undefined
    if (app.thenGuard) { app.thenGuard = false; return undefined }
    return (resolve: (value: unknown) => void, reject: (err: unknown) => void) => {
      loadQueued(app).then(() => { app.thenGuard = true; resolve(this) }, reject)
    }
  }
})

/**
 * The methods Fastify 4.29 lets a caller take off their instance (`t.teardown(app.close)`, `const {
 * inject } = app`, `register` or `getSchema` inside a plugin): each is read through an accessor that
 * returns it bound to the instance it was read from (made once per instance), so a method taken from
 * a plugin's instance acts on that plugin's context. The others need their instance, as in Fastify.
 * Assigning one (`app.inject = ...`) gives that instance its own value. Nothing on the request path
 * reads these.
 */
const DETACHABLE = [
  'register', 'after', 'ready', 'onClose', 'close', 'inject', 'fetch', 'hasRoute', 'findRoute', 'getDefaultRoute',
  'setDefaultRoute', 'addConstraintStrategy', 'hasConstraintStrategy', 'printRoutes', 'printPlugins',
  'getSchema', 'getSchemas', 'getDefaultJsonParser'
] as const
const kBound = Symbol('trellis.bound-methods')
type Bindable = Record<string | symbol, unknown> & { [kBound]?: Record<string, unknown> }

/** Makes `names` of `proto` read as methods bound to the instance they are read from (see above). */
export function bindOnRead (proto: object, names: readonly string[]): void {
  for (const name of names) bindMethodOnRead(proto as Record<string, unknown>, name)
}

function bindMethodOnRead (proto: Record<string, unknown>, name: string): void {
  const method = proto[name] as (...args: unknown[]) => unknown
  Object.defineProperty(proto, name, {
    configurable: true,
    enumerable: false,
    get (this: Bindable) {
      if (!(kContext in this)) return method
      let bound = Object.prototype.hasOwnProperty.call(this, kBound) ? this[kBound] : undefined
      if (bound === undefined) {
        bound = Object.create(null) as Record<string, unknown>
        Object.defineProperty(this, kBound, { value: bound })
      }
      return (bound[name] ??= method.bind(this))
    },
    set (this: object, value: unknown) {
      Object.defineProperty(this, name, { value, writable: true, configurable: true, enumerable: true })
    }
  })
}

bindOnRead(TrellisInstance.prototype, DETACHABLE)
