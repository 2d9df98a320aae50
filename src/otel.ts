/**
 * `trellis/otel`: OpenTelemetry spans and metrics from the request path's diagnostics channels
 * (docs/observability.md). It uses `@opentelemetry/api` only; the application starts the SDK and its
 * exporters, as with any OpenTelemetry setup, before it registers the plugin:
 *
 *   import otel from 'trellis/otel'
 *   await app.register(otel)                     // one SERVER span per request
 *   await app.register(otel, { phaseSpans: true }) // plus a child span per phase of the request path
 *
 * Spans follow the stable HTTP semantic conventions for servers, as the OpenTelemetry JavaScript
 * SIG's HTTP instrumentation writes them: name `GET /users/:id` (the method alone without a route),
 * kind SERVER (or a child of the `node:http` instrumentation's span when that one is on), attributes
 * `http.request.method`, `http.route`, `http.response.status_code`, `url.path`, `url.query`,
 * `url.scheme`, `server.address`, `server.port`, `client.address`, `network.protocol.version`,
 * `user_agent.original`, status ERROR for 5xx only, and the `http.server.request.duration` histogram
 * (seconds). `traceparent`/`tracestate` (or whatever propagator the SDK set) are read from the request.
 * With pino (the default logger), each log line of a traced request carries `trace_id`, `span_id`
 * and `trace_flags`.
 */
import diagnosticsChannel from 'node:diagnostics_channel'
import { AsyncLocalStorage } from 'node:async_hooks'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Attributes, Context, Histogram, MeterProvider, Span, TracerProvider, Tracer } from '@opentelemetry/api'
import { otelApi } from './otel-api'
import pino from 'pino'
import plugin from './plugin'
import { VERSION } from './base/version'
import { perf } from './base/clock'
import { EARLY_ANSWER_CHANNEL, type EarlyAnswerMessage } from './server/early-answer'
import { PHASES, type HandlerMessage, type PhaseMessage, type RequestMessage, type RoutingMessage } from './lifecycle/tracing'
import type { ReplyBase } from './lifecycle/reply'
import type { RequestBase } from './lifecycle/request'

export interface OtelOptions {
  /** A child span per phase of the request path (routing, each hook phase, parsing, validation, handler, serialization, write). Default false: one span per request. */
  phaseSpans?: boolean
  /** The tracer provider; default: the global one (what the SDK registered). */
  tracerProvider?: TracerProvider
  /** The meter provider of `http.server.request.duration`; default: the global one. */
  meterProvider?: MeterProvider
  /** `trace_id`, `span_id` and `trace_flags` in every log line of a traced request (pino mixin). Default true. */
  logCorrelation?: boolean
  /** Requests for which this returns true get no span and no measurement. */
  ignore?: (request: IncomingMessage) => boolean
}

const SCOPE = 'trellis'
/** The explicit buckets of the HTTP semantic conventions for http.server.request.duration (seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH', 'QUERY'])

/**
 * The W3C propagator's (or any propagator's) view of a request's header lines, read from
 * `rawHeaders`: Node builds `req.headers` on its first read, which a request trellis answers without
 * reading a header (a GET) would otherwise pay for every `traceparent` lookup.
 */
const rawHeaderGetter = {
  get (req: IncomingMessage, key: string): string | undefined {
    const raw = req.rawHeaders
    // an HTTP/2 compatibility request without raw lines: its headers object
    if (raw === undefined) { const v = req.headers[key]; return Array.isArray(v) ? v.join(',') : v }
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]
      if (name.length === key.length && name.toLowerCase() === key) return raw[i + 1]
    }
    return undefined
  },
  keys (req: IncomingMessage): string[] {
    const raw = req.rawHeaders
    if (raw === undefined) return Object.keys(req.headers)
    const names: string[] = []
    for (let i = 0; i < raw.length; i += 2) names.push(raw[i].toLowerCase())
    return names
  }
}

