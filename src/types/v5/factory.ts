/** The type of `trellis/v5`'s factory: the server type follows the options (HTTP/2 with TLS, HTTP/2, HTTPS, HTTP/1). */
import type * as http from 'node:http'
import type * as https from 'node:https'
import type * as http2 from 'node:http2'
import type { errorCodesV5 } from '../../base/errors-v5'
import type { FastifyInstance } from './instance'
import type { FastifyBaseLogger } from './logger'
import type { FastifyHttp2Options, FastifyHttp2SecureOptions, FastifyHttpOptions, FastifyHttpsOptions } from './server-options'
import type { FastifyTypeProvider, FastifyTypeProviderDefault, SafePromiseLike } from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression } from './utils'

/** `errorCodes` of the v5 line: Fastify 4's codes and the ones Fastify 5 added. */
export type FastifyErrorCodes = typeof errorCodesV5

type Created<Server extends http.Server | https.Server | http2.Http2Server | http2.Http2SecureServer, Request extends RawRequestDefaultExpression<Server>, Reply extends RawReplyDefaultExpression<Server>, Logger extends FastifyBaseLogger, TypeProvider extends FastifyTypeProvider> =
  FastifyInstance<Server, Request, Reply, Logger, TypeProvider> & SafePromiseLike<FastifyInstance<Server, Request, Reply, Logger, TypeProvider>>

export interface FastifyV5Factory {
  <Server extends http2.Http2SecureServer, Request extends RawRequestDefaultExpression<Server> = RawRequestDefaultExpression<Server>, Reply extends RawReplyDefaultExpression<Server> = RawReplyDefaultExpression<Server>, Logger extends FastifyBaseLogger = FastifyBaseLogger, TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault>(
    opts: FastifyHttp2SecureOptions<Server, Logger>): Created<Server, Request, Reply, Logger, TypeProvider>
  <Server extends http2.Http2Server, Request extends RawRequestDefaultExpression<Server> = RawRequestDefaultExpression<Server>, Reply extends RawReplyDefaultExpression<Server> = RawReplyDefaultExpression<Server>, Logger extends FastifyBaseLogger = FastifyBaseLogger, TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault>(
    opts: FastifyHttp2Options<Server, Logger>): Created<Server, Request, Reply, Logger, TypeProvider>
  <Server extends https.Server, Request extends RawRequestDefaultExpression<Server> = RawRequestDefaultExpression<Server>, Reply extends RawReplyDefaultExpression<Server> = RawReplyDefaultExpression<Server>, Logger extends FastifyBaseLogger = FastifyBaseLogger, TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault>(
    opts: FastifyHttpsOptions<Server, Logger>): Created<Server, Request, Reply, Logger, TypeProvider>
  <Server extends http.Server, Request extends RawRequestDefaultExpression<Server> = RawRequestDefaultExpression<Server>, Reply extends RawReplyDefaultExpression<Server> = RawReplyDefaultExpression<Server>, Logger extends FastifyBaseLogger = FastifyBaseLogger, TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault>(
    opts?: FastifyHttpOptions<Server, Logger>): Created<Server, Request, Reply, Logger, TypeProvider>
  /** The same factory (`import { fastify } from 'trellis/v5'`, `require('trellis/v5').default`). */
  readonly fastify: FastifyV5Factory
  readonly trellis: FastifyV5Factory
  readonly default: FastifyV5Factory
  readonly errorCodes: FastifyErrorCodes
}
