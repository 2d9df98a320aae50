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
 * (TRLBRG001); each Fastify 4 accessor is named once per plugin that uses it (TRLBRG002, with Fastify
 * 5's way), never with Fastify 4's deprecation texts ("will be removed in `fastify@5`"). The plugin
 * is found from the stack: the package (or file) whose code called its instance while it loaded.
 */
import { emitV5Warning } from '../base/warnings-v5'
import { FASTIFY_COMPAT_VERSION } from '../base/version'
import type { AppState } from './app-state'
import type { PluginContext } from './plugin-context'
import { rcAcceptsOlder, satisfies } from './version-range'
import { join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RequestV4 } from '../lifecycle/request'
import type { ReplyV4 } from '../lifecycle/reply'
import { modulePackInUse } from '../module-pack/load-pack'
import { PACK_FILE } from '../module-pack/pack-format'

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

/** Fastify 4's request accessors that Fastify 5 removed: what each reads (without Fastify 4's deprecation) and Fastify 5's way. */
const REQUEST_V4_ONLY: Record<string, { read: (request: RequestV4) => unknown, instead: string }> = {
  routerPath: { read: (r) => r.routeContext.config.url, instead: 'request.routeOptions.url' },
  routerMethod: { read: (r) => r.routeContext.config.method, instead: 'request.routeOptions.method' },
  routeConfig: { read: (r) => r.routeContext.config, instead: 'request.routeOptions.config' },
  routeSchema: { read: (r) => r.routeContext.schema, instead: 'request.routeOptions.schema' },
  context: { read: (r) => r.routeContext, instead: 'request.routeOptions' },
  connection: { read: (r) => r.raw.socket, instead: 'request.socket' }
}

/** A frame of the stack, as V8's structured stack trace gives it. */
interface CallSite { getFileName: () => string | null | undefined, getLineNumber: () => number | null }

const LIB_ROOT = resolve(__dirname, '..')

/** The frames of the caller's stack outside trellis's own implementation and Node's internals. */
function outsideFrames (limit: number): CallSite[] {
  const { stackTraceLimit, prepareStackTrace } = Error
  const holder: { stack?: unknown } = {}
  let stack: unknown
  try {
    Error.stackTraceLimit = limit
    Error.prepareStackTrace = (_error, frames) => frames
    Error.captureStackTrace(holder, outsideFrames)
    // V8 prepares the stack when it is first read: read while the structured form is asked for
    stack = holder.stack
  } finally {
    Error.stackTraceLimit = stackTraceLimit
    Error.prepareStackTrace = prepareStackTrace
  }
  const frames = Array.isArray(stack) ? stack as CallSite[] : []
  // trellis's modules may run from a `trellis build` module pack: one script of their code
  const pack = modulePackInUse()
  const packFile = pack === undefined ? undefined : join(pack.dir, PACK_FILE)
  return frames.filter((f) => {
    const file = fileOf(f)
    return file !== '' && file !== packFile && !file.startsWith('node:') && !file.startsWith(LIB_ROOT + sep)
  })
}

function fileOf (frame: CallSite): string {
  const name = frame.getFileName() ?? ''
  return name.startsWith('file://') ? fileURLToPath(name) : name
}

/** What a file belongs to: its package's directory inside node_modules, else the file itself. */
function sourceOf (file: string): string {
  const marker = `${sep}node_modules${sep}`
  const at = file.lastIndexOf(marker)
  if (at === -1) return file
  const parts = file.slice(at + marker.length).split(sep)
  return file.slice(0, at + marker.length) + (parts[0].startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join(sep)
}

/**
 * Called while a plugin loads (from what it calls on its instance): when a bridged plugin is loading,
 * the code calling is that plugin's, and its package (or file) is recorded as that plugin's, so that a
 * later use of a Fastify 4 accessor from there names it.
 */
export function noteBridgedCaller (app: AppState): void {
  const bridged = loadingBridgedPlugin(app)
  if (bridged === undefined) return
  const caller = outsideFrames(12)[0]
  if (caller === undefined) return
  const source = sourceOf(fileOf(caller))
  if (!app.bridgeSources.has(source)) app.bridgeSources.set(source, bridged)
}

/** Uses of one accessor whose caller is looked for: the first 64, then every power of two (a stack costs microseconds). */
function sampled (count: number): boolean {
  return count <= 64 || (count & (count - 1)) === 0
}

/** Who used an accessor: the bridged plugin whose code is on the stack, else the first caller outside trellis (file:line). */
function userOf (app: AppState): string {
  const frames = outsideFrames(24)
  for (const frame of frames) {
    const plugin = app.bridgeSources.get(sourceOf(fileOf(frame)))
    if (plugin !== undefined) return plugin
  }
  const first = frames[0]
  return first === undefined ? 'an unknown caller' : `code outside the bridged plugins (${fileOf(first)}:${String(first.getLineNumber())})`
}

/** Names each user of a Fastify 4 accessor once (TRLBRG002): the plugin that used it, and Fastify 5's way. */
function used (app: AppState, member: string, instead: string): void {
  const count = (app.bridgeUseCounts.get(member) ?? 0) + 1
  app.bridgeUseCounts.set(member, count)
  if (!sampled(count)) return
  const user = userOf(app)
  const key = `${member}\u0000${user}`
  if (app.bridgeUsed.has(key)) return
  app.bridgeUsed.add(key)
  emitV5Warning('TRLBRG002', member, user, instead)
}

/** Fastify 4's reply members that Fastify 5 removed (`context`, `getResponseTime`) or changed (`redirect(code, url)`). */
const REPLY_V4_ONLY = ['context', 'getResponseTime', 'redirect'] as const

function lendRequestAccessor (app: AppState, target: object, name: string): void {
  const { read, instead } = REQUEST_V4_ONLY[name]
  const label = `request.${name}`
  Object.defineProperty(target, name, { configurable: true, get (this: RequestV4) { used(app, label, instead); return read(this) } })
}

function lendReplyMember (app: AppState, target: Record<string, unknown>, name: typeof REPLY_V4_ONLY[number]): void {
  if (name === 'context') {
    Object.defineProperty(target, name, { configurable: true, get (this: ReplyV4) { used(app, 'reply.context', 'request.routeOptions'); return this.routeContext } })
    return
  }
  if (name === 'getResponseTime') {
    Object.defineProperty(target, name, {
      configurable: true,
      writable: true,
      value: function getResponseTime (this: ReplyV4) { used(app, 'reply.getResponseTime()', 'reply.elapsedTime'); return this.elapsedTime }
    })
    return
  }
  // redirect is shared with Fastify 5: only its Fastify 4 form (a status code first) is the bridge's
  const redirect = target.redirect as (url: unknown, code?: unknown) => unknown
  Object.defineProperty(target, name, {
    configurable: true,
    writable: true,
    value: function (this: unknown, urlOrCode: unknown, codeOrUrl?: unknown) {
      if (typeof urlOrCode !== 'number') return redirect.call(this, urlOrCode, codeOrUrl)
      used(app, 'reply.redirect(code, url)', 'reply.redirect(url, code)')
      return redirect.call(this, codeOrUrl, urlOrCode)
    }
  })
}

function installFastify4Accessors (app: AppState): void {
  const root: PluginContext = app.rootContext
  for (const name of Object.keys(REQUEST_V4_ONLY)) lendRequestAccessor(app, root.Request.prototype, name)
  for (const name of REPLY_V4_ONLY) lendReplyMember(app, root.Reply.prototype as unknown as Record<string, unknown>, name)
  // routes stop at these classes when they skip empty subclasses (route-builder's nearestDecorated)
  root.Request.decorated = true
  root.Reply.decorated = true
}