/** What the plugin keeps per route (by its path): the span names by method and the last histogram attribute set. */
interface RouteData {
  route: string | undefined
  /** The method and span name of this route's last request (a path is mostly asked with one method): no lookup by name. */
  lastMethod: string
  lastName: string
  names: Record<string, string>
  /** The attributes of the last measurement of this route, reused while they are the same (the SDK keeps none of ours otherwise). */
  metric: Attributes | null
}

/** One traced request (on its RequestTrace's `otel` slot). */
interface Live {
  /** The registration that made it. */
  owner: symbol
  span: Span
  /** The sampler's decision: false, the span does not record and gets no attribute. */
  recording: boolean
  /** The span's context (the parent's when nothing reads it: no context manager's store, no phase spans). */
  ctx: Context
  /** performance.now() when routing began. */
  begun: number
  data: RouteData
  method: string
  scheme: string
  version: string
  error: unknown
  phase: Span | null
  handler: Span | null
  ended: boolean
}

/** The mark of a request its registration ignores (`ignore`): asked once. */
const IGNORED = Object.freeze({ owner: null })

const channel = (name: string): diagnosticsChannel.TracingChannel<object, object> => diagnosticsChannel.tracingChannel(name)

/** performance.timeOrigin, read once: it is fixed for the process, and its getter calls into C++ on every read. */
const TIME_ORIGIN = perf.timeOrigin
function epochMs (now: number): number { return TIME_ORIGIN + now }

/** The AsyncLocalStorage of the SDK's context manager (AsyncLocalStorageContextManager), so a channel's runStores can make a span current. */
function contextStorage (): AsyncLocalStorage<Context> | null {
  const { context } = otelApi()
  const manager = (context as unknown as { _getContextManager?: () => unknown })._getContextManager?.()
  const storage = (manager as { _asyncLocalStorage?: unknown } | undefined)?._asyncLocalStorage
  return storage instanceof AsyncLocalStorage ? storage as AsyncLocalStorage<Context> : null
}

function hostAndPort (host: string | undefined, secure: boolean): { address?: string, port?: number } {
  if (host === undefined || host === '') return {}
  let address = host
  let port: string | undefined
  if (host.startsWith('[')) {
    const close = host.indexOf(']')
    address = host.slice(1, close === -1 ? undefined : close)
    if (close !== -1 && host[close + 1] === ':') port = host.slice(close + 2)
  } else {
    const colon = host.lastIndexOf(':')
    if (colon !== -1) { address = host.slice(0, colon); port = host.slice(colon + 1) }
  }
  const n = port === undefined ? (secure ? 443 : 80) : Number(port)
  return Number.isInteger(n) && n > 0 && n < 65536 ? { address, port: n } : { address }
}

interface Host { address?: string, port?: number }

/**
 * What a sampler sees when the span starts: the method, the scheme and the route (the attributes
 * that need nothing of the request's headers). The rest are written only on a span that records.
 */
function samplingAttributes (method: string, scheme: string, route: string | undefined): Attributes {
  // a fresh object per span: the SDK merges its sampler's attributes into the one it is given; one
  // literal per shape (a property added after a literal grows the object a second time)
  return route !== undefined
    ? { 'http.request.method': method, 'url.scheme': scheme, 'http.route': route }
    : { 'http.request.method': method, 'url.scheme': scheme }
}

/**
 * The attributes of a recording span beyond samplingAttributes. `host` is the last parsed Host header
 * of this registration (requests of one service mostly carry the same), parsed again only when it differs.
 */
