/**
 * `setChildLoggerFactory` and the route option `childLoggerFactory` (Fastify 4.29): who makes each
 * request's child logger. A context's factory is inherited by its descendants (unless they set
 * their own) and resolved once per route when routes are built; without one, requests keep the
 * built-in fast path (RouteContext.childLoggerFactory === null).
 */
import type { IncomingMessage } from 'node:http'
import type { Logger } from '../server/logger'
import type { Context } from './context'

export type ChildLoggerFactory = (this: any, logger: Logger, bindings: Record<string, unknown>,
  opts: { level?: string, serializers?: Record<string, (value: any) => unknown> }, rawReq: IncomingMessage) => Logger

const own = new WeakMap<Context, ChildLoggerFactory>()

export function setContextChildLoggerFactory (context: Context, factory: ChildLoggerFactory): void {
  own.set(context, factory)
}

/** The factory of `context` (its own or the nearest ancestor's); null when none was set. */
export function contextChildLoggerFactory (context: Context): ChildLoggerFactory | null {
  for (let c: Context | null = context; c !== null; c = c.parent) {
    const fn = own.get(c)
    if (fn !== undefined) return fn
  }
  return null
}

/** Fastify's default factory: `logger.child(bindings, opts)`. */
export function defaultChildLoggerFactory (logger: Logger, bindings: Record<string, unknown>, opts: Record<string, unknown>): Logger {
  return logger.child(bindings, opts) as Logger
}
