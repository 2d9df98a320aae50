/**
 * The request path's diagnostics channels (docs/observability.md): Fastify's
 * `tracing:fastify.request.handler` and trellis's own `tracing:trellis.request` and
 * `tracing:trellis.request.<phase>`. Whether a request is traced is decided once, when it reaches the
 * router (`tracingFlags`); an untraced request never reaches this file again (its reply's `trace`
 * stays null), so a channel without subscribers costs no allocation and no closure.
 */
import diagnosticsChannel, { type TracingChannel } from 'node:diagnostics_channel'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RequestBase } from './request'
import type { ReplyBase } from './reply'
import type { RouteContext } from './route-context'
import { perf } from '../base/clock'

type Channel = TracingChannel<object, object>

/** Fastify's handler channel (5.x): start, end, asyncStart, asyncEnd, error around the route handler. */
export const handlerChannel: Channel = diagnosticsChannel.tracingChannel('fastify.request.handler')
/** The whole request, from the route found to the response finished (or the connection closed). */
export const requestChannel: Channel = diagnosticsChannel.tracingChannel('trellis.request')

/** The phases published on `tracing:trellis.request.<phase>`, in the order a request runs them. */
export const PHASES = [
  'routing', 'onRequest', 'preParsing', 'parsing', 'preValidation', 'validation', 'preHandler',
  'preSerialization', 'serialization', 'onSend', 'onError', 'write', 'onResponse'
] as const
export type Phase = typeof PHASES[number]

export const phaseChannels: Record<Phase, Channel> = {
  routing: diagnosticsChannel.tracingChannel('trellis.request.routing'),
  onRequest: diagnosticsChannel.tracingChannel('trellis.request.onRequest'),
  preParsing: diagnosticsChannel.tracingChannel('trellis.request.preParsing'),
  parsing: diagnosticsChannel.tracingChannel('trellis.request.parsing'),
  preValidation: diagnosticsChannel.tracingChannel('trellis.request.preValidation'),
  validation: diagnosticsChannel.tracingChannel('trellis.request.validation'),
  preHandler: diagnosticsChannel.tracingChannel('trellis.request.preHandler'),
  preSerialization: diagnosticsChannel.tracingChannel('trellis.request.preSerialization'),
  serialization: diagnosticsChannel.tracingChannel('trellis.request.serialization'),
  onSend: diagnosticsChannel.tracingChannel('trellis.request.onSend'),
  onError: diagnosticsChannel.tracingChannel('trellis.request.onError'),
  write: diagnosticsChannel.tracingChannel('trellis.request.write'),
  onResponse: diagnosticsChannel.tracingChannel('trellis.request.onResponse')
}

const p = phaseChannels
const handlerStart = handlerChannel.start
const requestStart = requestChannel.start

/** tracingFlags: the handler is published on Fastify's handler channel. */
const TRACE_HANDLER = 1
/** tracingFlags: something listens on `trellis.request`. */
const TRACE_REQUEST = 2
/** tracingFlags: the phases are published. */
const TRACE_PHASES = 4
/** tracingFlags: something listens on the routing channel's `start`. */
const TRACE_ROUTING = 8
/** tracingFlags: something listens on the routing channel's `end` (published only for a request traced for another reason). */
const TRACE_ROUTING_END = 16

/**
 * The one check per request: what listens on the request channels, 0 when nothing does (the
 * request is not traced). Fastify's handler channel counts with any of its five events (as Fastify's
 * own check); a trellis channel with its `start`. The flags go to the request's RequestTrace, so a
 * traced request asks no channel again.
 */
export function tracingFlags (): number {
  let flags = 0
  if (handlerChannel.hasSubscribers) flags |= TRACE_HANDLER
  if (requestStart.hasSubscribers) flags |= TRACE_REQUEST
  if (p.routing.start.hasSubscribers) flags |= TRACE_ROUTING
  else if (p.routing.end.hasSubscribers) flags |= TRACE_ROUTING_END
  if (p.onRequest.start.hasSubscribers || p.preParsing.start.hasSubscribers || p.parsing.start.hasSubscribers ||
    p.preValidation.start.hasSubscribers || p.validation.start.hasSubscribers || p.preHandler.start.hasSubscribers ||
    p.preSerialization.start.hasSubscribers || p.serialization.start.hasSubscribers || p.onSend.start.hasSubscribers ||
    p.onError.start.hasSubscribers || p.write.start.hasSubscribers || p.onResponse.start.hasSubscribers) flags |= TRACE_PHASES
  return flags === TRACE_ROUTING_END ? 0 : flags
}

/** `{ url, method }` of a route as Fastify's handler channel gives it; null for a 404 route. */
export interface RouteInfo { url: string | undefined; method: string | string[] | undefined }

export interface RoutingMessage { req: IncomingMessage; res: ServerResponse; server: unknown; route: RouteInfo | null }
export interface RequestMessage { request: RequestBase; reply: ReplyBase; route: RouteInfo | null; error?: unknown }
export interface PhaseMessage { request: RequestBase; reply: ReplyBase; phase: Phase; error?: unknown }
export interface HandlerMessage { request: RequestBase; reply: ReplyBase; async: boolean; route: RouteInfo; error?: unknown }

/**
 * The state of one traced request (on `reply.trace`). Its fields are assigned in the constructor,
 * not declared with initializers: a class field is an own-property definition, slower than a
 * store until the constructor is optimized.
 */
