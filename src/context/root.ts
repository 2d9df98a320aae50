/**
 * State shared by the whole tree: options, router, logger, the plugin loader's stack, lifecycle
 * flags, the routes waiting to be built, and the server.
 */
import { METHODS, type IncomingMessage, type ServerResponse, type Server } from 'node:http'
import { compileTrust, type TrustFn } from '../server/proxy'
import { parse as parseQuery } from 'node:querystring'
import type { Context } from './context'
import { PluginNode } from './plugins'
import type { ResolvedOptions } from '../options'
import { createRouter, type Router } from '../routing/router'
import type { RouteRecord } from '../routing/routes'
import type { RouteContext } from '../routing/route-context'
import { findNotFound, findNotFoundEntry, type NotFoundEntry } from '../routing/not-found'
import { answerPlainNotFound } from '../lifecycle/plain-not-found'
import { handleRequest, preHandler } from '../lifecycle/handle-request'
import type { ReplyBase } from '../lifecycle/reply'
import { isSilentLogger, missingDefaultSerializers, type Logger } from '../server/logger'
import { errorCodes } from '../errors'
import { withPreRouting, type Dispatch } from '../server/pre-routing'
import { keepConnectionFor } from '../server/listen'

const KNOWN_METHODS = new Set(METHODS)

export class RootState {
  rootContext!: Context
  readonly rootNode: PluginNode
  readonly stack: PluginNode[] = []
  /** The plugin tree has loaded (ready() passed its loading phase): no more routes, hooks, decorators. */
  booted = false
  /** onReady hooks ran. */
  isReady = false
  /** ready(cb) callbacks given while the tree was loading (from a plugin): called once it has loaded, before onReady hooks. */
  readyWhileLoading: Array<(err: Error | null) => void> = []
  readyPromise: Promise<void> | null = null
  listening = false
  closing = false
  closed = false
  thenGuard = false
  readonly routes: RouteRecord[] = []
  /** "instance:db" -> the context chains that defined it (for error messages). */
  readonly decoratorOrigins = new Map<string, string[]>()
  initialConfig: Readonly<Record<string, unknown>> = Object.freeze({})
  notFoundRoutes: NotFoundEntry[] = []
  readonly router: Router
  /** A raw request's entry (server listener and inject): version check, rewriteUrl, then the router. */
  readonly dispatch: Dispatch
  server: Server | null = null
  readonly trustProxy: TrustFn | null
  readonly disableRequestLogging: boolean
  /** The root logger is trellis's silent logger (no per-request child needed). */
  readonly silentLog: boolean
  readonly genReqId: (req: IncomingMessage) => string
  /** Default serializers an application-provided pino logger lacks (see missingDefaultSerializers). */
  readonly serializerFill: Record<string, (value: any) => unknown> | undefined
  readonly routeHandler: (req: IncomingMessage, res: ServerResponse, params: Record<string, string | undefined>, route: RouteContext, query: Record<string, unknown>) => void

