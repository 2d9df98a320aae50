/**
 * The factory's options: what an application may pass (`TrellisOptions`, Fastify 4.3's names) and
 * what every layer reads once they are checked and defaulted (`ResolvedOptions`, built by
 * instance/options.ts). Types only, so the lower layers can name them.
 */
import type { IncomingMessage } from 'node:http'
import type { FastifyLine } from './version'

/** The persistent compile cache of the default validator compiler (docs/schema-cache.md). */
export interface SchemaCacheOptions { dir: string }

/** A directory written by `trellis build`: compiled validators and serializers read at start (docs/deployment.md). */
/** A `trellis build` directory to read, and the Fastify line of the application reading it (a build records its line). */
export interface AotOptions { dir: string; line: FastifyLine }

export type RuntimeServerChoice = 'auto' | 'native' | 'node'
export type PoisoningAction = 'error' | 'remove' | 'ignore'

export interface AjvOptions { customOptions?: Record<string, unknown>; plugins?: unknown[] }

export interface TrellisOptions {
  logger?: boolean | Record<string, unknown>
  bodyLimit?: number
  pluginTimeout?: number
  ajv?: AjvOptions
  schemaErrorFormatter?: (errors: unknown[], dataVar: string) => Error
  exposeHeadRoutes?: boolean
  ignoreTrailingSlash?: boolean
  ignoreDuplicateSlashes?: boolean
  /** Fastify 4.29: `;` also starts the query string (default true). */
  useSemicolonDelimiter?: boolean
  /** Fastify 5: false makes a second `setErrorHandler` in one scope FST_ERR_ERROR_HANDLER_ALREADY_SET (default true: FSTWRN004). */
  allowErrorHandlerOverride?: boolean
  caseSensitive?: boolean
  maxParamLength?: number
  allowUnsafeRegex?: boolean
  trustProxy?: boolean | string | string[] | number | ((address: string, hop: number) => boolean)
  requestIdHeader?: string | false
  requestIdLogLabel?: string
  genReqId?: (req: IncomingMessage) => string
  return503OnClosing?: boolean
  connectionTimeout?: number
  keepAliveTimeout?: number
  requestTimeout?: number
  /** Time to receive a request's headers (slowloris guard); at most `requestTimeout` when that is set. */
  headersTimeout?: number
  /** How often node checks `headersTimeout` / `requestTimeout` (node's `connectionsCheckingInterval`). */
  connectionsCheckingInterval?: number
  /** Deepest nesting of arrays/objects the default JSON parser accepts (0: no limit). */
  jsonDepthLimit?: number
  /** Refuse (400) what node's parser lets through of RFC 9112's Host and framing rules (server/request-framing.ts). */
  strictHostAndFraming?: boolean
  maxRequestsPerSocket?: number
  forceCloseConnections?: boolean | 'idle'
  /** Which server `listen()` starts on Bun and Deno: their own (`Bun.serve`, `Deno.serve`), node:http, or chosen per application ('auto'). */
  runtimeServer?: RuntimeServerChoice
  onProtoPoisoning?: PoisoningAction
  onConstructorPoisoning?: PoisoningAction
  /** Fastify 5 also takes a function of the request. */
  disableRequestLogging?: boolean | ((request: any) => boolean)
  /** Fastify 5: an instance of `LogController` (or a subclass) writing the request log lines. */
  logController?: object
  constraints?: Record<string, unknown>
  querystringParser?: (query: string) => Record<string, unknown>
  serializerOpts?: Record<string, unknown>
  schemaController?: Record<string, unknown>
  jsonShorthand?: boolean
  serverFactory?: (handler: (req: IncomingMessage, res: any) => void, opts: unknown) => any
  https?: Record<string, unknown> | null
  /** Fastify 4.29: options for node's http.createServer (ignored with https or http2). */
  http?: Record<string, unknown> | null
  http2?: boolean
  http2SessionTimeout?: number
  rewriteUrl?: (this: any, req: IncomingMessage) => string
  /** Called instead of the built-in answer for framework errors (a malformed URL: FST_ERR_BAD_URL). */
  frameworkErrors?: (error: Error, request: any, reply: any) => unknown
  /** Replaces the answer to malformed HTTP (node's 'clientError'); `this` is the instance. */
  clientErrorHandler?: (error: Error, socket: import('node:net').Socket) => void
  /** trellis: the persistent compile cache of the default validator compiler (docs/schema-cache.md). */
  schemaCache?: { dir: string } | false
  /** trellis: the directory `trellis build` wrote (docs/deployment.md, "Ahead-of-time build"). */
  aot?: { dir: string } | false
  [unknown: string]: unknown
}

