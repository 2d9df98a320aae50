/**
 * Loading the plugin tree: enqueueing `register` and `after`, loading nodes in order, creating a
 * child context per plugin (or reusing the parent's for skip-override plugins), and `ready()`.
 */
import { errorCodes } from '../base/errors'
import { nextTurn } from '../base/next-turn'
import { errorCodesAddedInV5 } from '../base/errors-v5'
import { loaderTimeoutError, untilDone } from './with-timeout'
import { PluginContext, contextOf } from './plugin-context'
import type { AppState } from './app-state'
import {
  PluginNode, callAfter, callPlugin, isSkipOverride, mixedStylePluginName, pluginMeta, pluginName, resolvePluginFunction, warnMixedStylePlugin,
  type AfterFn, type PluginFn
} from './plugins'
import { checkPluginMeta } from './plugin-meta'
import { bridgePlugin, loadingBridgedPlugin } from './fastify4-bridge'
import { kDisplayName } from './symbols'
import { buildNotFoundRoutes, buildRoute } from './route-builder'
import { collectAotMisses } from '../schema/aot/misses'

function currentNode (app: AppState): PluginNode {
  return app.stack.length > 0 ? app.stack[app.stack.length - 1] : app.rootNode
}

export function enqueuePlugin (app: AppState, owner: unknown, plugin: unknown, opts: unknown): void {
  if (app.booted) throw new errorCodes.FST_ERR_ROOT_PLG_BOOTED('root plugin has already booted')
  const isModulePromise = plugin !== null && typeof plugin === 'object' && typeof (plugin as PromiseLike<unknown>).then === 'function'
  const isModule = plugin !== null && typeof plugin === 'object' && typeof (plugin as { default?: unknown }).default === 'function'
  if (typeof plugin !== 'function' && !isModulePromise && !isModule) {
    throw new errorCodes.FST_ERR_PLUGIN_NOT_VALID(`plugin must be a function or a promise. Received: '${typeof plugin}'`)
  }
  if (opts !== undefined && opts !== null && typeof opts !== 'object' && typeof opts !== 'function') {
    throw new errorCodes.FST_ERR_PLUGIN_NOT_VALID(`The options object of plugin '${pluginName(plugin)}' must be an object or a function`)
  }
  // FSTWRN002 as the plugin is registered (its process 'warning' event then reaches listeners before ready() settles)
  if (app.options.line === 4) warnMixedStylePlugin(plugin)
  const parent = currentNode(app)
  parent.queue.push(new PluginNode('plugin', plugin as PluginFn, opts, parent, owner, typeof plugin === 'function' ? pluginName(plugin) : 'module'))
}

export function enqueueAfter (app: AppState, owner: unknown, fn: AfterFn): void {
  const parent = currentNode(app)
  parent.queue.push(new PluginNode('after', fn, undefined, parent, owner, 'after'))
}

/** Loads what is queued so far in the plugin that is loading now (`await register(...)`, `after()`). */
export function loadQueued (app: AppState): Promise<void> {
  return drain(app, currentNode(app))
}

function drain (app: AppState, node: PluginNode): Promise<void> {
  const run = async (): Promise<void> => {
    // a load error stays with its level (as avvio's): later plugins there are skipped and every later
    // `after()`, `await` or ready() sees it, until an after callback that takes `err` handles it
    let err: Error | null = node.error
    while (node.queue.length > 0) {
      const child = node.queue.shift() as PluginNode
      if (child.kind === 'after') {
        child.instance = child.owner
        // avvio's name for an after() callback
        child.loadTime = node.loadTime?.child('bound _after') ?? null
        app.stack.push(child)
        try {
          err = await callAfter(child.fn as AfterFn, err, child.owner)
        } finally {
          app.stack.pop()
        }
        if (err === null) {
          try { await drain(app, child) } catch (e) { err = e as Error }
        }
        child.loadTime?.end()
        continue
      }
      if (err !== null) continue
      try {
        await loadPlugin(app, child)
      } catch (e) {
        err = e as Error
      }
    }
    node.error = err
    if (err !== null) throw err
  }
  const previous = node.draining ?? Promise.resolve()
  const next = previous.then(run, run)
  node.draining = next.catch(() => {})
  return next
}

async function loadPlugin (app: AppState, node: PluginNode): Promise<void> {
  const fn = await resolvePluginFunction(node.fn)
  const parentContext = contextOf(node.owner)
  const name = pluginName(fn)
  node.loadTime = node.parent?.loadTime?.child(name) ?? null
  try {
    await loadPluginNamed(app, node, fn, parentContext, name)
  } finally {
    node.loadTime?.end()
  }
}

