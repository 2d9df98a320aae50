/**
 * The fetch transport: `(Request, ...context) => Promise<Response>` over the request path. The
 * Request becomes the raw request (./fetch-request.ts), the request path answers on a raw
 * response (./fetch-response.ts) whose Response this returns. When the Request's signal aborts
 * before the exchange is over, the raw request is marked aborted and emits 'aborted' and 'close'
 * (what onRequestAbort hooks and `request.signal` listen to, as for a socket that closes), and
 * the response is destroyed: a Response not yet made rejects, a body being sent errors.
 */
import type { Dispatch, TransportRequest, TransportResponse } from './contract'
import { FetchIncomingMessage, splitRequestUrl } from './fetch-request'
import { FetchServerResponse } from './fetch-response'

export function isFetchRequest (value: unknown): value is Request {
  return value !== null && typeof value === 'object' && typeof (value as Request).url === 'string' &&
    typeof (value as Request).method === 'string' && typeof (value as Request).headers?.forEach === 'function'
}

export function serveFetch (dispatch: Dispatch, request: Request, context: readonly unknown[]): Promise<Response> {
  const url = splitRequestUrl(request.url)
  if (url === null) return Promise.reject(new TypeError(`app.fetch() serves http(s) URLs, not ${request.url}`))
  const req = new FetchIncomingMessage(request, url, context)
  const res = new FetchServerResponse(req)
  // the exchange is over when the response has been written or torn down: the request says so, as node's does
  res.once('close', () => { if (!req.destroyed) req.destroy() })
  const signal = request.signal as AbortSignal | undefined
  if (signal !== undefined && signal !== null) {
    if (signal.aborted) abort(req, res)
    else {
      const onAbort = (): void => { abort(req, res) }
      signal.addEventListener('abort', onAbort, { once: true })
      res.once('close', () => { signal.removeEventListener('abort', onAbort) })
    }
  }
  // a request the request path destroys (a non-string rewriteUrl) is a failed exchange
  req.once('error', (err) => { if (!res.destroyed) res.destroy(err) })
  try {
    dispatch(req as unknown as TransportRequest, res as unknown as TransportResponse)
  } catch (err) {
    res.destroy(err as Error)
  }
  return res.response
}

function abort (req: FetchIncomingMessage, res: FetchServerResponse): void {
  if (res.writableFinished || req.aborted) return
  req.aborted = true
  req.emit('aborted')
  req.destroy()
  res.destroy()
}
