/**
 * The request entry point: from the server's request listener (or `inject`) to the route's request
 * path. A raw request passes the pre-routing checks (HTTP version, Host and framing rules, rewriteUrl), the router finds its
 * route, and `routeHandler` starts lifecycle/handle-request.ts; what the router cannot take is
 * answered here (the 404 routes, a malformed URL, an unknown method, a failed constraint), as is
 * every request that arrives while the application closes. The Dispatcher is also the request
 * path's view of the application (`RequestEnv`): loggers, logging switches, proxy trust, 404 routes.
 */
import { METHODS, type IncomingMessage, type ServerResponse } from 'node:http'
import { parse as parseQuery } from 'node:querystring'
import { errorCodes } from '../base/errors'
import { errorCodesAddedInV5 } from '../base/errors-v5'
import type { ResolvedOptions } from '../base/option-types'
import type { FastifyLine } from '../base/version'
import { HttpMethods } from '../lifecycle/http-methods'
import { keepConnectionFor } from '../server/listen'
import { isSilentLogger, missingDefaultSerializers, type Logger } from '../server/logger'
import { withPreRouting } from '../server/pre-routing'
import type { FramingFault } from '../server/request-framing'
import { publishEarlyAnswer } from '../server/early-answer'
import { compileTrust, type TrustFn } from '../server/proxy'
import { LogController, LogControllerV4 } from '../server/log-controller'
import { handleRequest } from '../lifecycle/handle-request'
import { answerPlainNotFound } from '../lifecycle/plain-not-found'
import type { RequestBase } from '../lifecycle/request'
import type { ReplyBase } from '../lifecycle/reply'
import type { RequestEnv, RouteContext } from '../lifecycle/route-context'
import { endRouting, RequestTrace, tracingFlags } from '../lifecycle/tracing'
import { createRouter, type Router, type RouteHandler } from './router'
import { findNotFoundEntry, type NotFoundEntry } from './not-found'
import { withRequestIdHeader, type GenReqId } from './request-id'

const KNOWN_METHODS = new Set(METHODS)

export class Dispatcher implements RequestEnv {
  readonly log: Logger
  readonly silentLog: boolean
  readonly disableRequestLogging: boolean | ((request: any) => boolean)
  readonly logController: LogController
  readonly quietRequests: boolean
  readonly requestIdLogLabel: string
  readonly trustProxy: TrustFn | null
  readonly bodyLimit: number
  readonly line: FastifyLine
  readonly methods: HttpMethods
  /** The server-wide request-id generator (`genReqId` behind `requestIdHeader`). */
  readonly genReqId: GenReqId
  readonly router: Router
  /** The 404 routes, deepest prefix first (built at ready()). */
  notFoundRoutes: NotFoundEntry[] = []
  /** close() has begun: requests get `connection: close` (or a 503 with return503OnClosing). */
  closing = false
  /** A raw request's entry (server listener and inject): version check, rewriteUrl, then the router. */
  readonly dispatch: (req: IncomingMessage, res: ServerResponse) => void
  /** The router's handler of every route: the closing check, then the route's request path. */
  readonly routeHandler: RouteHandler
  /** Default serializers an application-provided pino logger lacks (see missingDefaultSerializers). */
  private readonly serializerFill: Record<string, (value: any) => unknown> | undefined
  /** The traced request the router is looking up (the lookup is synchronous), else null. */
  private pendingTrace: RequestTrace | null = null