  constructor (readonly options: ResolvedOptions, readonly log: Logger, owner: unknown) {
    this.rootNode = new PluginNode('root', null, {}, null, owner, 'root')
    this.rootNode.instance = owner
    this.rootNode.started = true
    this.trustProxy = compileTrust(options.trustProxy)
    this.silentLog = isSilentLogger(log)
    // with logging off (the default logger), request lines and per-request child loggers cost nothing
    this.disableRequestLogging = options.disableRequestLogging || isSilentLogger(log)
    this.genReqId = buildGenReqId(options)
    this.serializerFill = missingDefaultSerializers(log)
    this.routeHandler = (req, res, params, route, query) => {
      if (this.closing) {
        keepConnectionFor(res)
        if (options.return503OnClosing) { answerClosing(res); return }
      }
      handleRequest(route, req, res, params as Record<string, string>, query)
    }
    this.router = createRouter({
      ignoreTrailingSlash: options.ignoreTrailingSlash,
      ignoreDuplicateSlashes: options.ignoreDuplicateSlashes,
      caseSensitive: options.caseSensitive,
      maxParamLength: options.maxParamLength,
      allowUnsafeRegex: options.allowUnsafeRegex,
      useSemicolonDelimiter: options.useSemicolonDelimiter,
      constraints: options.constraints,
      querystringParser: options.querystringParser,
      onNotFound: (req, res) => {
        if (this.closing) {
          keepConnectionFor(res)
          if (options.return503OnClosing) { answerClosing(res); return }
        }
        if (!KNOWN_METHODS.has(req.method ?? '')) {
          // a method Node does not know (only HTTP/2 lets one through): no 404 route covers it;
          // Fastify's fallback answers a 404 'Not Found' (4.29: with the code FST_ERR_NOT_FOUND)
          const { reply } = this.bareRequest(req, res)
          reply.code(404).send(new errorCodes.FST_ERR_NOT_FOUND())
          return
        }
        const url = req.url ?? '/'
        const entry = findNotFoundEntry(this.notFoundRoutes, url)
        const q = url.indexOf('?')
        // an application's querystring parser still sees every request
        const query = q === -1 ? {} : (options.querystringParser ?? parseQuery)(url.slice(q + 1))
        if (entry.plain) { answerPlainNotFound(entry.route, req, res); return }
        handleRequest(entry.route, req, res, {}, query)
      },
      onBadUrl: (path, req, res) => {
        const { request, reply } = this.bareRequest(req, res)
        if (options.frameworkErrors !== undefined) { options.frameworkErrors(new errorCodes.FST_ERR_BAD_URL(path), request, reply); return }
        // Fastify 4.29's body has the code (4.3's had none)
        reply.code(400).send({ error: 'Bad Request', code: 'FST_ERR_BAD_URL', message: `'${path}' is not a valid url component`, statusCode: 400 })
      },
      onConstraintError: (req, res) => {
        if (options.frameworkErrors !== undefined) {
          const { request, reply } = this.bareRequest(req, res)
          options.frameworkErrors(new errorCodes.FST_ERR_ASYNC_CONSTRAINT(), request, reply)
          return
        }
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(ASYNC_CONSTRAINT_BODY.length) })
        res.end(ASYNC_CONSTRAINT_BODY)
      }
    })
    this.dispatch = withPreRouting(options, log, owner, (req, res) => this.router.lookup(req, res))
  }

  /** A request/reply on the root 404 route, for answers given before routing (bad URL, unknown method); logs 'incoming request'. */
  private bareRequest (req: IncomingMessage, res: ServerResponse): { request: InstanceType<RouteContext['Request']>, reply: InstanceType<RouteContext['Reply']> } {
    const route = this.notFoundFor('/')
    const id = this.genReqId(req)
    const log = this.requestLogger(id, undefined)
    const request = new route.Request(id, {}, req, {}, log, route)
    const reply = new route.Reply(res, request, log)
    if (!this.disableRequestLogging) log.info({ req: request }, 'incoming request')
    return { request, reply }
  }

  requestLogger (id: string, level: string | undefined, serializers?: Record<string, (value: any) => unknown>): Logger {
    if (this.silentLog && level === undefined) return this.log
    const bindings = { [this.options.requestIdLogLabel]: id }
    if (this.serializerFill !== undefined) serializers = { ...this.serializerFill, ...serializers }
    const child = (serializers === undefined ? this.log.child(bindings) : this.log.child(bindings, { serializers })) as Logger
    if (level !== undefined && child.level !== level) child.level = level
    return child
  }

  notFoundFor (url: string): RouteContext {
    return findNotFound(this.notFoundRoutes, url)
  }

  /** `reply.callNotFound()`: continue the request with the 404 route for its URL. */
  callNotFound (reply: ReplyBase): void {
    const current = reply.routeContext
    if (current.is404) {
      reply.log.warn('Trying to send a NotFound error inside a 404 handler. Sending basic 404 response.')
      reply.code(404).send('404 Not Found')
      return
    }
    const route = current.notFound ?? this.notFoundFor(reply.request.raw.url ?? '/')
    reply.request.routeContext = route
    reply.routeContext = route
    preHandler(reply.request, reply)
  }

  assertNotBooted (what: string): void {
    if (this.booted) throw new errorCodes.FST_ERR_DEC_AFTER_START(what)
  }
}

/** Fastify 4.29's answer when an asynchronous constraint strategy fails (no frameworkErrors option). */
const ASYNC_CONSTRAINT_BODY = JSON.stringify({ error: 'Internal Server Error', message: 'Unexpected error from async constraint', statusCode: 500 })

function answerClosing (res: ServerResponse): void {
  const body = JSON.stringify({ statusCode: 503, code: 'FST_ERR_SERVER_CLOSING', error: 'Service Unavailable', message: 'Service Unavailable' })
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) }
  // HTTP/2 has no connection header (node:http2 refuses it); its session closes on its own
  if ((res as unknown as { stream?: unknown }).stream === undefined) headers.connection = 'close'
  res.writeHead(503, headers)
  res.end(body)
}

function buildGenReqId (options: ResolvedOptions): (req: IncomingMessage) => string {
  const header = options.requestIdHeader
  const gen = options.genReqId
  if (header === false) return gen
  // node has built req.headers before the request listener runs (it reads `host` and `expect`
  // itself), so reading the header from it costs one property lookup
  return (req) => {
    const value = req.headers[header]
    return typeof value === 'string' && value !== '' ? value : gen(req)
  }
}
