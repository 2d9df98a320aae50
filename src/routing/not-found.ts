/**
 * The 404 table: one 404 route per prefix (the root's, each context that set its own handler, and
 * each prefixed context, so a 404 under a plugin's prefix runs that plugin's hooks). The deepest
 * prefix that matches the URL answers. The plugin tree builds the routes (context/route-builder.ts).
 */
import { requestHookNames } from '../lifecycle/hooks'
import type { RouteContext } from '../lifecycle/route-context'
import { basicNotFoundPayload } from '../lifecycle/not-found-payload'

/** The default 404 handler: Fastify's body and its "Route ... not found" log line. */
export function basicNotFound (request: { raw: { url?: string; method?: string }; log: { info: (msg: string) => void }; routeContext: RouteContext }, reply: { code: (c: number) => { send: (p: unknown) => unknown } }): void {
  const payload = basicNotFoundPayload(request.raw.method ?? 'GET', request.raw.url ?? '/')
  // not logged with disableRequestLogging (Fastify 4.29)
  request.routeContext.env.logController.routeNotFound(request as any, reply as any)
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
export function nothingObserves (route: RouteContext): boolean {
  if (route.handler !== basicNotFound || route.replySerializer !== null || route.childLoggerFactory !== null) return false
  if (!route.env.silentLog) return false
  for (const name of requestHookNames) if (route.hooks[name].length > 0) return false
  return true
}

/** Orders the entries deepest prefix first, as findNotFoundEntry reads them. */
export function notFoundTable (entries: Iterable<NotFoundEntry>): NotFoundEntry[] {
  return [...entries].sort((a, b) => b.prefix.length - a.prefix.length)
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
