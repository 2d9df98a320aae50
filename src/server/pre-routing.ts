/**
 * What happens to a raw request before the router sees it: the HTTP version check (a version the
 * server does not serve is answered 505: HTTP/1.x for node:http(s), HTTP/2 for http2 servers, plus
 * HTTP/1.x with `https.allowHTTP1`; skipped with a custom `serverFactory`), then the `rewriteUrl`
 * option (a non-string result destroys the request with FST_ERR_ROUTE_REWRITE_NOT_STR instead of
 * routing it; the URL before the rewrite stays readable as `request.originalUrl`), then the Host
 * and framing rules node's parser does not enforce (request-framing.ts; the `strictHostAndFraming`
 * option), on the request as received: a broken one goes to `refuse` instead of the router.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { errorCodes } from '../base/errors'
import type { ResolvedOptions } from '../base/option-types'
import type { Logger } from './logger'
import { framingFault, type FramingFault } from './request-framing'
import { publishEarlyAnswer } from './early-answer'

const VERSION_NOT_SUPPORTED = '{"error":"HTTP Version Not Supported","message":"HTTP Version Not Supported","statusCode":505}'

function supportedHttpVersions (options: ResolvedOptions): Set<string> | null {
  if (options.serverFactory !== undefined) return null
  if (!options.http2) return new Set(['1.0', '1.1'])
  const allowHTTP1 = options.https !== null && options.https.allowHTTP1 === true
  return new Set(allowHTTP1 ? ['2.0', '1.0', '1.1'] : ['2.0'])
}

type Dispatch = (req: IncomingMessage, res: ServerResponse) => void
/** Answers a request that breaks a Host or framing rule (routing/dispatch.ts: the framework-error 400). */
export type Refuse = (fault: FramingFault, req: IncomingMessage, res: ServerResponse) => void

export function withPreRouting (options: ResolvedOptions, log: Logger, owner: unknown, dispatch: Dispatch, refuse: Refuse): Dispatch {
  const versions = supportedHttpVersions(options)
  const rewriteUrl = options.rewriteUrl
  const strict = options.strictHostAndFraming
  // node's own option to serve requests without Host (Fastify's `http` / `https` options pass it on)
  const nodeOptions = (options.https ?? options.input.http ?? {}) as { requireHostHeader?: unknown }
  const hostRequired = nodeOptions.requireHostHeader !== false
  return (req, res) => {
    if (versions !== null && !versions.has(req.httpVersion)) {
      publishEarlyAnswer(req, res, owner, null)
      res.writeHead(505, { 'content-type': 'application/json', 'content-length': String(VERSION_NOT_SUPPORTED.length) })
      res.end(VERSION_NOT_SUPPORTED)
      return
    }
    if (strict) {
      const fault = framingFault(req, hostRequired)
      if (fault !== null) { refuse(fault, req, res); return }
    }
    if (rewriteUrl !== undefined) {
      const originalUrl = req.url
      // Fastify 4.29: request.originalUrl reads the URL before the rewrite
      ;(req as IncomingMessage & { originalUrl?: string }).originalUrl = originalUrl
      const url: unknown = rewriteUrl.call(owner, req)
      if (url !== originalUrl) {
        if (typeof url !== 'string') {
          req.destroy(new errorCodes.FST_ERR_ROUTE_REWRITE_NOT_STR(String(originalUrl), typeof url))
          return
        }
        log.debug({ originalUrl, url }, 'rewrite url')
        req.url = url
      }
    }
    dispatch(req, res)
  }
}
