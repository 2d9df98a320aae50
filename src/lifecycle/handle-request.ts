/**
 * Walks a route's request path, in the order it runs:
 * onRequest -> preParsing -> body -> preValidation -> validation -> preHandler -> handler,
 * then reply.send takes over (preSerialization -> serialize -> onSend -> write -> onResponse).
 * Steps with no hooks cost one length check.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Readable } from 'node:stream'
import type { RouteContext } from './route-context'
import { runAbortHooks, runNotifyHooks, runRequestHooks, runResponseHooks, runValueHooks } from './hook-runners'
import { watchHandlerTimeout } from './handler-timeout'
import { bodyOfV5, kCloseConnection, parseBody, shouldParseBody } from './body'
import { validateRequestParts } from '../schema/validation'
import { errorCodes } from '../base/errors'
import { errorCodesAddedInV5 } from '../base/errors-v5'
import type { RequestBase } from './request'
import type { ReplyBase } from './reply'
import { dropWriteAfterEndErrors } from '../server/guarded-response'
import { missingLoggerMethods } from '../server/logger'
import { perf } from '../base/clock'
import { closePhase, endRequest, handlerChannel, openPhase, routeInfo, runTracedRequest, type HandlerMessage, type RequestTrace } from './tracing'

/** `trace`: the request's diagnostics state when something listens (./tracing.ts), else null. */
export function handleRequest (route: RouteContext, req: IncomingMessage, res: ServerResponse, params: Record<string, string>, query: unknown, trace: RequestTrace | null): void {
  const id = route.genReqId(req)
  if (route.childLoggerFactory !== null) { factoryLoggedRequest(route, req, res, params, query, id, trace); return }
  const log = route.env.requestLogger(id, route.logLevel, route.logSerializers)
  const request = new route.Request(id, params, req, query, log, route)
  // a traced request's clock was read as routing began: the reply's elapsed time counts from there
  const reply = new route.Reply(res, request, log, trace !== null ? trace.begun : undefined)
  if (trace !== null) { runTracedRequest(trace, request, reply, route, startRequest, null); return }
  startRequest(route, request, reply)
}

/**
 * A route with a child logger factory (Fastify 4.29): the factory makes the request's logger. A
 * factory that returns no logger is answered with FST_ERR_LOG_INVALID_LOGGER (500), not a crash.
 */
function factoryLoggedRequest (route: RouteContext, req: IncomingMessage, res: ServerResponse, params: Record<string, string>, query: unknown, id: string, trace: RequestTrace | null): void {
  const env = route.env
  // Fastify 5 passes a level only when the route sets one (pino would take an undefined one as '')
  const opts: Record<string, unknown> = env.line === 5 && route.logLevel === undefined ? {} : { level: route.logLevel }
  if (route.logSerializers !== undefined) opts.serializers = route.logSerializers
  let log: any
  let failure: unknown = null
  try {
    log = route.childLoggerFactory!.call(route.server, env.log, { [env.requestIdLogLabel]: id }, opts, req)
    const missing = missingLoggerMethods(log)
    if (missing.length > 0) failure = new errorCodes.FST_ERR_LOG_INVALID_LOGGER(missing.join(','))
  } catch (err) {
    failure = err
  }
  if (failure !== null) log = env.requestLogger(id, route.logLevel, route.logSerializers)
  const request = new route.Request(id, params, req, query, log, route)
  const reply = new route.Reply(res, request, log, trace !== null ? trace.begun : undefined)
  if (trace !== null) { runTracedRequest(trace, request, reply, route, factoryLoggedStart, failure); return }
  factoryLoggedStart(route, request, reply, failure)
}

function factoryLoggedStart (route: RouteContext, request: RequestBase, reply: ReplyBase, failure: unknown): void {
  if (failure !== null) { failWith(reply, failure); return }
  startRequest(route, request, reply)
}

/** Runs a request through a route context (also used for 404 routes and callNotFound). */
function startRequest (route: RouteContext, request: RequestBase, reply: ReplyBase): void {
  watchResponse(reply)
  if (!route.env.quietRequests) route.env.logController.incomingRequest(request, reply)
  if (route.hooks.onTimeout.length > 0) watchTimeout(route, request, reply)
  if (route.hooks.onRequestAbort.length > 0) watchAbort(route, request, reply)
  if (route.handlerTimeout > 0) watchHandlerTimeout(route.handlerTimeout, request, reply)
  if (route.hooks.onRequest.length === 0) { preParsing(request, reply); return }
  if (reply.trace !== null) openPhase(reply.trace, 'onRequest', request, reply)
  runRequestHooks(route.hooks.onRequest, route.server, request, reply, afterOnRequest)
}

