/**
 * The route context of a Reply built by hand, outside any route, as Fastify allows:
 * `new Reply(res, request, log)` where `request` is not a trellis request but a plain object carrying
 * Fastify's route context under `kRouteContext` (`fastify/lib/symbols`). @nestjs/platform-fastify does
 * this to answer from a middleware: `new Reply(res, { [kRouteContext]: { preSerialization: null,
 * onSend: [], onError: [], ... } }, {})` then `.status(403).send(body)`.
 *
 * What such a reply reads of its context is what Fastify reads of it: the `onSend`, `onError` and
 * `preSerialization` hooks the object lists (run as route hooks: `this` is its `server`), its
 * `server`, its `config`, its `errorHandler` (Fastify's `{ func }`, as `instance[kErrorHandler]`
 * gives it) and nothing else: no schema, no reply serializer, JSON.stringify. An error sent without
 * an error handler goes to the default one (Fastify throws a TypeError there).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyLine } from '../base/version'
import { LogController } from '../server/log-controller'
import type { Logger } from '../server/logger'
import { buildErrorHandler, rootErrorHandler, type ErrorHandler } from './error-handling'
import { requestHookNames, type AnyHook } from './hooks'
import { HttpMethods } from './http-methods'
import type { RequestEnv, RouteContext } from './route-context'

/** Fastify's key of the route context on requests and replies (`kRouteContext` of `fastify/lib/symbols`). */
export const kFastifyRouteContext: unique symbol = Symbol('fastify.context')

interface FastifyRouteContext {
  preSerialization?: AnyHook[] | null
  onSend?: AnyHook[] | null
  onError?: AnyHook[] | null
  server?: unknown
  config?: Record<string, unknown>
  errorHandler?: { func?: unknown } | null
}

const hookList = (hooks: AnyHook[] | null | undefined): AnyHook[] => Array.isArray(hooks) ? hooks.filter((h) => typeof h === 'function') : []

const silent: Logger = { level: 'silent', fatal () {}, error () {}, warn () {}, info () {}, debug () {}, trace () {}, child () { return silent } } as unknown as Logger

const envs: Partial<Record<FastifyLine, RequestEnv>> = {}

/** What a request or reply made outside any application reads of "the application": nothing logged, no proxy trusted. */
export function detachedEnv (line: FastifyLine): RequestEnv {
  const known = envs[line]
  if (known !== undefined) return known
  const env: RequestEnv = {
    log: silent,
    silentLog: true,
    disableRequestLogging: true,
    logController: new LogController({ disableRequestLogging: true }),
    quietRequests: true,
    requestIdLogLabel: 'reqId',
    trustProxy: null,
    bodyLimit: 1048576,
    line,
    methods: new HttpMethods(line),
    requestLogger: () => silent,
    notFoundFor: () => { throw new Error('a reply built outside a route has no 404 route') }
  }
  envs[line] = env
  return env
}

function errorHandlerOf (given: FastifyRouteContext['errorHandler'], server: unknown): ErrorHandler {
  const fn = given?.func
  return typeof fn === 'function' ? buildErrorHandler(rootErrorHandler, fn as ErrorHandler['fn'] & object, server) : rootErrorHandler
}

/** The route context of `request`, a hand-made request that carries Fastify's under kRouteContext (else an empty one). */
export function detachedRouteContext (request: unknown, line: FastifyLine): RouteContext {
  const given = (request !== null && typeof request === 'object' ? (request as Record<symbol, unknown>)[kFastifyRouteContext] : undefined) as FastifyRouteContext | undefined
  const context = given !== null && typeof given === 'object' ? given : {}
  const hooks: Record<string, AnyHook[]> = {}
  for (const name of requestHookNames) hooks[name] = []
  hooks.preSerialization = hookList(context.preSerialization)
  hooks.onSend = hookList(context.onSend)
  hooks.onError = hookList(context.onError)
  const partial = {
    env: detachedEnv(line),
    server: context.server,
    config: context.config !== null && typeof context.config === 'object' ? context.config : {},
    schema: undefined,
    errorHandler: errorHandlerOf(context.errorHandler, context.server),
    hooks,
    bodyLimit: undefined,
    handlerTimeout: 0,
    attachValidation: false,
    serializers: null,
    replySerializer: null,
    logLevel: undefined,
    logSerializers: undefined,
    is404: false,
    notFound: null,
    validates: false,
    schemaCompilers: null
  }
  return partial as unknown as RouteContext
}

/**
 * The request a hand-made reply keeps: the object given, seen through a view that adds the raw
 * request (`res.req`) when the object has none, since writing the response reads its method.
 */
export function detachedRequest<T> (request: T, res: ServerResponse): T {
  if (request !== null && typeof request === 'object' && (request as { raw?: unknown }).raw !== undefined) return request
  const base = request !== null && typeof request === 'object' ? request : {}
  const raw: IncomingMessage | { method: string, headers: Record<string, string> } = (res as ServerResponse & { req?: IncomingMessage }).req ?? { method: 'GET', headers: {} }
  return Object.create(base as object, { raw: { value: raw, enumerable: true } }) as T
}