function requestAttributes (req: IncomingMessage, client: string | undefined, scheme: string, host: { raw: string | undefined, secure: boolean, parsed: Host }): Attributes {
  const url = req.url ?? '/'
  const q = url.indexOf('?')
  const attributes: Attributes = {
    'url.path': q === -1 ? url : url.slice(0, q),
    'network.protocol.version': req.httpVersion
  }
  if (q !== -1) attributes['url.query'] = url.slice(q + 1)
  const headers = req.headers
  const header = headers[':authority'] ?? headers.host
  const raw = Array.isArray(header) ? header[0] : header
  const secure = scheme === 'https'
  if (raw !== host.raw || secure !== host.secure) {
    host.raw = raw
    host.secure = secure
    host.parsed = hostAndPort(raw, secure)
  }
  const { address, port } = host.parsed
  if (address !== undefined) attributes['server.address'] = address
  if (port !== undefined) attributes['server.port'] = port
  if (client !== undefined) attributes['client.address'] = client
  const peer = req.socket?.remoteAddress
  if (peer !== undefined) attributes['network.peer.address'] = peer
  const agent = headers['user-agent']
  if (agent !== undefined) attributes['user_agent.original'] = agent
  return attributes
}

/** `<method> <route>`, the span name of a routed request. */
function spanName (data: RouteData, method: string): string {
  if (data.lastMethod === method) return data.lastName
  const name = (data.names[method] ??= `${method} ${data.route as string}`)
  data.lastMethod = method
  data.lastName = name
  return name
}

function errorType (error: unknown): string | undefined {
  if (error === null || error === undefined) return undefined
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && code !== '') return code
  const name = (error as { constructor?: { name?: unknown } }).constructor?.name
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : '_OTHER'
}

function asException (error: unknown): Error | string {
  if (error instanceof Error) return error
  return String(error)
}