// the continuations after each request-hook phase: shared functions, no closure per request
function afterOnRequest (err: Error | null, request: RequestBase, reply: ReplyBase): void {
  if (reply.trace !== null) closePhase(reply.trace, err)
  if (err !== null) { failWith(reply, err); return }
  preParsing(request, reply)
}

function afterPreValidation (err: Error | null, request: RequestBase, reply: ReplyBase): void {
  if (reply.trace !== null) closePhase(reply.trace, err)
  if (err !== null) { failWith(reply, err); return }
  validate(request, reply)
}

function afterPreHandler (err: Error | null, request: RequestBase, reply: ReplyBase): void {
  if (reply.trace !== null) {
    closePhase(reply.trace, err)
    // Fastify 5: a preHandler error is published on the handler channel (start, error, end)
    if (reply.trace.handler && !reply.routeContext.is404) { tracedHandler(err, request, reply); return }
  }
  if (err !== null) { failWith(reply, err); return }
  callHandler(request, reply)
}

function failWith (reply: ReplyBase, err: unknown): void {
  reply.isError = true
  reply.send(err)
}

function preParsing (request: RequestBase, reply: ReplyBase): void {
  const hooks = reply.routeContext.hooks.preParsing
  if (hooks.length === 0) { readBody(request, reply, request.raw); return }
  if (reply.trace !== null) openPhase(reply.trace, 'preParsing', request, reply)
  runValueHooks(hooks, reply.routeContext.server, request, reply, request.raw, (err, payload) => {
    if (reply.trace !== null) closePhase(reply.trace, err)
    if (err !== null) { failWith(reply, err); return }
    if (reply.sent) return
    const stream = payload as Readable & { receivedEncodedLength?: number }
    readBody(request, reply, stream)
  })
}