async function loadPluginNamed (app: AppState, node: PluginNode, fn: PluginFn, parentContext: PluginContext, name: string): Promise<void> {
  const bridgedRange = checkPluginMeta(fn, parentContext)
  const declared = pluginMeta(fn)?.fastify
  if (typeof declared === 'string' && declared !== '') app.declaredRanges.push({ plugin: pluginMeta(fn)?.name ?? name, range: declared, fn })
  if (bridgedRange !== undefined) {
    node.bridged = pluginMeta(fn)?.name ?? name
    bridgePlugin(app, node.bridged, bridgedRange)
  }
  if (app.options.line === 5 && bridgedRange === undefined && loadingBridgedPlugin(app) === undefined) {
    const mixed = mixedStylePluginName(fn)
    if (mixed !== undefined) throw new errorCodesAddedInV5.FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER(mixed)
  } else if (app.options.line === 4 && typeof node.fn !== 'function') warnMixedStylePlugin(fn) // a module's plugin: known only now
  // (a bridged one on the v5 line: TRLBRG001 names it; FSTWRN002's "an error in `fastify@5`" is Fastify 4's)
  const metaName = pluginMeta(fn)?.name
  if (metaName !== undefined) { parentContext.registeredPlugins.push(metaName); app.loadedPluginNames.add(metaName) }
  // as avvio: an options function is called with the instance the plugin runs in (its own child
  // context, or the parent for a wrapped plugin), so what it adds there is the plugin's own
  const instance = isSkipOverride(fn) ? node.owner : createChildInstance(parentContext, name, typeof node.opts === 'function' ? {} : (node.opts ?? {}) as Record<string, any>)
  const opts = pluginOptions(node.opts, instance)
  if (isSkipOverride(fn) && typeof (fn as unknown as Record<symbol, unknown>)[kDisplayName] === 'string') parentContext.pluginNames.push(name)
  if (!isSkipOverride(fn) && metaName !== undefined) contextOf(instance).registeredPlugins.push(metaName)
  node.instance = instance
  app.stack.push(node)
  try {
    await callPlugin(fn, instance, opts, name, app.options.pluginTimeout)
  } finally {
    app.stack.pop()
  }
  node.started = true
  await drain(app, node)
  node.finished = true
}

/** A plugin's options: the object given to register(), or what an options function returns for the plugin's instance. */
function pluginOptions (opts: unknown, owner: unknown): Record<string, any> {
  const value = typeof opts === 'function' ? (opts as (instance: unknown) => unknown)(owner) : opts
  return (value ?? {}) as Record<string, any>
}

function buildPrefix (parentPrefix: string, pluginPrefix: unknown): string {
  if (typeof pluginPrefix !== 'string' || pluginPrefix === '') return parentPrefix
  let prefix = pluginPrefix
  if (parentPrefix.endsWith('/') && prefix[0] === '/') prefix = prefix.slice(1)
  else if (prefix[0] !== '/') prefix = '/' + prefix
  return parentPrefix + prefix
}

/** A child context and its instance: Object.create(parent instance), so decorators inherit. */
function createChildInstance (parent: PluginContext, name: string, opts: Record<string, any>): unknown {
  const instance = Object.create(parent.instance)
  const context = new PluginContext(parent.app, parent, instance, name, buildPrefix(parent.prefix, opts.prefix), parent.parsers.child(), parent.errorHandler, parent.log)
  const serializers = opts.logSerializers !== null && typeof opts.logSerializers === 'object' ? opts.logSerializers as Record<string, (value: any) => unknown> : undefined
  if (serializers !== undefined) context.logSerializers = { ...parent.logSerializers, ...serializers }
  if (typeof opts.logLevel === 'string' || serializers !== undefined) {
    const child = (serializers !== undefined ? parent.log.child({}, { serializers }) : parent.log.child({})) as typeof parent.log
    if (typeof opts.logLevel === 'string') {
      context.logLevel = opts.logLevel
      child.level = opts.logLevel
    }
    context.log = child
  }
  for (const hook of context.onRegister) hook.call(parent.instance, instance, opts)
  return instance
}

/** Loads the whole tree, builds 404s and routes, runs onReady hooks. Idempotent. */
export function ready (app: AppState): Promise<void> {
  if (app.readyPromise === null) {
    app.readyPromise = (async () => {
      // the tree starts loading on the next turn of the event loop, as avvio's does: code that runs
      // on from the caller (listen(), then routes added by promise callbacks) still adds to it
      await nextTurn()
      try {
        await drain(app, app.rootNode)
      } catch (err) {
        callReadyWhileLoading(app, err as Error)
        throw err
      } finally {
        app.rootNode.loadTime?.end()
      }
      app.booted = true
      app.dispatcher.notFoundRoutes = buildNotFoundRoutes(app.rootContext)
      // with a build (trellis build), one warning names the schemas it lacked
      collectAotMisses(() => { for (const record of app.routes) buildRoute(record) })
      // Fastify 5 routerOptions.compile: every route is in; 404 routes are trellis's table, not a router
      if (app.options.router.compile === true) app.dispatcher.router.compile()
      callReadyWhileLoading(app, null)
      await runOnReady(app)
      app.isReady = true
    })()
    app.readyPromise.catch(() => {})
  }
  return app.readyPromise
}

/**
 * close() before ready(): like avvio, the plugin tree still loads (so plugins can add onClose hooks
 * and see their context), but onReady hooks do not run. Waits for a ready() already under way.
 */
