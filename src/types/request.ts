/**
 * The request object hooks and handlers receive: ONE interface, `FastifyRequest` (Fastify 4.3's
 * generic parameters), also exported as `TrellisRequest`, so a handler annotated with either name
 * gets its route generics inferred. Module augmentation works under either name; augment only one of
 * them in a program (TypeScript keeps one of two augmentations made through two names of one
 * interface) — the Fastify name, as plugins do. `Request` is the run-time class; `TypedRequest<G>` a
 * shorthand.
 */
import type { Socket } from 'node:net'
import { RequestBase } from '../lifecycle/request'
import type { RawServerBase, RawServerDefault, RawRequestDefaultExpression, ContextConfigDefault, RequestBodyDefault, RequestQuerystringDefault, RequestParamsDefault, RequestHeadersDefault } from './utils'
import type { LoggerInstance } from './logger'
import type { RouteGenericInterface } from './route'
import type { TrellisInstance } from './instance'
import type { TypeProvider, TypeProviderDefault, RequestType, ResolveRequestType } from './type-provider'
import type { TrellisSchema } from './schema'
import type { RouteContextInfo } from './context'

export type HTTPRequestPart = 'body' | 'query' | 'querystring' | 'params' | 'headers'

export interface RequestGenericInterface {
  Body?: RequestBodyDefault
  Querystring?: RequestQuerystringDefault
  Params?: RequestParamsDefault
  Headers?: RequestHeadersDefault
}

export interface FastifyRequest<
  RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
  RawServer extends RawServerBase = RawServerDefault,
  RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
  SchemaCompiler extends TrellisSchema = TrellisSchema,
  Provider extends TypeProvider = TypeProviderDefault,
  ContextConfig = ContextConfigDefault,
  Logger extends LoggerInstance = LoggerInstance,
  Resolved extends RequestType = ResolveRequestType<Provider, SchemaCompiler, RouteGeneric>
> {
  /** The request id (from genReqId / requestIdHeader). */
  id: string
  params: Resolved['params']
  raw: RawRequest
  query: Resolved['query']
  /** The raw headers plus what the route's Headers generic or schema declares. */
  headers: RawRequest['headers'] & Resolved['headers']
  log: Logger
  server: TrellisInstance
  body: Resolved['body']
  /** @deprecated (Fastify 4.29, FSTDEP012) use `routeOptions.config` / `routeOptions.schema` */
  context: RouteContextInfo<ContextConfig>
  validationError?: Error & { validation: any; validationContext: string }

  readonly req: RawRequest & RouteGeneric['Headers']
  readonly ip: string
  readonly ips?: string[]
  readonly hostname: string
  readonly url: string
  /** The URL before `rewriteUrl` changed it (Fastify 4.29). */
  readonly originalUrl: string
  readonly protocol: 'http' | 'https'
  readonly method: string
  /** @deprecated (Fastify 4.29, FSTDEP017) use `routeOptions.url` */
  readonly routerPath: string
  /** @deprecated (Fastify 4.29, FSTDEP018) use `routeOptions.method` */
  readonly routerMethod: string
  readonly is404: boolean
  readonly socket: RawRequest['socket']
  /** trellis (and later Fastify 4 releases): the route's config, schema and options. */
  /** @deprecated (Fastify 4.29, FSTDEP016) use `routeOptions.config` */
  readonly routeConfig: RouteContextInfo<ContextConfig>['config']
  /** @deprecated (Fastify 4.29, FSTDEP015) use `routeOptions.schema` */
  readonly routeSchema: SchemaCompiler
  /** Frozen (Fastify 4.29 adds handler, version, exposeHeadRoute, prefixTrailingSlash). */
  readonly routeOptions: Readonly<{ method: string | string[]; url: string; bodyLimit: number; attachValidation: boolean; logLevel: string; config: RouteContextInfo<ContextConfig>['config']; schema: SchemaCompiler; handler: (...args: any[]) => unknown; version?: string; exposeHeadRoute: boolean; prefixTrailingSlash: string }>
  /** @deprecated use `socket` */
  readonly connection: RawRequest['socket']

  getValidationFunction(httpPart: HTTPRequestPart): (input: any) => boolean
  getValidationFunction(schema: { [key: string]: any }): (input: any) => boolean
  compileValidationSchema(schema: { [key: string]: any }, httpPart?: HTTPRequestPart): (input: any) => boolean
  validate(input: any, schema: { [key: string]: any }, httpPart?: HTTPRequestPart): boolean
  validate(input: any, httpPart?: HTTPRequestPart): boolean
}

/** The run-time class (its prototype is what `decorateRequest` extends). */
export const FastifyRequest = RequestBase as unknown as {
  new (...args: never[]): FastifyRequest
  readonly prototype: FastifyRequest
}
export type { Socket }

/** trellis's name for the same interface (augment either name, not both: see docs/typescript.md). */
export { FastifyRequest as TrellisRequest }
// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
/** The run-time Request class (as a value); as a type, the request hooks and handlers receive. */
export const Request = FastifyRequest
export type Request<RouteGeneric extends RouteGenericInterface = RouteGenericInterface> = FastifyRequest<RouteGeneric>
/** The request of a route with these generics (Body, Querystring, Params, Headers). */
export type TypedRequest<RouteGeneric extends RouteGenericInterface = RouteGenericInterface> = FastifyRequest<RouteGeneric>
