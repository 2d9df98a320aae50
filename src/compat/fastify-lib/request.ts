/**
 * Fastify 5's `lib/request.js` on trellis. The module is the base class of every trellis request
 * (`request instanceof Request` holds for requests of both lines); `buildRequest(Request, trustProxy)`
 * gives Fastify 5's request class (trellis' RequestV5) reading `ip`, `host` and `protocol` through
 * the `trustProxy` option compiled by trellis, for requests made outside a route.
 */
import type { IncomingMessage } from 'node:http'
import { RequestBase, RequestV5 } from '../../lifecycle/request'
import type { RouteContext } from '../../lifecycle/route-context'
import type { Logger } from '../../server/logger'
import { compileTrust } from '../../server/proxy'

function buildRequest (_base: unknown, trustProxy?: unknown): typeof RequestV5 {
  const context = { env: { trustProxy: compileTrust(trustProxy, 5) } } as unknown as RouteContext
  return class Request extends RequestV5 {
    constructor (id: string, params: Record<string, string>, raw: IncomingMessage, query: unknown, log: Logger, routeContext?: RouteContext) {
      super(id, params, raw, query, log, routeContext ?? context)
    }
  }
}

export = Object.assign(RequestBase, { buildRequest })