  constructor (private readonly options: ResolvedOptions, log: Logger, private readonly owner: unknown) {
    this.log = log
    this.silentLog = isSilentLogger(log)
    this.disableRequestLogging = options.disableRequestLogging
    const given = options.logController as LogController | undefined
    const logOptions = { disableRequestLogging: options.disableRequestLogging, requestIdLogLabel: options.requestIdLogLabel }
    this.logController = given ?? (options.line === 5 ? new LogController(logOptions) : new LogControllerV4(logOptions))
    // with logging off (the default logger), request lines and per-request child loggers cost nothing
    this.quietRequests = this.silentLog || (given === undefined && options.disableRequestLogging === true)
    this.requestIdLogLabel = this.logController.requestIdLogLabel
    this.trustProxy = compileTrust(options.trustProxy, options.line)
    this.bodyLimit = options.bodyLimit
    this.line = options.line
    this.methods = new HttpMethods(options.line)
    this.genReqId = withRequestIdHeader(options.requestIdHeader, options.genReqId)
    this.serializerFill = missingDefaultSerializers(log)
    this.routeHandler = (req, res, params, route, query) => {
      const trace = this.pendingTrace
      if (trace !== null) { this.pendingTrace = null; endRouting(trace, route) }
      if (this.closing && this.answeredWhileClosing(res)) return
      handleRequest(route, req, res, params as Record<string, string>, query, trace)
    }
    this.router = createRouter(options, {
      onNotFound: (req, res) => { this.notFound(req, res) },
      onBadUrl: (path, req, res) => { this.badUrl(path, req, res) },
      onConstraintError: (req, res) => { this.constraintError(req, res) },
      onMaxParamLength: options.line === 5 ? (path, req, res) => { this.paramTooLong(path, req, res) } : undefined
    })
    // the one diagnostics check of a request: traced or not is decided here, before routing
    this.dispatch = withPreRouting(options, log, owner, (req, res) => {
      const flags = tracingFlags()
      if (flags !== 0) this.tracedLookup(req, res, owner, flags)
      else this.router.lookup(req, res)
    }, (fault, req, res) => { this.refuse(fault, req, res) })
  }

  /** A request something listens to (lifecycle/tracing.ts): routing is published, the trace goes with the request. */
  private tracedLookup (req: IncomingMessage, res: ServerResponse, owner: unknown, flags: number): void {
    const trace = new RequestTrace(req, res, owner, flags)
    this.pendingTrace = trace
    try {
      this.router.lookup(req, res)
    } finally {
      this.pendingTrace = null
      endRouting(trace, null)
    }
  }

  requestLogger (id: string, level: string | undefined, serializers?: Record<string, (value: any) => unknown>): Logger {
    if (this.silentLog && level === undefined) return this.log
    const bindings = { [this.requestIdLogLabel]: id }
    if (this.serializerFill !== undefined) serializers = { ...this.serializerFill, ...serializers }
    const child = (serializers === undefined ? this.log.child(bindings) : this.log.child(bindings, { serializers })) as Logger
    if (level !== undefined && child.level !== level) child.level = level
    return child
  }

  notFoundFor (url: string): RouteContext {
    return findNotFoundEntry(this.notFoundRoutes, url).route
  }

  /** While closing: the connection closes after this response; with return503OnClosing it is a 503 (true: answered). */
  private answeredWhileClosing (res: ServerResponse): boolean {
    keepConnectionFor(res)
    if (!this.options.return503OnClosing) return false
    publishEarlyAnswer(res.req, res, this.owner, null)
    answerClosing(res)
    if (!this.silentLog) this.logController.serviceUnavailable(this.log, this.owner)
    return true
  }

  /** No route matches: the 404 route of the URL's prefix. */
  private notFound (req: IncomingMessage, res: ServerResponse): void {
    const trace = this.pendingTrace
    if (trace !== null) { this.pendingTrace = null; endRouting(trace, null) }
    if (this.closing && this.answeredWhileClosing(res)) return
    if (!KNOWN_METHODS.has(req.method ?? '')) {
      // a method Node does not know (only HTTP/2 lets one through): no 404 route covers it;
      // Fastify's fallback answers a 404 'Not Found' (4.29: with the code FST_ERR_NOT_FOUND)
      const { reply } = this.bareRequest(req, res)
      const error = new errorCodes.FST_ERR_NOT_FOUND()
      publishEarlyAnswer(req, res, this.owner, error)
      reply.code(404).send(error)
      return
    }
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    // Fastify 5 decodes the path of a request no route takes too: a malformed one is a bad URL (400)
    if (this.line === 5 && url.includes('%')) {
      // the URL is named with its query, as Fastify's 404 router names it
      if (!decodes(q === -1 ? url : url.slice(0, q))) { (this.options.router.onBadUrl ?? ((p: string, rq: IncomingMessage, rs: ServerResponse) => { this.badUrl(p, rq, rs) }))(url, req, res); return }
    }
    const entry = findNotFoundEntry(this.notFoundRoutes, url)
    // an application's querystring parser still sees every request
    const query = q === -1 ? {} : (this.options.querystringParser ?? parseQuery)(url.slice(q + 1))
    // a traced request takes the full path: its request and reply are published
    if (entry.plain && trace === null) { answerPlainNotFound(entry.route, req, res); return }
    handleRequest(entry.route, req, res, {}, query, trace)
  }

