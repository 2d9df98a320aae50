/**
 * State shared by the whole plugin tree: options, logger, the plugin loader's stack, lifecycle
 * flags, the routes waiting to be built, the server, and the request entry point (the Dispatcher
 * of routing/dispatch.ts, which owns the router and the 404 table).
 */
import type { Server } from 'node:http'
import type { ResolvedOptions } from '../base/option-types'
import type { Logger } from '../server/logger'
import { Dispatcher } from '../routing/dispatch'
import type { Router } from '../routing/router'
import type { PluginContext } from './plugin-context'
import { PluginNode } from './plugins'
import { LoadTime } from './load-times'
import type { RouteRecord } from './route-builder'

export class AppState {
  rootContext!: PluginContext
  readonly rootNode: PluginNode
  readonly stack: PluginNode[] = []
  /** The plugin tree has loaded (ready() passed its loading phase): no more routes, hooks, decorators. */
  booted = false
  /** onReady hooks ran. */
  isReady = false
  /** ready(cb) callbacks given while the tree was loading (from a plugin): called once it has loaded, before onReady hooks. */
  readyWhileLoading: Array<(err: Error | null) => void> = []
  readyPromise: Promise<void> | null = null
  listening = false
  closed = false
  thenGuard = false
  readonly routes: RouteRecord[] = []
  /** Plugins loaded through the Fastify 4 bridge (a Fastify 5 application only), and the Fastify 4 accessors used so far. */
  readonly bridgedPlugins: string[] = []
  /** Accessor and user pairs named by TRLBRG002. */
  readonly bridgeUsed = new Set<string>()
  /** Uses of each Fastify 4 accessor so far (the bridge looks for the user of some of them). */
  readonly bridgeUseCounts = new Map<string, number>()
  /** Package directory (or file) of a bridged plugin's code -> the plugin's name. */
  readonly bridgeSources = new Map<string, string>()
  /** The Fastify version range each loaded plugin declares (by plugin name, with its function), for `trellis check`. */
  readonly declaredRanges: Array<{ plugin: string, range: string, fn: object }> = []
  /** The names (fastify-plugin metadata) of every plugin loaded, in any context. */
  readonly loadedPluginNames = new Set<string>()
  /** Why a fetch exchange cannot serve the application (instance.ts `fetch`), decided at its first call once ready: null, it can. */
  fetchRefusal: Error | null | undefined = undefined
  /** "instance:db" -> the context chains that defined it (for error messages). */
  readonly decoratorOrigins = new Map<string, string[]>()
  initialConfig: Readonly<Record<string, unknown>> = Object.freeze({})
  readonly dispatcher: Dispatcher
  server: Server | null = null

  constructor (readonly options: ResolvedOptions, readonly log: Logger, owner: unknown) {
    this.rootNode = new PluginNode('root', null, {}, null, owner, 'root')
    this.rootNode.instance = owner
    this.rootNode.started = true
    this.rootNode.loadTime = new LoadTime('root')
    this.dispatcher = new Dispatcher(options, log, owner)
  }

  get router (): Router { return this.dispatcher.router }

  /** close() has begun (the dispatcher answers requests accordingly). */
  get closing (): boolean { return this.dispatcher.closing }
  set closing (value: boolean) { this.dispatcher.closing = value }
}