function readBody (request: RequestBase, reply: ReplyBase, payload: Readable): void {
  const method = request.raw.method as string
  const env = reply.routeContext.env
  // GET and HEAD have no body parsed (unless a Fastify 5 application gave one a body with addHttpMethod):
  // decided without reading headers (node builds req.headers on first read)
  if ((method === 'GET' || method === 'HEAD') && env.methods.getAndHeadBodyless) { preValidation(request, reply); return }
  if (env.line === 4) {
    if (!shouldParseBody(method, request.raw.headers)) { preValidation(request, reply); return }
  } else {
    const body = env.methods.bodywith.has(method) ? bodyOfV5(method, request.raw.headers) : 'none'
    if (body === 'none') { preValidation(request, reply); return }
    if (body === 'missing-content-type') { reply.code(400).send(new errorCodesAddedInV5.FST_ERR_ROUTE_MISSING_CONTENT_TYPE(method)); return }
  }
  if (reply.trace !== null) openPhase(reply.trace, 'parsing', request, reply)
  parseBody(request, payload, reply.routeContext.parsers, reply.routeContext.bodyLimit, (err, body) => {
    if (reply.trace !== null) closePhase(reply.trace, err)
    if (err !== null) {
      // a request no route matches is a 404 whatever its content type (Fastify 4.29): the body is left unread
      const unsupported = (err as { code?: string }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
      if (reply.routeContext.is404 && unsupported) { preValidation(request, reply); return }
      // the client may still be sending the body: Fastify 5 closes the connection after any error
      // of the parsing step but an unsupported media type (the body is then never read); Fastify 4
      // only after a declared length over the limit (body.ts marks those errors)
      if ((env.line === 5 && !unsupported) || (err as { [kCloseConnection]?: boolean })[kCloseConnection] === true) reply.header('connection', 'close')
      failWith(reply, err)
      return
    }
    request.body = body
    preValidation(request, reply)
  })
}

function preValidation (request: RequestBase, reply: ReplyBase): void {
  if (reply.sent) return
  const hooks = reply.routeContext.hooks.preValidation
  if (hooks.length === 0) { validate(request, reply); return }
  if (reply.trace !== null) openPhase(reply.trace, 'preValidation', request, reply)
  runRequestHooks(hooks, reply.routeContext.server, request, reply, afterPreValidation)
}

function validate (request: RequestBase, reply: ReplyBase): void {
  const route = reply.routeContext
  if (route.validates) {
    const trace = reply.trace
    if (trace !== null) openPhase(trace, 'validation', request, reply)
    let error: Error | null | Promise<Error | null>
    try {
      error = validateRequestParts(route.validators, request, route.schemaErrorFormatter)
    } catch (err) {
      if (trace !== null) closePhase(trace, err)
      failWith(reply, err)
      return
    }
    if (error instanceof Promise) {
      error.then((e) => {
        if (trace !== null) closePhase(trace, e)
        if (validated(request, reply, e)) preHandler(request, reply)
      }, (err) => {
        if (trace !== null) closePhase(trace, err)
        failWith(reply, err)
      })
      return
    }
    if (trace !== null) closePhase(trace, error)
    if (error !== null && !validated(request, reply, error)) return
  }
  preHandler(request, reply)
}

/** Applies a validation outcome; false when the request ended with it. Async validators go on from here. */
function validated (request: RequestBase, reply: ReplyBase, error: Error | null): boolean {
  if (error !== null) {
    if (reply.routeContext.attachValidation) request.validationError = error
    else { failWith(reply, error); return false }
  }
  return true
}

function preHandler (request: RequestBase, reply: ReplyBase): void {
  const hooks = reply.routeContext.hooks.preHandler
  if (hooks.length === 0) { callHandler(request, reply); return }
  if (reply.trace !== null) openPhase(reply.trace, 'preHandler', request, reply)
  runRequestHooks(hooks, reply.routeContext.server, request, reply, afterPreHandler)
}

/**
 * `reply.callNotFound()`: the request goes on with the 404 route for its URL, from the preHandler
 * step (its body was parsed and validated for the route it came from).
 */
export function callNotFound (reply: ReplyBase): void {
  const current = reply.routeContext
  if (current.is404) {
    reply.log.warn('Trying to send a NotFound error inside a 404 handler. Sending basic 404 response.')
    reply.code(404).send('404 Not Found')
    return
  }
  const route = current.notFound ?? current.env.notFoundFor(reply.request.raw.url ?? '/')
  reply.request.routeContext = route
  reply.routeContext = route
  preHandler(reply.request, reply)
}

function callHandler (request: RequestBase, reply: ReplyBase): void {
  if (reply.sent) return
  const route = reply.routeContext
  if (reply.trace !== null && reply.trace.handler && !route.is404) { tracedHandler(null, request, reply); return }
  let result: unknown
  try {
    result = route.handler.call(route.server, request, reply)
  } catch (err) {
    failWith(reply, err)
    return
  }
  if (result === undefined) return
  if (result !== null && typeof (result as PromiseLike<unknown>).then === 'function') {
    if (result === reply) return
    ;(result as PromiseLike<unknown>).then((payload) => {
      if (reply.hijacked) return
      if (payload !== undefined || (!reply.sent && !reply.raw.headersSent && !request.raw.aborted)) {
        try { reply.send(payload) } catch (err) { failWith(reply, err) }
      }
    }, (err: unknown) => {
      if (reply.sent) { reply.log.error({ err }, 'Promise errored, but reply.sent = true was set'); return }
      failWith(reply, err)
    })
    return
  }
  try { reply.send(result) } catch (err) { failWith(reply, err) }
}

/**
 * The handler of a traced request, published on `tracing:fastify.request.handler` in Fastify 5's
 * order: start (the handler runs inside `start.runStores`), then end when it returns; a throw
 * publishes error before end; a promise adds asyncStart and asyncEnd around what follows its
 * settling, and a rejection publishes error before them. A 404 route publishes nothing.
 */
function tracedHandler (err: Error | null, request: RequestBase, reply: ReplyBase): void {
  if (reply.sent) return
  // the route's one `{ url, method }` object, as the request channel gives it
  const message: HandlerMessage = { request, reply, async: false, route: routeInfo(reply.routeContext)! }
  handlerChannel.start.runStores(message, runTracedHandler, undefined, err, request, reply, message)
}

/**
 * Publishes a handler error with the status the response will have (Fastify 5 sets it before
 * publishing: the error's 4xx/5xx `statusCode` or `status`, else 500, unless a status was set).
 */
function publishHandlerError (reply: ReplyBase, message: HandlerMessage): void {
  if (!reply.hasStatusCode || reply.statusCode === 200) {
    const error = message.error as { statusCode?: unknown, status?: unknown } | null | undefined
    reply.code(errorStatus(error?.statusCode) ?? errorStatus(error?.status) ?? 500)
  }
  handlerChannel.error.publish(message)
}

function errorStatus (code: unknown): number | undefined {
  return typeof code === 'number' && code >= 400 && code <= 599 ? code : undefined
}

function runTracedHandler (err: Error | null, request: RequestBase, reply: ReplyBase, message: HandlerMessage): void {
  try {
    if (err !== null) {
      message.error = err
      publishHandlerError(reply, message)
      failWith(reply, err)
      return
    }
    const route = reply.routeContext
    let result: unknown
    try {
      result = route.handler.call(route.server, request, reply)
    } catch (thrown) {
      message.error = thrown
      publishHandlerError(reply, message)
      failWith(reply, thrown)
      return
    }
    if (result === undefined) return
    if (result !== null && typeof (result as PromiseLike<unknown>).then === 'function') {
      message.async = true
      if (result === reply) {
        // `return reply`: settles when the response is out (Fastify 5 waits on it as on any thenable)
        reply.then(() => { handlerChannel.asyncStart.publish(message); handlerChannel.asyncEnd.publish(message) })
        return
      }
      ;(result as PromiseLike<unknown>).then((payload) => {
        if (reply.hijacked) return
        handlerChannel.asyncStart.publish(message)
        try {
          if (payload !== undefined || (!reply.sent && !reply.raw.headersSent && !request.raw.aborted)) {
            try { reply.send(payload) } catch (e) { failWith(reply, e) }
          }
        } finally {
          handlerChannel.asyncEnd.publish(message)
        }
      }, (rejected: unknown) => {
        message.error = rejected
        publishHandlerError(reply, message)
        handlerChannel.asyncStart.publish(message)
        try {
          if (reply.sent) { reply.log.error({ err: rejected }, 'Promise errored, but reply.sent = true was set'); return }
          failWith(reply, rejected)
        } finally {
          handlerChannel.asyncEnd.publish(message)
        }
      })
      return
    }
    try { reply.send(result) } catch (e) { failWith(reply, e) }
  } finally {
    handlerChannel.end.publish(message)
  }
}

/**
 * onResponse hooks and the "request completed" log line, when the response has been written. A
 * route without onResponse hooks, with request logging off, needs no 'finish' listener at all
 * (closing idle connections while the server closes is done per server, see ./closing.ts). An error
 * emitted on the response (a write after end) must still be dropped as it would be with the hooks,
 * never thrown: trellis's node:http(s) responses guard themselves (server/guarded-response.ts);
 * any other response (inject, HTTP/2, serverFactory) gets one shared 'error' listener.
 */
function watchResponse (reply: ReplyBase): void {
  const res = reply.raw
  if (reply.routeContext.hooks.onResponse.length === 0 && reply.routeContext.env.quietRequests) {
    // trellis's own node:http(s) responses guard themselves (server/guarded-response.ts)
    dropWriteAfterEndErrors(res)
    return
  }
  const onFinished = (err?: Error): void => {
    reply.endTime = perf.now()
    res.removeListener('finish', onFinished)
    res.removeListener('error', onFinished)
    // a traced request ends before its onResponse hooks and its 'request completed' line
    if (reply.trace !== null) endRequest(reply.trace)
    const hooks = reply.routeContext.hooks.onResponse
    // a failing onResponse hook stops the others and the request is logged as errored (Fastify 4.3)
    const complete = (hookErr: Error | null): void => {
      const env = reply.routeContext.env
      if (!env.quietRequests) env.logController.requestCompleted(hookErr ?? err, reply.request, reply)
    }
    if (hooks.length === 0) { complete(null); return }
    const trace = reply.trace
    if (trace === null) { runResponseHooks(hooks, reply.routeContext.server, reply.request, reply, complete); return }
    openPhase(trace, 'onResponse', reply.request, reply)
    runResponseHooks(hooks, reply.routeContext.server, reply.request, reply, (hookErr) => {
      closePhase(trace, hookErr)
      complete(hookErr)
    })
  }
  res.on('finish', onFinished)
  res.on('error', onFinished)
}

/** onRequestAbort hooks (Fastify 4.29): the client closed the connection before the response was complete. */
function watchAbort (route: RouteContext, request: RequestBase, reply: ReplyBase): void {
  const req = request.raw
  if (typeof req.once !== 'function') return
  req.once('close', () => {
    if (!req.aborted) return
    runAbortHooks(route.hooks.onRequestAbort, route.server, request, (err) => {
      if (err !== null) reply.log.error({ err }, 'onRequestAborted hook failed')
    })
  })
}

function watchTimeout (route: RouteContext, request: RequestBase, reply: ReplyBase): void {
  const socket = request.raw.socket
  if (socket === null || socket === undefined || typeof socket.once !== 'function') return
  const onTimeout = (): void => {
    runNotifyHooks(route.hooks.onTimeout, route.server, [request, reply], (err) => {
      reply.log.error({ err }, 'onTimeout hook failed')
    }, () => {})
  }
  socket.once('timeout', onTimeout)
  reply.raw.once('finish', () => socket.removeListener('timeout', onTimeout))
}
