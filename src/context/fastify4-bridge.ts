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
import { RequestV4 } from '../lifecycle/request'
import { ReplyV4 } from '../lifecycle/reply'

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

/** Fastify 4's accessors that Fastify 5 removed, as RequestV4 and ReplyV4 define them. */
const REQUEST_V4_ONLY = ['routerPath', 'routerMethod', 'routeConfig', 'routeSchema', 'context', 'connection']
const REPLY_V4_ONLY: Record<string, string> = { context: 'reply.context', getResponseTime: 'reply.getResponseTime()', redirect: 'reply.redirect(code, url)' }

/** Puts the v4 class's member `name` on `target`, naming its first use (TRLBRG002). */
function lendMember (app: AppState, target: object, source: object, name: string, label: string): void {
  const own = Object.getOwnPropertyDescriptor(source, name) as PropertyDescriptor
  if (own.get !== undefined) {
    const get = own.get
    Object.defineProperty(target, name, { configurable: true, get (this: unknown) { used(app, label); return get.call(this) } })
    return
  }
  const method = own.value as (...args: unknown[]) => unknown
  // redirect is shared with Fastify 5: only its Fastify 4 form (a status code first) is the bridge's
  const fastify4Only = name === 'redirect' ? (args: unknown[]) => typeof args[0] === 'number' : () => true
  Object.defineProperty(target, name, {
    configurable: true,
    writable: true,
    value: function (this: unknown, ...args: unknown[]) {
      if (fastify4Only(args)) used(app, label)
      return method.apply(this, args)
    }
  })
}

function installFastify4Accessors (app: AppState): void {
  const root: PluginContext = app.rootContext
  for (const name of REQUEST_V4_ONLY) lendMember(app, root.Request.prototype, RequestV4.prototype, name, `request.${name}`)
  for (const [name, label] of Object.entries(REPLY_V4_ONLY)) lendMember(app, root.Reply.prototype, ReplyV4.prototype, name, label)
  // routes stop at these classes when they skip empty subclasses (route-builder's nearestDecorated)
  root.Request.decorated = true
  root.Reply.decorated = true
}
