/**
 * Request ids: the `requestIdHeader` wins when the request carries it (a non-empty string), else
 * the generator runs (the `genReqId` option, or a context's `setGenReqId`, called on its instance).
 */
import type { IncomingMessage } from 'node:http'

export type GenReqId = (req: IncomingMessage) => string

/** `gen` behind the request-id header (`header === false`: the generator alone, `this` as given). */
export function withRequestIdHeader (header: string | false, gen: GenReqId, thisArg?: unknown): GenReqId {
  if (header === false) return thisArg === undefined ? gen : (req) => gen.call(thisArg, req)
  // node has built req.headers before the request listener runs (it reads `host` and `expect`
  // itself), so reading the header from it costs one property lookup
  return (req) => {
    const value = req.headers[header]
    return typeof value === 'string' && value !== '' ? value : gen.call(thisArg, req)
  }
}
