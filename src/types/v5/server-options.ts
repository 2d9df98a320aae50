/**
 * The factory options of the Fastify 5 line: `logger` takes `true` or pino's options and
 * `loggerInstance` a logger; `routerOptions` holds find-my-way's options; `handlerTimeout`,
 * `allowErrorHandlerOverride`; no `jsonShorthand`.
 */
import type * as http from 'node:http'
import type * as https from 'node:https'
import type * as http2 from 'node:http2'
import type { Socket } from 'node:net'
import type { ConstraintStrategy, Config as FindMyWayConfig } from 'find-my-way'
import type { LogController } from '../../server/log-controller'
import type { FastifyError } from './errors'
import type { FastifyServerFactory } from '../server-factory'
import type { ConnectionError } from '../server-options'
import type { ConstructorAction, ProtoAction } from './content-type-parser'
import type { FastifyContextConfig } from './context'
import type { FastifyInstance, FindMyWayVersion } from './instance'
import type { FastifyBaseLogger, FastifyChildLoggerFactory, FastifyLoggerOptions, PinoLoggerOptions } from './logger'
import type { FastifyReply } from './reply'
import type { FastifyRequest, RequestGenericInterface } from './request'
import type { FastifyAjvOptions, FastifySchema, FastifySchemaControllerOptions, SchemaErrorFormatter } from './schema'
import type { FastifyTypeProvider, FastifyTypeProviderDefault } from './type-provider'
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './utils'

export type { ConnectionError } from '../server-options'

type RawRoute<RawServer extends RawServerBase> = [req: RawRequestDefaultExpression<RawServer>, res: RawReplyDefaultExpression<RawServer>]

/** The `routerOptions` factory option: find-my-way's options, with the raw request and response of the server. */
export type FastifyRouterOptions<RawServer extends RawServerBase> =
  Omit<FindMyWayConfig<FindMyWayVersion<RawServer>>, 'defaultRoute' | 'onBadUrl' | 'onMaxParamLength' | 'querystringParser'> & {
    compile?: boolean
    defaultRoute?: (...args: RawRoute<RawServer>) => void
    onBadUrl?: (path: string, ...args: RawRoute<RawServer>) => void
    onMaxParamLength?: (path: string, ...args: RawRoute<RawServer>) => void
    querystringParser?: (str: string) => { [key: string]: unknown }
  }