  private badUrl (path: string, req: IncomingMessage, res: ServerResponse): void {
    const { request, reply } = this.bareRequest(req, res)
    const frameworkErrors = this.options.frameworkErrors
    const error = new errorCodes.FST_ERR_BAD_URL(path)
    publishEarlyAnswer(req, res, this.owner, error)
    if (frameworkErrors !== undefined) { frameworkErrors(error, request, reply); return }
    // Fastify 4.29's body has the code (4.3's had none)
    reply.code(400).send({ error: 'Bad Request', code: 'FST_ERR_BAD_URL', message: `'${path}' is not a valid url component`, statusCode: 400 })
  }

  /**
   * A request that breaks a Host or framing rule (server/request-framing.ts): a framework error, 400,
   * logged at trace level as client errors are; the connection closes after it when the body's
   * framing is unknown.
   */
  private refuse (fault: FramingFault, req: IncomingMessage, res: ServerResponse): void {
    const err = fault.kind === 'host'
      ? new errorCodes.FST_ERR_INVALID_HOST(fault.message)
      : fault.kind === 'asterisk-form' ? new errorCodes.FST_ERR_ASTERISK_FORM(fault.message) : new errorCodes.FST_ERR_INVALID_TRANSFER_ENCODING(fault.message)
    this.log.trace({ err }, 'client error')
    publishEarlyAnswer(req, res, this.owner, err)
    if (fault.close) (res as ServerResponse & { shouldKeepAlive: boolean }).shouldKeepAlive = false
    const { request, reply } = this.bareRequest(req, res)
    const frameworkErrors = this.options.frameworkErrors
    if (frameworkErrors !== undefined) { frameworkErrors(err, request, reply); return }
    reply.code(400).send({ error: 'Bad Request', code: err.code, message: err.message, statusCode: 400 })
  }

  /** Fastify 5: a parameter over `maxParamLength` is a 414 (its body says 'Bad Request', as Fastify's does). */
  private paramTooLong (path: string, req: IncomingMessage, res: ServerResponse): void {
    const frameworkErrors = this.options.frameworkErrors
    const error = new errorCodesAddedInV5.FST_ERR_MAX_PARAM_LENGTH(path)
    publishEarlyAnswer(req, res, this.owner, error)
    if (frameworkErrors !== undefined) {
      const { request, reply } = this.bareRequest(req, res)
      frameworkErrors(error, request, reply)
      return
    }
    const body = JSON.stringify({ error: 'Bad Request', code: 'FST_ERR_MAX_PARAM_LENGTH', message: `'${path}' is exceeding the max param length`, statusCode: 414 })
    res.writeHead(414, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) })
    res.end(body)
  }

  private constraintError (req: IncomingMessage, res: ServerResponse): void {
    const frameworkErrors = this.options.frameworkErrors
    const error = new errorCodes.FST_ERR_ASYNC_CONSTRAINT()
    publishEarlyAnswer(req, res, this.owner, error)
    if (frameworkErrors !== undefined) {
      const { request, reply } = this.bareRequest(req, res)
      frameworkErrors(error, request, reply)
      return
    }
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(ASYNC_CONSTRAINT_BODY.length) })
    res.end(ASYNC_CONSTRAINT_BODY)
  }

  /** A request/reply on the root 404 route, for answers given before routing (bad URL, unknown method); logs 'incoming request'. */
  private bareRequest (req: IncomingMessage, res: ServerResponse): { request: RequestBase, reply: ReplyBase } {
    const route = this.notFoundFor('/')
    const id = this.genReqId(req)
    const log = this.requestLogger(id, undefined)
    const request = new route.Request(id, {}, req, {}, log, route)
    const reply = new route.Reply(res, request, log)
    if (!this.quietRequests) this.logController.incomingRequest(request, reply)
    return { request, reply }
  }
}

function decodes (path: string): boolean {
  try {
    decodeURI(path)
    return true
  } catch {
    return false
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
