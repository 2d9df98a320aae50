/**
 * The plugin queue. Every `register` adds a node to the queue of the plugin that is loading right
 * now (the root's, outside any plugin); a node loads after its parent's function has finished, in
 * registration order, and its own children load before its parent's next sibling. `after` entries
 * sit in the same queues, so they run exactly where they were called. `await instance.register(p)`
 * (and `await instance`) loads what is queued so far.
 */
import { errorCodes } from '../base/errors'
import { loaderTimeoutError, untilDone } from './with-timeout'
import { kDisplayName, kPluginMeta, kSkipOverride } from './symbols'
import { emitWarning } from '../base/warnings'
import type { LoadTime } from './load-times'

export type PluginFn = (instance: any, opts: any, done: (err?: Error) => void) => unknown

/** Options every plugin accepts from `register` (besides its own). */
// The public plugin types (TrellisPluginAsync, TrellisPluginCallback, RegisterOptions) are in src/types/plugin.ts and src/types/register.ts.
export type AfterFn = (...args: any[]) => unknown

interface PluginMeta { name?: string; fastify?: string; dependencies?: string[]; decorators?: { fastify?: string[]; request?: string[]; reply?: string[] } }

export class PluginNode {
  readonly queue: PluginNode[] = []
  /** Set by the loader once the node's function has run; children then load in order. */
  started = false
  finished = false
  draining: Promise<void> | null = null
  /** The load error of this level not yet handled by an `after(err)` callback. */
  error: Error | null = null
  /** The name of a plugin this node loads through the Fastify 4 bridge (docs: context/fastify4-bridge.ts), else null. */
  bridged: string | null = null
  /** The instance the node's function ran with (the parent's for skip-override and after nodes). */
  instance: unknown = null
  /** How long the node took to load (printPlugins() on the Fastify 5 line); the root's starts with the application. */
  loadTime: LoadTime | null = null
  constructor (
    readonly kind: 'root' | 'plugin' | 'after',
    readonly fn: PluginFn | AfterFn | null,
    readonly opts: unknown,
    readonly parent: PluginNode | null,
    /** The instance `register`/`after` was called on. */
    readonly owner: unknown,
    readonly name: string
  ) {}
}

export function isSkipOverride (fn: unknown): boolean {
  return typeof fn === 'function' && (fn as unknown as Record<symbol, unknown>)[kSkipOverride] === true
}

export function pluginMeta (fn: unknown): PluginMeta | undefined {
  return typeof fn === 'function' ? (fn as unknown as Record<symbol, PluginMeta | undefined>)[kPluginMeta] : undefined
}

/** The name Fastify would show for a plugin: display name, meta name, function name, or its first lines. */
export function pluginName (fn: unknown): string {
  if (typeof fn !== 'function') return 'anonymous'
  const named = fn as unknown as Record<symbol, unknown>
  const display = named[kDisplayName]
  if (typeof display === 'string' && display !== '') return display
  const meta = pluginMeta(fn)
  if (meta?.name !== undefined && meta.name !== '') return meta.name
  if (fn.name !== '') return fn.name
  return fn.toString().split('\n').slice(0, 2).map((s) => s.trim()).join(' -- ')
}

/**
 * FSTWRN002 (Fastify 4.29): an `async` plugin that also takes `done` mixes the two styles (an
 * error in Fastify 5). Named as Fastify does: metadata or display name, the module file that
 * exports it, the function's name, else 'anonymous'.
 */
