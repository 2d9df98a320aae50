/**
 * `setGenReqId` (Fastify 4.29): a context's own request-id generator, inherited by its descendants
 * (unless they set their own) and by the routes and 404 handlers defined in them. Routes resolve it
 * once when they are built, so a request pays one call, as with the server-wide `genReqId`.
 */
import type { IncomingMessage } from 'node:http'
import type { Context } from './context'

type GenReqId = (req: IncomingMessage) => string

const own = new WeakMap<Context, GenReqId>()

/** Sets `context`'s generator; like the `genReqId` option, the `requestIdHeader` still wins when present. */
export function setContextGenReqId (context: Context, fn: GenReqId): void {
  const header = context.root.options.requestIdHeader
  const instance = context.instance
  own.set(context, (req) => {
    if (header !== false) {
      const value = req.headers[header]
      if (typeof value === 'string' && value !== '') return value
    }
    return fn.call(instance, req)
  })
}

/** The generator requests of `context`'s routes use: its own, else the nearest ancestor's, else the server's. */
export function contextGenReqId (context: Context): GenReqId {
  for (let c: Context | null = context; c !== null; c = c.parent) {
    const fn = own.get(c)
    if (fn !== undefined) return fn
  }
  return context.root.genReqId
}
