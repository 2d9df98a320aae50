/**
 * The fetch transport: `(Request, ...context) => Promise<Response>` over the request path. The
 * Request becomes the raw request (./fetch-request.ts), the request path answers on a raw
 * response (./fetch-response.ts) whose Response this returns. When the Request's signal aborts
 * before the exchange is over and something observes it (./fetch-request.ts arms the watch), the
 * raw request is marked aborted and emits 'aborted' and 'close' (what onRequestAbort hooks and
 * `request.signal` listen to, as for a socket that closes), and the response is destroyed: a
 * Response not yet made rejects, a body being sent errors.
 */
import type { Dispatch, TransportRequest, TransportResponse } from './contract'
import { FetchIncomingMessage, splitRequestUrl, type RequestUrl } from './fetch-request'
import { FetchServerResponse } from './fetch-response'

const NativeRequest: typeof Request | undefined = typeof Request === 'function' ? Request : undefined

/** The runtime's own Request (the common case, one check), or an object shaped like one (a polyfill's, another realm's). */
export function isFetchRequest (value: unknown): value is Request {
  if (NativeRequest !== undefined && value instanceof NativeRequest) return true
  return value !== null && typeof value === 'object' && typeof (value as Request).url === 'string' &&
    typeof (value as Request).method === 'string' && typeof (value as Request).headers?.forEach === 'function'
}

export function serveFetch (dispatch: Dispatch, request: Request, context: readonly unknown[]): Promise<Response> {
  const url = splitRequestUrl(request.url)
  if (url === null) return notHttp(request)
  return exchange(dispatch, request, url, context, false).response
}

/**
 * The handler Bun.serve and Deno.serve call (./runtime-server.ts): the Response itself when the
 * request path answered before dispatch returned (both servers take one; a Promise costs them a
 * turn), else its Promise; the Response carries no Content-Length for a body given whole (the
 * runtime's server writes it).
 */
export function serveNative (dispatch: Dispatch, request: Request, info: unknown): Response | Promise<Response> {
  const url = splitRequestUrl(request.url)
  if (url === null) return notHttp(request)
  const res = exchange(dispatch, request, url, [info], true)
  return res.made ?? res.response
}

/** A Request whose URL has no http(s) authority: nothing to serve. */
function notHttp (request: Request): Promise<never> {
  return Promise.reject(new TypeError(`app.fetch() serves http(s) URLs, not ${request.url}`))
}

function exchange (dispatch: Dispatch, request: Request, url: RequestUrl, context: readonly unknown[], native: boolean): FetchServerResponse {
  const req = new FetchIncomingMessage(request, url, context)
  const res = new FetchServerResponse(req)
  res.runtimeSetsLength = native
  req.res = res
  try {
    dispatch(req as unknown as TransportRequest, res as unknown as TransportResponse)
  } catch (err) {
    res.destroy(err as Error)
  }
  return res
}
