/**
 * The instance of a Fastify 5 application: the shared methods of instance.ts with Fastify 5's
 * differences — the HTTP method registry (`addHttpMethod`, `supportedMethods`, `trace`, `query`),
 * `hasRoute` by route definition, `listen(options, cb)` only, and without the methods Fastify 5
 * removed (`getDefaultRoute`, `setDefaultRoute`).
 */
import { contextOf, type PluginContext } from '../context/plugin-context'
import { errorCodes } from '../base/errors'
import { errorCodesAddedInV5 } from '../base/errors-v5'
import { emitV5Warning } from '../base/warnings-v5'
import type { AnyHook } from '../lifecycle/hooks'
import { HttpMethods } from '../lifecycle/http-methods'
import { readDecorator } from '../lifecycle/instance-fields'
import { shorthandOptions } from '../routing/route-options'
import { addRoute } from '../context/route-builder'
import { printLoadTimes } from '../context/load-times'
import { TrellisInstance, bindOnRead } from './instance'

function ctx (instance: unknown): PluginContext { return contextOf(instance) }

export class TrellisInstanceV5 extends TrellisInstance {
  get supportedMethods (): string[] { return ctx(this).app.dispatcher.methods.list() }

  /** The plugin tree as Fastify 5 prints it (avvio's time tree): each plugin and after() callback with its load time. */
  override printPlugins (): string {
    const root = ctx(this).app.rootNode.loadTime
    return root === null ? super.printPlugins() : printLoadTimes(root)
  }

  /** Adds a method node knows to the ones routes may use (with a body when `hasBody`), and its shorthand. */
  addHttpMethod (method: string, { hasBody = false, overrideExisting = false }: { hasBody?: boolean, overrideExisting?: boolean } = {}): this {
    if (!HttpMethods.isKnownToNode(method)) throw new errorCodes.FST_ERR_ROUTE_METHOD_INVALID()
    const existed = ctx(this).app.dispatcher.methods.add(method, hasBody)
    if (existed && !overrideExisting) emitV5Warning('FSTDEP025', method)
    const shorthand = method.toLowerCase()
    if (!this.hasDecorator(shorthand)) {
      this.decorate(shorthand, function (this: TrellisInstance, url: string, options: unknown, handler?: unknown) {
        addRoute(ctx(this), shorthandOptions(method, url, options, handler))
        return this
      })
    }
    return this
  }

  /**
   * Fastify 5: a second handler in the same scope (a child scope starts afresh) warns (FSTWRN004),
   * or throws FST_ERR_ERROR_HANDLER_ALREADY_SET with `allowErrorHandlerOverride: false`.
   */
  override setErrorHandler (handler: Parameters<TrellisInstance['setErrorHandler']>[0]): this {
    const context = ctx(this)
    const again = typeof handler === 'function' && scopesWithErrorHandler.has(context)
    if (again && !context.app.options.allowErrorHandlerOverride) throw new errorCodesAddedInV5.FST_ERR_ERROR_HANDLER_ALREADY_SET()
    super.setErrorHandler(handler)
    if (again) emitV5Warning('FSTWRN004')
    scopesWithErrorHandler.add(context)
    return this
  }

  /** Fastify 5.x: an `onClose` hook may be a Disposable or AsyncDisposable object (`Symbol.asyncDispose` first). */
  override addHook (name: string, fn: AnyHook): this {
    if (name === 'onClose' && typeof fn !== 'function') return super.addHook(name, disposableHook(fn) ?? fn)
    return super.addHook(name, fn)
  }

  /** A declared instance property (decorators included), methods bound to the instance; FST_ERR_DEC_UNDECLARED otherwise. */
  getDecorator (name: string | symbol): unknown { return readDecorator(this, name, 'instance') }

  trace (path: string, optsOrHandler: object, handler?: unknown): this {
    addRoute(ctx(this), shorthandOptions('TRACE', path, optsOrHandler, handler))
    return this
  }

  query (path: string, optsOrHandler: object, handler?: unknown): this {
    addRoute(ctx(this), shorthandOptions('QUERY', path, optsOrHandler, handler))
    return this
  }

  /** Fastify 5: whether a route is defined with exactly this method and path (find-my-way's hasRoute), not whether a URL would match one. */
  override hasRoute (options: { url: string; method: string; constraints?: Record<string, unknown> }): boolean {
    const method = typeof options?.method === 'string' ? options.method.toUpperCase() : ''
    if (method === '') return false
    return ctx(this).app.router.has(method, options.url || '', options.constraints)
  }

  /** `listen(options?, cb?)` only: Fastify 5 removed `listen(port, host, backlog, cb)`. */
  override listen (options?: unknown, cb?: unknown): any {
    if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function') {
      throw new errorCodes.FST_ERR_LISTEN_OPTIONS_INVALID(`listen(${JSON.stringify(options)}, ...) was removed in Fastify 5: use listen({ port, host })`)
    }
    if (cb !== undefined) return super.listen(options, cb)
    return options === undefined ? super.listen() : super.listen(options)
  }
}

/** The scopes whose own setErrorHandler has run. */
const scopesWithErrorHandler = new WeakSet<PluginContext>()

/** The onClose hook that disposes `resource`, or undefined when it is neither Disposable nor AsyncDisposable. */
function disposableHook (resource: unknown): AnyHook | undefined {
  if (resource === null || typeof resource !== 'object') return undefined
  const disposable = resource as { [Symbol.asyncDispose]?: () => PromiseLike<unknown>, [Symbol.dispose]?: () => void }
  if (typeof disposable[Symbol.asyncDispose] === 'function') {
    return ((_instance: unknown, done: (err?: unknown) => void) => {
      Promise.resolve(disposable[Symbol.asyncDispose]!()).then(() => done(), done)
    }) as AnyHook
  }
  if (typeof disposable[Symbol.dispose] === 'function') {
    return ((_instance: unknown, done: (err?: unknown) => void) => {
      try { disposable[Symbol.dispose]!() } catch (err) { done(err); return }
      done()
    }) as AnyHook
  }
  return undefined
}

// removed in Fastify 5: absent from a v5 application's instance
for (const name of ['getDefaultRoute', 'setDefaultRoute']) {
  Object.defineProperty(TrellisInstanceV5.prototype, name, { value: undefined, writable: true, configurable: true })
}

// Fastify 5's own hasRoute works detached, as the shared methods do
bindOnRead(TrellisInstanceV5.prototype, ['hasRoute'])
