/**
 * The 404 answer of a 404 route nothing can observe: the default handler, no hooks of any kind in
 * its context, no reply serializer, no child logger factory and trellis's silent logger (so neither
 * 'incoming request' nor the handler's "Route ... not found" line is written). Such a request is
 * answered directly, byte for byte what the full request path would write (status 404,
 * `content-type: application/json; charset=utf-8`, `content-length`, the JSON body; no body for
 * HEAD), without building a Request and a Reply. The request id is still generated: a custom
 * `genReqId` sees every request, as before.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RouteContext } from './route-context'
import { dropWriteAfterEndErrors } from '../server/guarded-response'
import { basicNotFoundPayload } from './not-found-payload'

const JSON_TYPE = 'application/json; charset=utf-8'

export function answerPlainNotFound (route: RouteContext, req: IncomingMessage, res: ServerResponse): void {
  route.genReqId(req)
  // what watchResponse does for a response that does not guard itself (inject, HTTP/2, serverFactory)
  dropWriteAfterEndErrors(res)
  const method = req.method ?? 'GET'
  const payload = JSON.stringify(basicNotFoundPayload(method, req.url ?? '/'))
  res.writeHead(404, { 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(payload)) })
  if (method === 'HEAD') res.end()
  else res.end(payload)
}