export class RequestTrace {
  /** The application the request arrived at. */
  declare readonly server: unknown
  /** The routing channel's message, made only when that channel had a subscriber as the request began. */
  declare readonly routing: RoutingMessage | null
  /** The route the router found (null: none yet, or a 404). */
  declare route: RouteInfo | null
  /** performance.now() as routing began. */
  declare readonly begun: number
  declare routingOpen: boolean
  declare request: RequestMessage | null
  /** Whether the phases are published (a phase channel had a subscriber as the request began). */
  declare readonly phases: boolean
  /** Whether the handler is published on Fastify's handler channel (it had a subscriber as the request began). */
  declare readonly handler: boolean
  /** The phase running now (at most one: phases follow one another). */
  declare phase: PhaseMessage | null
  declare failed: boolean
  declare finished: boolean
  /** What trellis/otel keeps for this request (its span), so it adds nothing to the request's objects. */
  declare otel: unknown

  /** `flags`: tracingFlags() as the request reached the router. */
  constructor (req: IncomingMessage, res: ServerResponse, server: unknown, flags: number) {
    this.server = server
    this.begun = perf.now()
    this.route = null
    this.routingOpen = true
    this.request = null
    this.phases = (flags & TRACE_PHASES) !== 0
    this.handler = (flags & TRACE_HANDLER) !== 0
    this.phase = null
    this.failed = false
    this.finished = false
    this.otel = undefined
    if ((flags & (TRACE_ROUTING | TRACE_ROUTING_END)) !== 0) {
      this.routing = { req, res, server, route: null }
      p.routing.start.publish(this.routing)
    } else {
      this.routing = null
    }
  }
}

/** The route's `{ url, method }`: one frozen object per route, shared by its requests' messages. */
export function routeInfo (route: RouteContext): RouteInfo | null {
  if (route.is404) return null
  return route.traceInfo ?? (route.traceInfo = Object.freeze({ url: route.config.url, method: route.config.method }))
}

/** The router has answered: the route found (null: none, or no route took the request). */
export function endRouting (trace: RequestTrace, route: RouteContext | null): void {
  if (!trace.routingOpen) return
  trace.routingOpen = false
  if (route !== null) trace.route = routeInfo(route)
  const message = trace.routing
  if (message === null) return
  message.route = trace.route
  p.routing.end.publish(message)
}

/** What runs the request once its channel has started: handle-request.ts's startRequest and factoryLoggedStart. */
export type TracedStart = (route: RouteContext, request: RequestBase, reply: ReplyBase, failure: unknown) => void

/**
 * Whether a store is bound to the request channel's `start` (an AsyncLocalStorage made current with
 * `bindStore`). Without one, `runStores` is `publish` then a call, which is done here directly: it
 * spares the closure, the rest array and the store map's iterator `runStores` makes per request.
 * `_stores` is node's own map of bound stores (Node 20 to 24); a node without it is asked nothing
 * and every request goes through `runStores`.
 */
function storesBound (): boolean {
  return (requestStart as unknown as { _stores?: { size?: unknown } })._stores?.size !== 0
}

/**
 * Starts the request's own channel and runs `run` inside its `start.runStores` (a subscriber's
 * bound AsyncLocalStorage holds for the synchronous part of the request and what it schedules).
 * The request ends when its response finishes or its connection closes.
 */
export function runTracedRequest (trace: RequestTrace, request: RequestBase, reply: ReplyBase, route: RouteContext, run: TracedStart, failure: unknown): void {
  reply.trace = trace
  const message: RequestMessage = { request, reply, route: routeInfo(route) }
  trace.request = message
  // one listener: a response emits 'close' once it has finished (or its connection closed); a route
  // that watches 'finish' anyway (onResponse hooks, request logging) ends the request there first
  reply.raw.on('close', () => { endRequest(trace) })
  if (storesBound()) { requestStart.runStores(message, run, undefined, route, request, reply, failure); return }
  requestStart.publish(message)
  run(route, request, reply, failure)
}

/** The request has ended (its response finished, or its connection closed): published once. */
export function endRequest (trace: RequestTrace): void {
  if (trace.finished) return
  trace.finished = true
  closePhase(trace, null)
  if (trace.request !== null) requestChannel.end.publish(trace.request)
}

/** A phase begins (the one before it, if still open, ends: it answered without going on). */
export function openPhase (trace: RequestTrace, phase: Phase, request: RequestBase, reply: ReplyBase): void {
  if (!trace.phases) return
  if (trace.phase !== null) closePhase(trace, null)
  const message: PhaseMessage = { request, reply, phase }
  trace.phase = message
  p[phase].start.publish(message)
}

/** The running phase ends; with `error` when it failed (published on its `error` first). */
export function closePhase (trace: RequestTrace, error: unknown): void {
  const message = trace.phase
  if (message === null) return
  trace.phase = null
  const channel = p[message.phase]
  if (error !== null && error !== undefined) {
    message.error = error
    channel.error.publish(message)
  }
  channel.end.publish(message)
}

/** The request met an error on its way to the error handlers: published once, on `tracing:trellis.request:error`. */
export function requestFailed (trace: RequestTrace, error: unknown): void {
  if (trace.failed || trace.request === null) return
  trace.failed = true
  trace.request.error = error
  requestChannel.error.publish(trace.request)
}

export { handlerStart }
