/**
 * The factory's options (exported as `TrellisOptions` and `FastifyServerOptions`), with the HTTPS
 * and HTTP/2 variants that select the server type. Names and value types follow Fastify 4.3.
 */
import type * as https from 'node:https'
import type * as http2 from 'node:http2'
import type { Socket } from 'node:net'
import type { ConstraintStrategy, HTTPVersion } from 'find-my-way'
import type * as http from 'node:http'
import type { Options as AjvOptions } from 'ajv'
import type { RawServerBase, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression } from './utils'
import type { LoggerInstance, LoggerOptions, PinoLoggerOptions } from './logger'
import type { RequestGenericInterface, TrellisRequest } from './request'
import type { TrellisReply } from './reply'
import type { TrellisSchema, SchemaValidationError } from './schema'
import type { TypeProvider, TypeProviderDefault } from './type-provider'
import type { RouteContextConfig } from './context'
import type { ServerFactory } from './server-factory'
import type { ProtoAction, ConstructorAction } from './content-type-parser'
import type { TrellisError } from './errors'
import type { TrellisInstance } from './instance'

/** What `clientErrorHandler` receives: node's clientError. */
export interface ConnectionError extends Error {
  code: string
  bytesParsed: number
  rawPacket: { type: string; data: number[] }
}

type RouterVersion<RawServer extends RawServerBase> = RawServer extends http.Server ? HTTPVersion.V1 : HTTPVersion.V2

/**
 * A constraint strategy whose value is derived asynchronously (Fastify 4.29, "Asynchronous Custom
 * Constraints"): `deriveConstraint(req, ctx, done)` answers through `done`; an error answers the
 * request 500 (or goes to `frameworkErrors` as FST_ERR_ASYNC_CONSTRAINT).
 */
export type AsyncConstraintStrategy<V extends HTTPVersion, T = string> = Omit<ConstraintStrategy<V, T>, 'deriveConstraint'> & {
  deriveConstraint<Context>(req: Parameters<ConstraintStrategy<V, T>['deriveConstraint']>[0], ctx: Context | undefined, done: (err: Error | null, value?: T) => void): void
}

/** A constraint strategy, synchronous (find-my-way's shape) or asynchronous. */
export type AnyConstraintStrategy<V extends HTTPVersion, T = unknown> = ConstraintStrategy<V, T> | AsyncConstraintStrategy<V, T>