export async function loadForClose (app: AppState): Promise<void> {
  if (app.readyPromise !== null) { await app.readyPromise.catch(() => {}); return }
  await new Promise<void>((resolve) => process.nextTick(resolve))
  await drain(app, app.rootNode).catch(() => {})
  app.booted = true
}

/**
 * `ready(cb)` called by a plugin while the tree loads: as with avvio, the callback runs once the tree
 * has loaded, in call order, before the onReady hooks (it cannot wait for them: they may depend on it).
 */
export function onTreeLoaded (app: AppState, cb: (err: Error | null) => void): void {
  app.readyWhileLoading.push(cb)
}

function callReadyWhileLoading (app: AppState, err: Error | null): void {
  const callbacks = app.readyWhileLoading.splice(0)
  for (const cb of callbacks) cb(err)
}

function collectHooks (context: PluginContext, name: 'onReady' | 'onClose' | 'preClose', out: Array<{ context: PluginContext; fn: (...a: any[]) => unknown }>): void {
  for (const fn of context[name]) out.push({ context, fn })
  for (const child of context.children) collectHooks(child, name, out)
}

async function runOnReady (app: AppState): Promise<void> {
  const hooks: Array<{ context: PluginContext; fn: (...a: any[]) => unknown }> = []
  collectHooks(app.rootContext, 'onReady', hooks)
  for (const { context, fn } of hooks) await runAppHook(fn, context.instance, [], app.options.pluginTimeout, 'onReady', app.options.line)
}

/**
 * onListen hooks (Fastify 4.29), after the server listens: a context's hooks in order, then its
 * children's. Not awaited by listen(); a failing hook is logged and the next one runs.
 */
export function runOnListen (context: PluginContext): void {
  const hooks = context.onListen
  const instance = context.instance
  let i = 0
  const next = (err?: unknown): void => {
    if (err !== undefined && err !== null) instance.log.error(err)
    if (i === hooks.length) {
      for (const child of context.children) runOnListen(child)
      return
    }
    const fn = hooks[i++]
    try {
      if (fn.length === 1) { fn.call(instance, next); return }
      const ret = fn.call(instance)
      if (ret !== null && typeof ret === 'object' && typeof ret.then === 'function') ret.then(() => next(), (e: unknown) => next(e ?? new Error('onListen hook rejected')))
      else next()
    } catch (e) {
      next(e)
    }
  }
  next()
}

/** Whether any context has onListen hooks (listen() skips the walk otherwise). */
export function hasOnListen (context: PluginContext): boolean {
  return context.onListen.length > 0 || context.children.some(hasOnListen)
}

/** preClose hooks (Fastify 4.29): parents before children, before the server closes; failures are logged. */
export async function runPreClose (app: AppState): Promise<void> {
  const hooks: Array<{ context: PluginContext; fn: (...a: any[]) => unknown }> = []
  collectHooks(app.rootContext, 'preClose', hooks)
  for (const { context, fn } of hooks) {
    try {
      await runAppHook(fn, context.instance, [], 0, 'preClose')
    } catch (err) {
      context.instance.log.error(err)
    }
  }
}

/** onClose hooks: children before parents, like Fastify; each gets (instance, done). */
export async function runOnClose (app: AppState): Promise<void> {
  const hooks: Array<{ context: PluginContext; fn: (...a: any[]) => unknown }> = []
  collectHooks(app.rootContext, 'onClose', hooks)
  hooks.reverse()
  let firstError: Error | null = null
  for (const { context, fn } of hooks) {
    try {
      await runAppHook(fn, context.instance, [context.instance], 0, 'onClose')
    } catch (err) {
      firstError ??= err as Error
    }
  }
  if (firstError !== null) throw firstError
}

/**
 * FST_ERR_HOOK_TIMEOUT, with the loader's own timeout error as `cause` (code AVV_ERR_READY_TIMEOUT, as in Fastify 4.3).
 * Fastify 5 also names the hook function: `A callback for 'onReady' hook "name" timed out. ...`.
 */
function hookTimeoutError (name: string, fn: (...a: any[]) => unknown, namesFunction: boolean): Error {
  const err = new errorCodes.FST_ERR_HOOK_TIMEOUT(name) as Error & { cause?: unknown }
  if (namesFunction && fn.name !== '') err.message = err.message.replace(`'${name}' hook`, `'${name}' hook "${fn.name}"`)
  err.cause = loaderTimeoutError(fn.name, fn)
  return err
}

function runAppHook (fn: (...a: any[]) => unknown, thisArg: unknown, args: unknown[], timeout: number, name: string, line: 4 | 5 = 4): Promise<void> {
  return untilDone(timeout, () => hookTimeoutError(name, fn, line === 5), (done) => {
    const result = fn.call(thisArg, ...args, done)
    if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
      (result as PromiseLike<unknown>).then(() => done(), (err: unknown) => done(err ?? new Error(`${name} hook rejected`)))
    } else if (fn.length <= args.length) {
      done()
    }
  })
}
