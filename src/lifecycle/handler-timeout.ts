/**
 * Fastify 5's `handlerTimeout`: a request not answered within the route's time gets a 503
 * (FST_ERR_HANDLER_TIMEOUT, through the route's error handler) and `request.signal` aborts with that
 * error. The timeout is cooperative: the handler keeps running; it can watch `request.signal`.
 * A response that has started is destroyed instead; a hijacked or sent one is left alone.
 * The timer and the close listener are dropped when the response finishes.
 */
import { errorCodesAddedInV5 } from '../base/errors-v5'
import type { RequestBase } from './request'
import type { ReplyBase } from './reply'

/** The state a request of a route with a handler timeout carries (null once the response finished). */
export interface HandlerTimeoutState {
  abortController?: AbortController
  handlerTimer?: ReturnType<typeof setTimeout> | null
  onAbort?: (() => void) | null
}

export function watchHandlerTimeout (ms: number, request: RequestBase, reply: ReplyBase): void {
  const state = request as RequestBase & HandlerTimeoutState
  const controller = new AbortController()
  state.abortController = controller
  const timer = setTimeout(() => {
    if (reply.sent) return
    const err = new errorCodesAddedInV5.FST_ERR_HANDLER_TIMEOUT(ms, reply.routeContext.config.url)
    controller.abort(err)
    // a signal listener may have answered already
    if (reply.sent) return
    reply.isError = true
    if (reply.raw.headersSent) { reply.raw.destroy(err); return }
    reply.send(err)
  }, ms)
  const onAbort = (): void => {
    clearTimeout(timer)
    if (!controller.signal.aborted) controller.abort()
  }
  state.handlerTimer = timer
  state.onAbort = onAbort
  request.raw.once('close', onAbort)
  reply.raw.once('finish', () => {
    clearTimeout(timer)
    request.raw.removeListener('close', onAbort)
    state.handlerTimer = null
    state.onAbort = null
  })
}