/** What a Fastify 5 application may hand the router (`routerOptions`) besides its top-level options. */
export interface V5RouterHooks {
  defaultRoute?: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void
  onBadUrl?: (path: string, req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void
  /** Answers a path whose parameter is longer than `maxParamLength` (Fastify 5: 414); undefined: the route does not match. */
  onMaxParamLength?: (path: string, req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void
  buildPrettyMeta?: (route: unknown) => unknown
  /** Compile find-my-way's lookup at ready() (`routerOptions.compile`, Fastify 5.x; default false). */
  compile?: boolean
}

export interface ResolvedOptions {
  /** The Fastify line the application follows (chosen by its factory, not an option). */
  line: FastifyLine
  logger: TrellisOptions['logger']
  bodyLimit: number
  pluginTimeout: number
  ajv: AjvOptions
  schemaCache: SchemaCacheOptions | undefined
  aot: AotOptions | undefined
  schemaErrorFormatter: TrellisOptions['schemaErrorFormatter']
  exposeHeadRoutes: boolean
  ignoreTrailingSlash: boolean
  ignoreDuplicateSlashes: boolean
  useSemicolonDelimiter: boolean
  caseSensitive: boolean
  maxParamLength: number
  allowUnsafeRegex: boolean
  trustProxy: TrellisOptions['trustProxy']
  requestIdHeader: string | false
  requestIdLogLabel: string
  genReqId: (req: IncomingMessage) => string
  return503OnClosing: boolean
  connectionTimeout: number
  keepAliveTimeout: number
  requestTimeout: number
  headersTimeout: number
  connectionsCheckingInterval: number
  jsonDepthLimit: number
  strictHostAndFraming: boolean
  maxRequestsPerSocket: number
  forceCloseConnections: boolean | 'idle'
  runtimeServer: RuntimeServerChoice
  onProtoPoisoning: PoisoningAction
  onConstructorPoisoning: PoisoningAction
  disableRequestLogging: boolean | ((request: any) => boolean)
  /** The `logController` option (Fastify 5), checked; undefined: one built from the options. */
  logController: object | undefined
  constraints: Record<string, unknown> | undefined
  querystringParser: TrellisOptions['querystringParser']
  serializerOpts: Record<string, unknown>
  schemaController: Record<string, unknown> | undefined
  jsonShorthand: boolean
  serverFactory: TrellisOptions['serverFactory']
  https: Record<string, unknown> | null
  http2: boolean
  http2SessionTimeout: number
  rewriteUrl: TrellisOptions['rewriteUrl']
  /** Fastify 5: the server-wide `handlerTimeout` in ms (0: none; always 0 on the Fastify 4 line). */
  handlerTimeout: number
  /** Fastify 5: whether `setErrorHandler` may replace the handler of its own scope (always true on the Fastify 4 line). */
  allowErrorHandlerOverride: boolean
  /** Fastify 5's `routerOptions` that have no top-level twin (undefined on the Fastify 4 line). */
  router: V5RouterHooks
  /** The options as given (read by `initialConfig`). */
  input: TrellisOptions
  frameworkErrors: TrellisOptions['frameworkErrors']
  clientErrorHandler: TrellisOptions['clientErrorHandler']
}
