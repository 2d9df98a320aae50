/**
 * The request of the Fastify 5 line: `host` (with the port), `hostname` (without), `port`,
 * `signal`, `mediaType`, `getDecorator`/`setDecorator`, `validateInput`; no `context`,
 * `routerPath`, `routerMethod`, `routeConfig`, `routeSchema`, `connection`.
 */
import type { ErrorObject } from 'ajv'
import type { FastifyContextConfig } from './context'
import type { FastifyInstance } from './instance'
import type { FastifyBaseLogger } from './logger'
import type { FastifyRouteConfig, RouteGenericInterface, RouteHandlerMethod } from './route'
import type { FastifySchema } from './schema'
import type { FastifyRequestType, FastifyTypeProvider, FastifyTypeProviderDefault, ResolveFastifyRequestType } from './type-provider'
import type { ContextConfigDefault, HTTPMethods, RawRequestDefaultExpression, RawServerBase, RawServerDefault } from './utils'

type HTTPRequestPart = 'body' | 'query' | 'querystring' | 'params' | 'headers'

// The same on both lines: Fastify 4's declaration.
export type { RequestGenericInterface } from '../request'

/** A compiled validator as `getValidationFunction` returns it. */
export interface ValidationFunction {
  (input: any): boolean
  errors?: null | ErrorObject[]
}

/** `request.routeOptions` (frozen). */
export interface RequestRouteOptions<ContextConfig = ContextConfigDefault, SchemaCompiler = FastifySchema> {
  method: HTTPMethods | HTTPMethods[]
  /** undefined for a request no route matched (`is404`) */
  url: string | undefined
  bodyLimit: number
  handlerTimeout: number
  attachValidation: boolean
  logLevel: string
  exposeHeadRoute: boolean
  prefixTrailingSlash: string
  config: FastifyContextConfig & FastifyRouteConfig & ContextConfig
  /** absent for 404 requests */
  schema?: SchemaCompiler
  handler: RouteHandlerMethod
  version?: string
}

// Kept apart from ../request: the members differ (above) and each line's FastifyRequest is augmented on its own.
export interface FastifyRequest<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  SchemaCompiler extends FastifySchema = FastifySchema,
  TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
  ContextConfig = ContextConfigDefault,
  Logger extends FastifyBaseLogger = FastifyBaseLogger,
  RequestType extends FastifyRequestType = ResolveFastifyRequestType<TypeProvider, SchemaCompiler, RouteGeneric>
> {
  id: string
  params: RequestType['params']
  raw: RawRequest
  query: RequestType['query']
  /** The raw headers plus what the route's Headers generic or schema declares. */
  headers: RawRequest['headers'] & RequestType['headers']
  log: Logger
  server: FastifyInstance
  body: RequestType['body']
  /** Set with the route option `attachValidation`. */
  validationError?: Error & { validation: any, validationContext: string }

  /** @deprecated use `raw` */
  readonly req: RawRequest & RouteGeneric['Headers']
  /** From the socket, or the forwarding headers under `trustProxy`: untrusted input. */
  readonly ip: string
  readonly ips?: string[]
  /** Host (or :authority, or X-Forwarded-Host under `trustProxy`) with its port. */
  readonly host: string
  /** The port of `host`, or null. */
  readonly port: number | null
  /** `host` without the port. */
  readonly hostname: string
  readonly url: string
  /** The URL before `rewriteUrl` changed it. */
  readonly originalUrl: string
  readonly protocol: 'http' | 'https'
  readonly method: string
  readonly routeOptions: Readonly<RequestRouteOptions<ContextConfig, SchemaCompiler>>
  readonly is404: boolean
  readonly socket: RawRequest['socket']
  /** Aborted when the client goes away or `handlerTimeout` expires. */
  readonly signal: AbortSignal
  /** The media type of Content-Type (no parameters), or undefined. */
  readonly mediaType: string | undefined

  getValidationFunction(httpPart: HTTPRequestPart): ValidationFunction | undefined
  getValidationFunction(schema: { [key: string]: any }): ValidationFunction | undefined
  compileValidationSchema(schema: { [key: string]: any }, httpPart?: HTTPRequestPart): ValidationFunction
  validateInput(input: any, schema: { [key: string]: any }, httpPart?: HTTPRequestPart): boolean
  validateInput(input: any, httpPart?: HTTPRequestPart): boolean
  /** A request decorator's value (FST_ERR_DEC_UNDECLARED when none is declared under that name). */
  getDecorator<T>(name: string | symbol): T
  setDecorator<T = unknown>(name: string | symbol, value: T): void
}