export type TrellisOptions<RawServer extends RawServerBase = RawServerDefault, Logger extends LoggerInstance = LoggerInstance> = {
  /** Fastify 4.29: options for node's `http.createServer` (ignored with `https` or `http2`). */
  http?: http.ServerOptions | null
  ignoreTrailingSlash?: boolean
  ignoreDuplicateSlashes?: boolean
  /** Fastify 4.29: `;` also starts the query string (default true). */
  useSemicolonDelimiter?: boolean
  connectionTimeout?: number
  keepAliveTimeout?: number
  maxRequestsPerSocket?: number
  forceCloseConnections?: boolean | 'idle'
  /** trellis: on Bun and Deno, which server `listen()` starts: `'native'` (Bun.serve / Deno.serve), `'node'` (their node:http), `'auto'` (native unless the application needs node:http: default). Ignored on Node. */
  runtimeServer?: 'auto' | 'native' | 'node'
  requestTimeout?: number
  /** trellis: time to receive a request's headers (slowloris guard); at most `requestTimeout` when that is set. */
  headersTimeout?: number
  /** trellis: how often node checks `headersTimeout` / `requestTimeout` (node's `connectionsCheckingInterval`). */
  connectionsCheckingInterval?: number
  /** trellis: deepest nesting of arrays/objects the default JSON parser accepts (0: no limit). */
  jsonDepthLimit?: number
  /** trellis: refuse (400) a repeated or malformed `Host`, `*` but for OPTIONS, an empty `Transfer-Encoding` (docs/security.md); default `true`. */
  strictHostAndFraming?: boolean
  pluginTimeout?: number
  bodyLimit?: number
  maxParamLength?: number
  disableRequestLogging?: boolean
  exposeHeadRoutes?: boolean
  onProtoPoisoning?: ProtoAction
  onConstructorPoisoning?: ConstructorAction
  logger?: boolean | (LoggerOptions<RawServer> & PinoLoggerOptions) | Logger
  serializerOpts?: Record<string, unknown>
  serverFactory?: ServerFactory<RawServer>
  caseSensitive?: boolean
  allowUnsafeRegex?: boolean
  requestIdHeader?: string | false
  requestIdLogLabel?: string
  jsonShorthand?: boolean
  genReqId?: <RouteGeneric extends RequestGenericInterface = RequestGenericInterface, Provider extends TypeProvider = TypeProviderDefault>(req: TrellisRequest<RouteGeneric, RawServer, RawRequestDefaultExpression<RawServer>, TrellisSchema, Provider>) => string
  trustProxy?: boolean | string | string[] | number | ((address: string, hop: number) => boolean)
  querystringParser?: (str: string) => { [key: string]: unknown }
  /** @deprecated use the `constraints.version` route option */
  versioning?: {
    storage(): { get(version: string): string | null; set(version: string, store: Function): void; del(version: string): void; empty(): void }
    deriveVersion<Context>(req: Object, ctx?: Context): string
  }
  constraints?: { [name: string]: AnyConstraintStrategy<RouterVersion<RawServer>, unknown> }
  schemaController?: {
    bucket?: (parentSchemas?: unknown) => { add(schema: unknown): TrellisInstance; getSchema(schemaId: string): unknown; getSchemas(): Record<string, unknown> }
    compilersFactory?: { buildValidator?: (...args: any[]) => any; buildSerializer?: (...args: any[]) => any }
  }
  return503OnClosing?: boolean
  ajv?: { customOptions?: AjvOptions; plugins?: Array<Function | [Function, unknown]> }
  /**
   * trellis only: persistent compile cache of the default validator compiler (Ajv's standalone code
   * on disk, keyed by a hash of every input), so a restarted server skips code generation. `false`
   * keeps it off even when `TRELLIS_SCHEMA_CACHE_DIR` is set. See docs/schema-cache.md.
   */
  schemaCache?: { dir: string } | false
  /**
   * trellis only: the directory `trellis build` wrote: every validator and serializer compiled ahead
   * of time, read at start instead of compiled. `false` ignores `TRELLIS_AOT_DIR`. See
   * docs/deployment.md, "Ahead-of-time build".
   */
  aot?: { dir: string } | false
  frameworkErrors?: <RouteGeneric extends RequestGenericInterface = RequestGenericInterface, Provider extends TypeProvider = TypeProviderDefault, SchemaCompiler extends TrellisSchema = TrellisSchema>(
    error: TrellisError,
    req: TrellisRequest<RouteGeneric, RawServer, RawRequestDefaultExpression<RawServer>, TrellisSchema, Provider>,
    res: TrellisReply<RawServer, RawRequestDefaultExpression<RawServer>, RawReplyDefaultExpression<RawServer>, RouteGeneric, RouteContextConfig, SchemaCompiler, Provider>
  ) => void
  rewriteUrl?: (req: RawRequestDefaultExpression<RawServer>) => string
  schemaErrorFormatter?: (errors: SchemaValidationError[], dataVar: string) => Error
  /** Replaces the answer to malformed HTTP (node's 'clientError'). */
  clientErrorHandler?: (error: ConnectionError, socket: Socket) => void
}

export type HttpsOptions<Server extends https.Server, Logger extends LoggerInstance = LoggerInstance> =
  TrellisOptions<Server, Logger> & { https: https.ServerOptions }

export type Http2Options<Server extends http2.Http2Server, Logger extends LoggerInstance = LoggerInstance> =
  TrellisOptions<Server, Logger> & { http2: true; http2SessionTimeout?: number }

export type Http2SecureOptions<Server extends http2.Http2SecureServer, Logger extends LoggerInstance = LoggerInstance> =
  TrellisOptions<Server, Logger> & { http2: true; https: http2.SecureServerOptions; http2SessionTimeout?: number }

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { TrellisOptions as FastifyServerOptions, HttpsOptions as FastifyHttpsOptions, Http2Options as FastifyHttp2Options, Http2SecureOptions as FastifyHttp2SecureOptions }