/** The name of an async plugin that also takes `done` (Fastify 4 warns, FSTWRN002; Fastify 5 refuses it); undefined for any other plugin. */
export function mixedStylePluginName (fn: unknown): string | undefined {
  if (typeof fn !== 'function' || fn.constructor?.name !== 'AsyncFunction' || fn.length !== 3) return undefined
  const named = fn as unknown as Record<symbol, unknown>
  let name: string | undefined = pluginMeta(fn)?.name
  if (name === undefined || name === '') name = typeof named[kDisplayName] === 'string' && named[kDisplayName] !== '' ? named[kDisplayName] as string : undefined
  if (name === undefined && typeof require !== 'undefined' && require.cache !== undefined) {
    for (const key of Object.keys(require.cache)) if (require.cache[key]?.exports === fn) { name = key; break }
  }
  if (name === undefined && fn.name !== '') name = fn.name
  return name ?? 'anonymous'
}

export function warnMixedStylePlugin (fn: unknown): void {
  const name = mixedStylePluginName(fn)
  if (name !== undefined) emitWarning('FSTWRN002', name)
}

function isThenable (v: unknown): v is PromiseLike<unknown> {
  return v !== null && (typeof v === 'object' || typeof v === 'function') && typeof (v as PromiseLike<unknown>).then === 'function'
}

/**
 * Resolves what `register` was given to a plugin function: a function, an ES module namespace or
 * CommonJS object with a `default` function, or a promise of either (`register(import('./p.js'))`).
 */
export async function resolvePluginFunction (plugin: unknown): Promise<PluginFn> {
  let value = plugin
  if (isThenable(value) && typeof value !== 'function') value = await value
  if (value !== null && typeof value === 'object' && typeof (value as { default?: unknown }).default === 'function') {
    value = (value as { default: unknown }).default
  }
  if (typeof value !== 'function') {
    throw new errorCodes.FST_ERR_PLUGIN_NOT_VALID(`plugin must be a function or a promise. Received: '${typeof value}'`)
  }
  return value as PluginFn
}

/**
 * Calls a plugin function and settles when it is done: when its promise settles, or when it calls
 * `done`. A function that does neither within `timeout` ms fails with FST_ERR_PLUGIN_TIMEOUT.
 */
export function callPlugin (fn: PluginFn, instance: unknown, opts: unknown, name: string, timeout: number): Promise<void> {
  const onTimeout = (): Error => {
    // a plugin that never finishes: avvio 8.3+'s code, as in Fastify 4.29 (4.3's avvio said AVV_ERR_READY_TIMEOUT)
    const cause = loaderTimeoutError(name, fn, 'AVV_ERR_PLUGIN_EXEC_TIMEOUT')
    const err = new errorCodes.FST_ERR_PLUGIN_TIMEOUT(cause.message) as Error & { fn?: unknown; cause?: unknown }
    err.fn = fn
    err.cause = cause
    return err
  }
  return untilDone(timeout, onTimeout, (done) => {
    const result = fn(instance, opts, done)
    if (isThenable(result)) {
      result.then(() => process.nextTick(done), (err: unknown) => process.nextTick(done, err ?? new Error(`plugin '${name}' rejected without a reason`)))
    }
  })
}

/** Runs an `after` callback with avvio's arity rules: (), (err), (err, done), (err, instance, done). */
export function callAfter (fn: AfterFn, err: Error | null, instance: unknown): Promise<Error | null> {
  return new Promise((resolve) => {
    const settle = (e?: unknown): void => { resolve(e === undefined || e === null ? null : (e as Error)) }
    try {
      if (fn.length === 0) {
        const r = fn.call(instance)
        if (isThenable(r) && !isTrellisLike(r)) r.then(() => settle(err), (e: unknown) => settle(e))
        else settle(err)
      } else if (fn.length === 1) {
        const r = fn.call(instance, err)
        if (isThenable(r) && !isTrellisLike(r)) r.then(() => settle(null), (e: unknown) => settle(e))
        else settle(null)
      } else if (fn.length === 2) {
        fn.call(instance, err, settle)
      } else {
        fn.call(instance, err, instance, settle)
      }
    } catch (e) {
      settle(e)
    }
  })
}

function isTrellisLike (v: unknown): boolean {
  return v !== null && typeof v === 'object' && typeof (v as { register?: unknown }).register === 'function'
}
