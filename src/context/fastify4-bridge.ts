/**
 * The Fastify 4 bridge: in a Fastify 5 application, a plugin that declares `fastify: '4.x'` (a range
 * 4.29.1 satisfies and 5.12.8 does not) loads instead of failing its version check, and keeps the
 * Fastify 4 behaviour it relies on where that does not change what the application sees:
 *
 *   - while it loads: request/reply decorators with a reference-type value (a FSTDEP006 warning,
 *     not FST_ERR_DEC_REFERENCE_TYPE), and an async plugin function that also takes `done`;
 *   - at request time, once a plugin is bridged: Fastify 4's accessors that Fastify 5 removed
 *     (`request.routerPath`, `routerMethod`, `routeConfig`, `routeSchema`, `context`, `connection`,
 *     `reply.context`, `reply.getResponseTime()`, `reply.redirect(code, url)`).
 *
 * Where the two lines disagree about one property (`request.hostname` with or without the port,
 * defaults, `version`), the application's line wins. Each bridged plugin is named once in a warning
 * (TRLBRG001); the first use of each Fastify 4 accessor is named once (TRLBRG002) with the bridged
 * plugins that may have used it.
 */
import { emitV5Warning } from '../base/warnings-v5'
import { FASTIFY_COMPAT_VERSION } from '../base/version'
import type { AppState } from './app-state'
import type { PluginContext } from './plugin-context'
import { rcAcceptsOlder, satisfies } from './version-range'

/** Whether a plugin's declared range admits the last Fastify 4 release (so the bridge can carry it). */
export function acceptsFastify4 (range: string): boolean {
  return rcAcceptsOlder(FASTIFY_COMPAT_VERSION, range) || satisfies(FASTIFY_COMPAT_VERSION, range)
}

/** The bridged plugin loading now (its own function or one it registered), or undefined. */
export function loadingBridgedPlugin (app: AppState): string | undefined {
  for (let i = app.stack.length - 1; i >= 0; i--) {
    const bridged = app.stack[i].bridged
    if (bridged !== null) return bridged
  }
  return undefined
}

/** Records a bridged plugin, names it once, and gives the application's requests and replies Fastify 4's accessors. */
export function bridgePlugin (app: AppState, name: string, range: string): void {
  if (app.bridgedPlugins.includes(name)) return
  app.bridgedPlugins.push(name)
  emitV5Warning('TRLBRG001', name, range)
  if (app.bridgedPlugins.length === 1) installFastify4Accessors(app)
}

function used (app: AppState, member: string): void {
  if (app.bridgeUsed.has(member)) return
  app.bridgeUsed.add(member)
  emitV5Warning('TRLBRG002', member, app.bridgedPlugins.join(', '))
}

type RouteCarrier = { routeContext: { config: Record<string, unknown>, schema: unknown }, raw: { socket: unknown } }

function installFastify4Accessors (app: AppState): void {
  const root: PluginContext = app.rootContext
  const request = root.Request.prototype as object
  const reply = root.Reply.prototype as object
  const getter = (proto: object, name: string, label: string, read: (self: any) => unknown): void => {
    Object.defineProperty(proto, name, { configurable: true, get (this: unknown) { used(app, label); return read(this) } })
  }
  getter(request, 'routerPath', 'request.routerPath', (r: RouteCarrier) => r.routeContext.config.url)
  getter(request, 'routerMethod', 'request.routerMethod', (r: RouteCarrier) => r.routeContext.config.method)
  getter(request, 'routeConfig', 'request.routeConfig', (r: RouteCarrier) => r.routeContext.config)
  getter(request, 'routeSchema', 'request.routeSchema', (r: RouteCarrier) => r.routeContext.schema)
  getter(request, 'context', 'request.context', (r: RouteCarrier) => r.routeContext)
  getter(request, 'connection', 'request.connection', (r: RouteCarrier) => r.raw.socket)
  getter(reply, 'context', 'reply.context', (r: RouteCarrier) => r.routeContext)
  Object.defineProperty(reply, 'getResponseTime', {
    configurable: true,
    writable: true,
    value: function getResponseTime (this: { elapsedTime: number }) { used(app, 'reply.getResponseTime()'); return this.elapsedTime }
  })
  const redirect = (reply as { redirect: (url: string, code?: number) => unknown }).redirect
  Object.defineProperty(reply, 'redirect', {
    configurable: true,
    writable: true,
    value: function (this: unknown, urlOrCode: string | number, codeOrUrl?: string | number) {
      if (typeof urlOrCode !== 'number') return redirect.call(this, urlOrCode, codeOrUrl as number | undefined)
      used(app, 'reply.redirect(code, url)')
      return redirect.call(this, codeOrUrl as string, urlOrCode)
    }
  })
  // routes stop at these classes when they skip empty subclasses (route-builder's nearestDecorated)
  root.Request.decorated = true
  root.Reply.decorated = true
}
