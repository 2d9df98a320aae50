/**
 * Fastify's `lib/request.js` on trellis, for one line: the `Request` constructor code may call by hand,
 * `new Request(id, params, req, query, log, context)`, where `context` is Fastify's route context (a
 * plain object, or nothing), not trellis's. Such a request answers as Fastify's: `ip` is the socket's
 * address, `protocol` `http` or `https` from the socket, `hostname` (and on the Fastify 5 line `host`
 * and `port`) from the Host header, `request[kRouteContext]` is the object given; `server` and the
 * route accessors read that object.
 *
 * The module is the line's request class in all but its constructor: `Request.prototype` is the
 * prototype every request of the line derives from (so `request instanceof Request` holds for the
 * requests of every route, and a method added to it reaches them all, as in Fastify), and `new
 * Request(...)` builds an instance of the line's class around a view of the context that adds what
 * trellis's accessors read (no proxy trusted). The requests trellis makes for its routes never pass
 * through this constructor: it costs them nothing.
 *
 * `buildRequest(Request, trustProxy)` gives the same constructor trusting proxies as the `trustProxy`
 * option does (its instances are instances of the `Request` given).
 */
import type { IncomingMessage } from 'node:http'
import type { FastifyLine } from '../../base/version'
import { detachedEnv, kFastifyRouteContext } from '../../lifecycle/detached-route-context'
import type { RequestBase } from '../../lifecycle/request'
import type { RequestEnv, RouteContext } from '../../lifecycle/route-context'
import type { Logger } from '../../server/logger'
import { compileTrust } from '../../server/proxy'

type LineRequestClass = new (id: string, params: Record<string, string>, raw: IncomingMessage, query: unknown, log: Logger, context: RouteContext) => RequestBase

export interface HandMadeRequest {
  new (id: string, params: unknown, raw: unknown, query?: unknown, log?: unknown, context?: unknown): RequestBase
  (this: unknown, ...args: unknown[]): RequestBase
  prototype: RequestBase
  buildRequest: (base: HandMadeRequest | (abstract new (...args: any[]) => unknown), trustProxy?: unknown) => HandMadeRequest
}

/** trellis's route context of a request made by hand: the given one when it is trellis's, else a view of it with `env`. */
function viewOf (context: unknown, env: RequestEnv): RouteContext {
  if (context !== null && typeof context === 'object' && (context as { env?: unknown }).env !== undefined) return context as RouteContext
  const base = context !== null && typeof context === 'object' ? context : {}
  return Object.create(base, { env: { value: env } }) as RouteContext
}

/** A constructor (called with `new`, or as `super(...)` of a subclass) building `LineRequest`s around `env`. */
function constructorFor (LineRequest: LineRequestClass, env: RequestEnv, prototype: object, statics: object): HandMadeRequest {
  const Request = function Request (this: unknown, id: string, params: Record<string, string>, raw: IncomingMessage, query: unknown, log: Logger, context: unknown): RequestBase {
    if (new.target === undefined) throw new TypeError("Class constructor Request cannot be invoked without 'new'")
    const request = Reflect.construct(LineRequest, [id, params, raw, query, log, viewOf(context, env)], new.target) as RequestBase
    // Fastify keeps the route context given under kRouteContext (an own field of the request)
    Object.defineProperty(request, kFastifyRouteContext, { value: context, writable: true, enumerable: true, configurable: true })
    return request
  } as unknown as HandMadeRequest
  Request.prototype = prototype as RequestBase
  Object.setPrototypeOf(Request, statics)
  return Request
}

/** The `lib/request` module of `line`: see the file's comment. */
export function handMadeRequestModule (line: FastifyLine, LineRequest: LineRequestClass): HandMadeRequest {
  const Request = constructorFor(LineRequest, detachedEnv(line), LineRequest.prototype, LineRequest)
  Request.buildRequest = function buildRequest (base, trustProxy) {
    const trust = compileTrust(trustProxy, line)
    const env = trust === null ? detachedEnv(line) : { ...detachedEnv(line), trustProxy: trust }
    const from = typeof base === 'function' && typeof base.prototype === 'object' && base.prototype instanceof Object ? base : Request
    const built = constructorFor(LineRequest, env, Object.create(from.prototype as object), from)
    built.buildRequest = Request.buildRequest
    return built
  }
  return Request
}