// Kept apart from ../server-options: an intersection with a shared part makes `Parameters<typeof trellis>[0]` never on the v4 line.
export type FastifyServerOptions<RawServer extends RawServerBase = RawServerDefault, Logger extends FastifyBaseLogger = FastifyBaseLogger> = {
  ignoreTrailingSlash?: boolean
  ignoreDuplicateSlashes?: boolean
  connectionTimeout?: number
  keepAliveTimeout?: number
  maxRequestsPerSocket?: number
  forceCloseConnections?: boolean | 'idle'
  /** trellis: on Bun and Deno, which server `listen()` starts: `'native'` (Bun.serve / Deno.serve), `'node'` (their node:http), `'auto'` (native unless the application needs node:http: default). Ignored on Node. */
  runtimeServer?: 'auto' | 'native' | 'node'
  requestTimeout?: number
  /** trellis: time to receive a request's headers (slowloris guard). */
  headersTimeout?: number
  /** trellis: how often node checks `headersTimeout` / `requestTimeout`. */
  connectionsCheckingInterval?: number
  /** trellis: deepest nesting the default JSON parser accepts (0: no limit). */
  jsonDepthLimit?: number
  /** trellis: refuse (400) a repeated or malformed `Host`, `*` but for OPTIONS, an empty `Transfer-Encoding` (docs/security.md); default `true`. */
  strictHostAndFraming?: boolean
  pluginTimeout?: number
  bodyLimit?: number
  /** Milliseconds a handler may take before the request is answered 503 and `request.signal` aborts (0: none). */
  handlerTimeout?: number
  maxParamLength?: number
  /** @deprecated as in Fastify 5.12 (FSTDEP023): a `logController` with `disableRequestLogging`. */
  disableRequestLogging?: boolean | ((req: FastifyRequest) => boolean)
  /** Writes the request log lines (incoming, completed, errors, 404, 503 while closing): subclass `LogController`. */
  logController?: LogController
  exposeHeadRoutes?: boolean
  onProtoPoisoning?: ProtoAction
  onConstructorPoisoning?: ConstructorAction
  /** `true` or pino's options (a logger instance goes in `loggerInstance`). */
  logger?: boolean | FastifyLoggerOptions<RawServer> & PinoLoggerOptions
  loggerInstance?: Logger
  serializerOpts?: Record<string, unknown>
  serverFactory?: FastifyServerFactory<RawServer>
  caseSensitive?: boolean
  allowUnsafeRegex?: boolean
  requestIdHeader?: string | false
  requestIdLogLabel?: string
  useSemicolonDelimiter?: boolean
  genReqId?: (req: RawRequestDefaultExpression<RawServer>) => string
  /** `true`, addresses or subnets of the proxies, or a function of (address, hop). */
  trustProxy?: boolean | string | string[] | ((address: string, hop: number) => boolean)
  querystringParser?: (str: string) => { [key: string]: unknown }
  constraints?: { [name: string]: ConstraintStrategy<FindMyWayVersion<RawServer>, unknown> }
  schemaController?: FastifySchemaControllerOptions
  return503OnClosing?: boolean
  ajv?: FastifyAjvOptions
  frameworkErrors?: <RequestGeneric extends RequestGenericInterface = RequestGenericInterface, TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault, SchemaCompiler extends FastifySchema = FastifySchema>(
    error: FastifyError,
    req: FastifyRequest<RequestGeneric, RawServer, RawRequestDefaultExpression<RawServer>, FastifySchema, TypeProvider>,
    res: FastifyReply<RequestGeneric, RawServer, RawRequestDefaultExpression<RawServer>, RawReplyDefaultExpression<RawServer>, FastifyContextConfig, SchemaCompiler, TypeProvider>
  ) => void
  rewriteUrl?: (this: FastifyInstance<RawServer, RawRequestDefaultExpression<RawServer>, RawReplyDefaultExpression<RawServer>, Logger, FastifyTypeProviderDefault>, req: RawRequestDefaultExpression<RawServer>) => string
  schemaErrorFormatter?: SchemaErrorFormatter
  clientErrorHandler?: (error: ConnectionError, socket: Socket) => void
  childLoggerFactory?: FastifyChildLoggerFactory
  /** Whether `setErrorHandler` may replace a handler set in the same context. */
  allowErrorHandlerOverride?: boolean
  routerOptions?: FastifyRouterOptions<RawServer>
}

/** Options that make an HTTP/2 server with TLS. */
export type FastifyHttp2SecureOptions<Server extends http2.Http2SecureServer, Logger extends FastifyBaseLogger = FastifyBaseLogger> =
  FastifyServerOptions<Server, Logger> & { http2: true, https: http2.SecureServerOptions, http2SessionTimeout?: number }
/** Options that make an HTTP/2 server without TLS. */
export type FastifyHttp2Options<Server extends http2.Http2Server, Logger extends FastifyBaseLogger = FastifyBaseLogger> =
  FastifyServerOptions<Server, Logger> & { http2: true, http2SessionTimeout?: number }
/** Options that make an HTTPS server. */
export type FastifyHttpsOptions<Server extends https.Server, Logger extends FastifyBaseLogger = FastifyBaseLogger> =
  FastifyServerOptions<Server, Logger> & { https: https.ServerOptions | null, http2?: false }
/** Options that make an HTTP/1 server (the default). */
export type FastifyHttpOptions<Server extends http.Server, Logger extends FastifyBaseLogger = FastifyBaseLogger> =
  FastifyServerOptions<Server, Logger> & { http?: http.ServerOptions | null, http2?: false }