async function otelPlugin (app: any, options: OtelOptions): Promise<void> {
  const { context, createNoopMeter, diag, metrics, propagation, trace, ROOT_CONTEXT, SpanKind, SpanStatusCode } = otelApi()
  const tracer: Tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, VERSION)
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, VERSION)
  const duration: Histogram = meter.createHistogram('http.server.request.duration', {
    description: 'Duration of HTTP server requests.',
    unit: 's',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS }
  })
  // without a meter provider (the API's no-op meter, which a later SDK does not replace) nothing is measured
  const measuring = duration.constructor !== createNoopMeter().createHistogram('').constructor
  const phaseSpans = options.phaseSpans === true
  const correlate = options.logCorrelation !== false
  const ignore = options.ignore
  const root = app
  // this registration's mark on the request state it made and on request loggers (per-request
  // state lives on the request's RequestTrace, so requests, replies and raw requests keep their shapes)
  const kState = Symbol('trellis.otel')
  const byLogger = {
    get: (logger: object): Live | undefined => Object.prototype.hasOwnProperty.call(logger, kState) ? (logger as Record<symbol, Live | undefined>)[kState] : undefined,
    set: (logger: object, value: Live): void => { (logger as Record<symbol, Live | undefined>)[kState] = value }
  }
  const liveOf = (reply: ReplyBase): Live | undefined => {
    const state = reply.trace?.otel as Live | undefined
    return state !== undefined && state.owner === kState ? state : undefined
  }

  const ours = (server: unknown): boolean => server === root || (server !== null && typeof server === 'object' && Object.prototype.isPrototypeOf.call(server, root))

  // per route (by path): span names and the histogram's last attribute set; requests without a route share one
  const routes = new Map<string, RouteData>()
  const unrouted: RouteData = { route: undefined, lastMethod: '', lastName: '', names: Object.create(null), metric: null }
  const routeData = (route: string | undefined): RouteData => {
    if (route === undefined) return unrouted
    let data = routes.get(route)
    if (data === undefined) {
      data = { route, lastMethod: '', lastName: '', names: Object.create(null), metric: null }
      routes.set(route, data)
    }
    return data
  }
  const host = { raw: undefined as string | undefined, secure: false, parsed: {} as Host }

  // with phase spans: when the router answered (routing ends and the request begins in one synchronous step)
  let routedReq: IncomingMessage | null = null
  let routedAt = 0
  const onRoutingEnd = (message: unknown): void => {
    routedReq = (message as RoutingMessage).req
    routedAt = perf.now()
  }

  // the request's span is current in its hooks and handler (with the SDK's AsyncLocalStorage context manager)
  const storage = contextStorage()
  // the span's context is made only for what reads it (the context manager's store, child spans)
  const needContext = storage !== null || phaseSpans
  // the active context: read from the context manager's store directly when it is the one bound
  // above (context.active() looks the manager up in the API's global registry on every call)
  const activeContext = storage !== null ? (): Context => storage.getStore() ?? ROOT_CONTEXT : (): Context => context.active()

  /**
   * A request's span: the sampler decides first (it sees the name, the kind, the parent and
   * samplingAttributes); a span that does not record gets no other attribute. `client.address` is
   * asked only for a recording span: `request.ip` (trustProxy applies), or the peer's address for a
   * request answered before the request path (`request` null).
   */
  const startSpan = (req: IncomingMessage, scheme: string, path: string | undefined, begun: number, request: RequestBase | null): Live => {
    const raw = req.method ?? 'GET'
    const method = KNOWN_METHODS.has(raw) ? raw : '_OTHER'
    const data = routeData(path)
    const route = data.route
    const name = route === undefined ? method : spanName(data, method)
    const active = activeContext()
    const inherited = trace.getSpan(active)
    // the node:http instrumentation's span is current when the request arrives: ours is its child
    const parent = inherited !== undefined ? active : propagation.extract(ROOT_CONTEXT, req, rawHeaderGetter)
    if (inherited !== undefined && route !== undefined) {
      inherited.setAttribute('http.route', route)
      inherited.updateName(name)
    }
    const span = tracer.startSpan(name, {
      kind: inherited !== undefined ? SpanKind.INTERNAL : SpanKind.SERVER,
      attributes: samplingAttributes(method, scheme, route),
      startTime: epochMs(begun)
    }, parent)
    const recording = span.isRecording()
    if (recording) {
      const attributes = requestAttributes(req, request !== null ? request.ip : req.socket?.remoteAddress, scheme, host)
      if (method === '_OTHER') attributes['http.request.method_original'] = raw
      span.setAttributes(attributes)
    }
    const ctx = needContext ? trace.setSpan(parent, span) : parent
    return { owner: kState, span, recording, ctx, begun, data, method, scheme, version: req.httpVersion, error: undefined, phase: null, handler: null, ended: false }
  }

  /** The request's span, made once (from the store transform or from the start subscriber, whichever runs first). */
  const begin = (message: RequestMessage): Live | undefined => {
    const { request, reply } = message
    const traced = reply.trace
    if (traced === null) return undefined
    if (traced.otel !== undefined) return liveOf(reply)
    const req = request.raw
    if (!ours(traced.server)) return undefined
    if (ignore !== undefined && ignore(req)) { traced.otel = IGNORED; return undefined }
    const begun = traced.begun
    const state = startSpan(req, request.protocol ?? 'http', message.route?.url, begun, request)
    traced.otel = state
    // a span that does not record gets no phase span and no log ids
    if (phaseSpans) {
      const routed = routedReq === req ? routedAt : perf.now()
      routedReq = null
      if (state.recording) tracer.startSpan('routing', { startTime: epochMs(begun), attributes: { 'trellis.phase': 'routing' } }, state.ctx).end(epochMs(routed))
    }
    if (state.recording && correlate && request.log !== app.log) byLogger.set(request.log, state)
    return state
  }

  const onRequestStart = (message: unknown): void => { begin(message as RequestMessage) }
  const onRequestError = (message: unknown): void => {
    const { reply, error } = message as RequestMessage
    const state = liveOf(reply)
    if (state === undefined) return
    state.error = error
    state.span.recordException(asException(error))
  }
  const onRequestEnd = (message: unknown): void => {
    const { reply } = message as RequestMessage
    const state = liveOf(reply)
    // a handler or phase still running (a response written from inside it) ends after the request
    if (state === undefined || state.ended) return
    endSpan(state, reply.raw)
  }
  /** The span's status and end, and the duration measurement (a span that does not record gets the measurement alone). */
  const endSpan = (state: Live, res: ServerResponse): void => {
    state.ended = true
    if (!state.recording && !measuring) return
    const now = perf.now()
    const status = res.statusCode
    let type: string | undefined
    if (status >= 500) type = errorType(state.error) ?? String(status)
    // the connection closed before the response was complete
    else if (!res.writableEnded) type = 'aborted'
    const span = state.span
    if (state.recording) {
      span.setAttribute('http.response.status_code', status)
      if (type !== undefined) {
        span.setAttribute('error.type', type)
        span.setStatus({ code: SpanStatusCode.ERROR, message: type === 'aborted' ? 'the client closed the connection' : state.error instanceof Error ? state.error.message : undefined })
      }
      span.end(epochMs(now))
    }
    if (measuring) duration.record((now - state.begun) / 1000, metricAttributes(state, status, type))
  }

  // a request answered before the request path (a malformed URL, an HTTP version, a 503 while
  // closing, a parameter too long, ...): its span runs from the answer's start to the response's end
  const onEarlyAnswer = (message: unknown): void => {
    const { req, res, server, error } = message as EarlyAnswerMessage
    if (!ours(server)) return
    if (ignore !== undefined && ignore(req)) return
    const secure = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true
    const state = startSpan(req, secure ? 'https' : 'http', undefined, perf.now(), null)
    if (error !== null && error !== undefined) {
      state.error = error
      if (state.recording) state.span.recordException(asException(error))
    }
    res.once('close', () => { if (!state.ended) endSpan(state, res) })
  }
  /** The histogram's attributes: the route's last set when nothing differs (the SDK hashes them anew on every record). */
  const metricAttributes = (state: Live, status: number, type: string | undefined): Attributes => {
    const data = state.data
    const last = data.metric
    if (last !== null && last['http.response.status_code'] === status && last['http.request.method'] === state.method &&
      last['url.scheme'] === state.scheme && last['network.protocol.version'] === state.version && last['error.type'] === type) return last
    const metric: Attributes = {
      'http.request.method': state.method,
      'url.scheme': state.scheme,
      'network.protocol.version': state.version,
      'http.response.status_code': status
    }
    if (data.route !== undefined) metric['http.route'] = data.route
    if (type !== undefined) metric['error.type'] = type
    data.metric = metric
    return metric
  }

  const onHandlerStart = (message: unknown): void => {
    const state = liveOf((message as HandlerMessage).reply)
    if (state === undefined || !state.recording || state.handler !== null) return
    state.handler = tracer.startSpan('handler', { attributes: { 'trellis.phase': 'handler' } }, state.ctx)
  }
  const onHandlerError = (message: unknown): void => {
    const state = liveOf((message as HandlerMessage).reply)
    if (state?.handler != null) state.handler.recordException(asException((message as HandlerMessage).error))
  }
  const onHandlerEnd = (message: unknown): void => {
    const m = message as HandlerMessage
    if (m.async) return
    endHandler(m)
  }
  const endHandler = (message: unknown): void => {
    const state = liveOf((message as HandlerMessage).reply)
    if (state?.handler == null) return
    state.handler.end()
    state.handler = null
  }

  const onPhaseStart = (message: unknown): void => {
    const m = message as PhaseMessage
    const state = liveOf(m.reply)
    if (state === undefined || !state.recording) return
    if (state.phase !== null) state.phase.end()
    state.phase = tracer.startSpan(m.phase, { attributes: { 'trellis.phase': m.phase } }, state.ctx)
  }
  const onPhaseError = (message: unknown): void => {
    const m = message as PhaseMessage
    const state = liveOf(m.reply)
    if (state?.phase != null) state.phase.recordException(asException(m.error))
  }
  const onPhaseEnd = (message: unknown): void => {
    const state = liveOf((message as PhaseMessage).reply)
    if (state?.phase == null) return
    state.phase.end()
    state.phase = null
  }

  const subscriptions: Array<[string, (message: unknown) => void]> = [
    [EARLY_ANSWER_CHANNEL, onEarlyAnswer],
    ['tracing:trellis.request:start', onRequestStart],
    ['tracing:trellis.request:error', onRequestError],
    ['tracing:trellis.request:end', onRequestEnd]
  ]
  if (phaseSpans) {
    subscriptions.push(
      ['tracing:trellis.request.routing:end', onRoutingEnd],
      ['tracing:fastify.request.handler:start', onHandlerStart],
      ['tracing:fastify.request.handler:error', onHandlerError],
      ['tracing:fastify.request.handler:end', onHandlerEnd],
      ['tracing:fastify.request.handler:asyncEnd', endHandler]
    )
    for (const phase of PHASES) {
      if (phase === 'routing') continue
      subscriptions.push(
        [`tracing:trellis.request.${phase}:start`, onPhaseStart],
        [`tracing:trellis.request.${phase}:error`, onPhaseError],
        [`tracing:trellis.request.${phase}:end`, onPhaseEnd]
      )
    }
  }
  for (const [name, fn] of subscriptions) diagnosticsChannel.subscribe(name, fn)

  const requestStart = channel('trellis.request').start
  const handlerStart = channel('fastify.request.handler').start
  const toRequestContext = (message: unknown): Context => begin(message as RequestMessage)?.ctx ?? activeContext()
  const toHandlerContext = (message: unknown): Context => {
    const state = liveOf((message as HandlerMessage).reply)
    if (state === undefined) return activeContext()
    if (phaseSpans) onHandlerStart(message)
    return state.handler !== null ? trace.setSpan(state.ctx, state.handler) : state.ctx
  }
  if (storage !== null) {
    requestStart.bindStore(storage, toRequestContext)
    handlerStart.bindStore(storage, toHandlerContext)
  } else {
    diag.warn('trellis/otel: the context manager is not AsyncLocalStorage-based; spans are made but not current in handlers')
  }

  const restoreLogger = correlate ? correlateLogs(app.log, (logger) => byLogger.get(logger)?.span ?? trace.getSpan(context.active())) : null

  app.addHook('onClose', (_instance: unknown, done: () => void) => {
    for (const [name, fn] of subscriptions) diagnosticsChannel.unsubscribe(name, fn)
    if (storage !== null) {
      requestStart.unbindStore(storage)
      handlerStart.unbindStore(storage)
    }
    if (restoreLogger !== null) restoreLogger()
    done()
  })
}

/**
 * Adds trace_id, span_id and trace_flags to every log line of a pino logger (and its children) that
 * has a span: a mixin, composed with the logger's own. Returns the function that restores it.
 */
function correlateLogs (log: any, spanOf: (logger: object) => Span | undefined): (() => void) | null {
  const key = pino.symbols.mixinSym
  if (log === null || typeof log !== 'object' || !(key in log)) return null
  const previous = log[key] as ((obj: object, level: number, logger: object) => object) | undefined
  const hadOwn = Object.prototype.hasOwnProperty.call(log, key)
  log[key] = function traceMixin (this: unknown, obj: object, level: number, logger: object): object {
    const own = previous !== undefined ? previous.call(this, obj, level, logger) : undefined
    const span = spanOf(logger)
    if (span === undefined) return own ?? {}
    const ids = span.spanContext()
    return { ...own, trace_id: ids.traceId, span_id: ids.spanId, trace_flags: `0${ids.traceFlags.toString(16)}` }
  }
  return () => {
    if (hadOwn) log[key] = previous
    else delete log[key]
  }
}

const otel = plugin(otelPlugin, { fastify: '4.x || 5.x', name: 'trellis-otel' })

export { otel }
export default otel
