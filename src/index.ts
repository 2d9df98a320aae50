/**
 * trellis: the factory and the public surface.
 *
 *   import trellis from 'trellis'          // or: const trellis = require('trellis')
 *   const app = trellis({ logger: true })
 */
import { createApp } from './instance/create-app'
import type * as http from 'node:http'
import type * as https from 'node:https'
import type * as http2 from 'node:http2'
import type { TrellisInstance } from './types/instance'
import type { RawRequestDefaultExpression, RawReplyDefaultExpression } from './types/utils'
import type { BaseLogger, LoggerInstance } from './types/logger'
import type { TypeProvider, TypeProviderDefault } from './types/type-provider'
import type { TrellisOptions, HttpsOptions, Http2Options, Http2SecureOptions } from './types/server-options'
import { errorCodes } from './base/errors'
import { VERSION } from './base/version'

export * from './types/public'
export type { Logger } from './server/logger'
export type { SchemaToType, SchemaMode, SchemaDepth } from './types/schema-to-type'
/**
 * Shared schemas (added at run time with `addSchema`) by `$id`, for typing `$ref`. Extend it once:
 *
 *   const user = { $id: 'user', type: 'object', properties: { name: { type: 'string' } } } as const
 *   declare module 'trellis' { interface SchemaRegistry { user: typeof user } }
 *
 * Declared here, in the entry module itself (not re-exported), so that an augmentation reaches it
 * from ES modules and from CommonJS alike.
 */
export interface SchemaRegistry {}
export type { ErrorCode, TrellisErrorClass, TrellisErrorInstance } from './base/errors'
export { errorCodes, createError } from './base/errors'
export { VERSION as version }

/** The instance the factory returns: typed by server, request, reply, logger and type provider; awaitable while loading. */
type Created<Server extends http.Server | https.Server | http2.Http2Server | http2.Http2SecureServer, Request extends RawRequestDefaultExpression<Server>, Reply extends RawReplyDefaultExpression<Server>, Logger extends LoggerInstance, Provider extends TypeProvider> =
  TrellisInstance<Server, Request, Reply, Logger, Provider> & PromiseLike<TrellisInstance<Server, Request, Reply, Logger, Provider>>

/** Creates a root context (a server instance): HTTP/2 with TLS, HTTP/2, HTTPS or (by default) HTTP/1. */
function trellis<Server extends http2.Http2SecureServer, Request extends RawRequestDefaultExpression<Server> = RawRequestDefaultExpression<Server>, Reply extends RawReplyDefaultExpression<Server> = RawReplyDefaultExpression<Server>, Logger extends BaseLogger = LoggerInstance, Provider extends TypeProvider = TypeProviderDefault> (options: Http2SecureOptions<Server, Logger>): Created<Server, Request, Reply, Logger, Provider>
function trellis<Server extends http2.Http2Server, Request extends RawRequestDefaultExpression<Server> = RawRequestDefaultExpression<Server>, Reply extends RawReplyDefaultExpression<Server> = RawReplyDefaultExpression<Server>, Logger extends BaseLogger = LoggerInstance, Provider extends TypeProvider = TypeProviderDefault> (options: Http2Options<Server, Logger>): Created<Server, Request, Reply, Logger, Provider>
function trellis<Server extends https.Server, Request extends RawRequestDefaultExpression<Server> = RawRequestDefaultExpression<Server>, Reply extends RawReplyDefaultExpression<Server> = RawReplyDefaultExpression<Server>, Logger extends BaseLogger = LoggerInstance, Provider extends TypeProvider = TypeProviderDefault> (options: HttpsOptions<Server, Logger>): Created<Server, Request, Reply, Logger, Provider>
function trellis<Server extends http.Server, Request extends RawRequestDefaultExpression<Server> = RawRequestDefaultExpression<Server>, Reply extends RawReplyDefaultExpression<Server> = RawReplyDefaultExpression<Server>, Logger extends BaseLogger = LoggerInstance, Provider extends TypeProvider = TypeProviderDefault> (options?: TrellisOptions<Server, Logger>): Created<Server, Request, Reply, Logger, Provider>
function trellis (input?: object): unknown {
  return createApp(input, 4)
}

export { trellis, trellis as fastify }
export default trellis
export { errorCodes as codes }
