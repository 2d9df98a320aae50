/** The `serverFactory` option: builds the server from trellis's request handler. */
import type * as http from 'node:http'
import type * as https from 'node:https'
import type * as http2 from 'node:http2'
import type { RawServerBase, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression } from './utils'

export type ServerFactoryHandler<
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>
> = RawServer extends http.Server | https.Server
  ? (request: http.IncomingMessage & RawRequest, response: http.ServerResponse & RawReply) => void
  : (request: http2.Http2ServerRequest & RawRequest, response: http2.Http2ServerResponse & RawReply) => void

export interface ServerFactory<RawServer extends RawServerBase = RawServerDefault> {
  (handler: ServerFactoryHandler<RawServer>, opts: Record<string, unknown>): RawServer
}

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { ServerFactory as FastifyServerFactory, ServerFactoryHandler as FastifyServerFactoryHandler }
