/**
 * Instance methods Fastify added between 4.4 and 4.29, kept apart from instance.ts (which holds
 * the 4.3 interface): `setGenReqId` / `genReqId`, `setChildLoggerFactory` / `childLoggerFactory`,
 * `findRoute`, and `Symbol.asyncDispose` (`await using app = trellis()` closes it). Each delegates
 * to the module that owns the concern; every one is encapsulated like Fastify's.
 */
import type { IncomingMessage } from 'node:http'
import { errorCodes } from './errors'
import { contextOf, type Context } from './context/context'
import { contextGenReqId, setContextGenReqId } from './context/gen-req-id'
import {
  contextChildLoggerFactory, defaultChildLoggerFactory, setContextChildLoggerFactory, type ChildLoggerFactory
} from './context/child-logger-factory'
import { TrellisInstance } from './instance'

declare module './instance' {
  interface TrellisInstance {
    /** Fastify 4.29: this context's request-id generator (inherited by its children and routes). */
    setGenReqId (fn: (this: TrellisInstance, req: IncomingMessage) => string): this
    readonly genReqId: (req: IncomingMessage) => string
    /** Fastify 4.29: `(logger, bindings, opts, rawReq) => childLogger` for this context's requests. */
    setChildLoggerFactory (factory: ChildLoggerFactory): this
    readonly childLoggerFactory: ChildLoggerFactory
    /** Fastify 4.29: the route a method and URL pattern lead to, `{ handler, params, searchParams }`, or null. */
    findRoute (options: { method: string, url: string, constraints?: Record<string, unknown> }): { handler: unknown, params: Record<string, string | undefined>, searchParams: Record<string, string> } | null
    [Symbol.asyncDispose] (): Promise<void>
  }
}

function ctx (instance: unknown): Context { return contextOf(instance) }

function assertNotStarted (context: Context, method: string): void {
  if (context.root.booted) throw new errorCodes.FST_ERR_INSTANCE_ALREADY_LISTENING(`Cannot call "${method}"!`)
}

const methods: Record<string, PropertyDescriptor> = {
  setGenReqId: {
    value: function setGenReqId (this: TrellisInstance, fn: (req: IncomingMessage) => string) {
      const context = ctx(this)
      assertNotStarted(context, 'setGenReqId')
      if (typeof fn !== 'function') throw new TypeError('setGenReqId expects a function')
      setContextGenReqId(context, fn)
      return this
    }
  },
  genReqId: {
    get (this: TrellisInstance) { return contextGenReqId(ctx(this)) }
  },
  setChildLoggerFactory: {
    value: function setChildLoggerFactory (this: TrellisInstance, factory: ChildLoggerFactory) {
      const context = ctx(this)
      assertNotStarted(context, 'setChildLoggerFactory')
      if (typeof factory !== 'function') throw new TypeError('setChildLoggerFactory expects a function')
      setContextChildLoggerFactory(context, factory)
      return this
    }
  },
  childLoggerFactory: {
    get (this: TrellisInstance) { return contextChildLoggerFactory(ctx(this)) ?? defaultChildLoggerFactory }
  },
  findRoute: {
    value: function findRoute (this: TrellisInstance, options: { method: string, url: string, constraints?: Record<string, unknown> }) {
      const found = ctx(this).root.router.find(String(options.method).toUpperCase(), options.url || '', options.constraints)
      if (found === null) return null
      // a fresh object each time: callers cannot change the route through it
      return { handler: found.store.handler, params: { ...found.params }, searchParams: { ...found.searchParams } }
    }
  },
  [Symbol.asyncDispose]: {
    value: function dispose (this: TrellisInstance) { return this.close() }
  }
}

for (const key of Reflect.ownKeys(methods)) {
  Object.defineProperty(TrellisInstance.prototype, key, { configurable: true, enumerable: false, ...methods[key as string] })
}

/**
 * Fastify 4.29 defines `errorHandler` and `childLoggerFactory` as getters of the instance object
 * itself, without a setter: the root instance gets the same own accessors (child instances inherit them).
 */
export function defineOwnAccessors (instance: TrellisInstance): void {
  for (const name of ['errorHandler', 'childLoggerFactory']) {
    const descriptor = Object.getOwnPropertyDescriptor(TrellisInstance.prototype, name)
    if (descriptor?.get !== undefined) Object.defineProperty(instance, name, { configurable: true, enumerable: false, get: descriptor.get })
  }
}
