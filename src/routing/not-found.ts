/**
 * 404 routes, one per prefix: the root's, each context that set its own handler, and each
 * prefixed context (a 404 under a plugin's prefix runs that plugin's hooks). The deepest prefix
 * that matches the URL answers.
 */
import type { Context } from '../context/context'
import { kRouteSerializeFns, kRouteValidateFns, type RouteContext } from './route-context'
import { routeSchemaCompilers } from '../context/schema-compilers'
import { nearestDecorated } from './routes'
import { defaultSchemaErrorFormatter } from '../schema/validation'
import { contextGenReqId } from '../context/gen-req-id'
import { contextChildLoggerFactory } from '../context/child-logger-factory'
import { requestHookNames, type AnyHook, type RequestHookName } from '../context/hooks'
import { buildErrorHandler, type ErrorHandlerFn } from '../lifecycle/error-handling'
import { basicNotFoundPayload } from '../lifecycle/not-found-payload'

export function basicNotFound (request: { raw: { url?: string; method?: string }; log: { info: (msg: string) => void }; routeContext: RouteContext }, reply: { code: (c: number) => { send: (p: unknown) => unknown } }): void {
  const payload = basicNotFoundPayload(request.raw.method ?? 'GET', request.raw.url ?? '/')
  // not logged with disableRequestLogging (Fastify 4.29)
  if (!request.routeContext.root.options.disableRequestLogging) request.log.info(payload.message)
  reply.code(404).send(payload)
}

export interface NotFoundEntry {
  prefix: string
  /** `prefix` ending with '/' (computed once: the 404 path compares every request against it). */
  prefixSlash: string
  route: RouteContext
  /** Nothing can observe this 404 route's request path: answered by lifecycle/plain-not-found.ts. */
  plain: boolean
}

/** The default handler, no hooks at all, no reply serializer, no child logger factory, the silent logger. */
function isPlain (route: RouteContext): boolean {
  if (route.handler !== basicNotFound || route.replySerializer !== null || route.childLoggerFactory !== null) return false
  if (!route.root.silentLog) return false
  for (const name of requestHookNames) if (route.hooks[name].length > 0) return false
  return true
}

function routeFor (context: Context): RouteContext {
  const setup = context.notFound
  const hooks = {} as Record<RequestHookName, AnyHook[]>
  for (const name of requestHookNames) {
    const extra = setup?.hooks[name as 'preValidation' | 'preHandler']
    hooks[name] = extra === undefined ? context.hooks[name].slice() : context.hooks[name].concat(extra)
  }
  return {
    root: context.root,
    genReqId: contextGenReqId(context),
    childLoggerFactory: contextChildLoggerFactory(context),
    exposeHeadRoute: undefined,
    prefixTrailingSlash: undefined,
    server: context.instance,
    config: {},
    schema: undefined,
    handler: (setup?.handler ?? basicNotFound) as RouteContext['handler'],
    // its own error handler first (Fastify 4.29), then the context's chain
    errorHandler: setup?.errorHandler !== undefined ? buildErrorHandler(context.errorHandler, setup.errorHandler as ErrorHandlerFn, context.instance) : context.errorHandler,
    hooks,
    bodyLimit: undefined,
    attachValidation: false,
    validators: {},
    serializers: null,
    schemaErrorFormatter: defaultSchemaErrorFormatter,
    replySerializer: context.replySerializer,
    Request: nearestDecorated(context.Request),
    Reply: nearestDecorated(context.Reply),
    parsers: context.parsers,
    logLevel: context.logLevel,
    logSerializers: context.logSerializers,
    is404: true,
    notFound: null,
    validates: false,
    schemaCompilers: routeSchemaCompilers(context, {}),
    [kRouteValidateFns]: null,
    [kRouteSerializeFns]: null
  }
}

/** Builds the 404 routes of the whole tree, deepest prefix first. */
export function buildNotFoundRoutes (root: Context): NotFoundEntry[] {
  const byPrefix = new Map<string, NotFoundEntry>()
  const visit = (context: Context): void => {
    const isOwner = context.parent === null || context.ownNotFound || (context.prefix !== context.parent.prefix && !byPrefix.has(context.prefix))
    if (isOwner && (context.ownNotFound || !byPrefix.has(context.prefix))) {
      const route = routeFor(context)
      byPrefix.set(context.prefix, { prefix: context.prefix, prefixSlash: context.prefix.endsWith('/') ? context.prefix : context.prefix + '/', route, plain: isPlain(route) })
    }
    for (const child of context.children) visit(child)
  }
  visit(root)
  const entries = [...byPrefix.values()].sort((a, b) => b.prefix.length - a.prefix.length)
  for (const entry of entries) entry.route.notFound = null
  return entries
}

export function findNotFound (entries: NotFoundEntry[], url: string): RouteContext {
  return findNotFoundEntry(entries, url).route
}

export function findNotFoundEntry (entries: NotFoundEntry[], url: string): NotFoundEntry {
  const q = url.indexOf('?')
  const path = q === -1 ? url : url.slice(0, q)
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]
    const p = entry.prefix
    if (p === '' || path === p || path.startsWith(entry.prefixSlash)) return entry
  }
  return entries[entries.length - 1]
}
