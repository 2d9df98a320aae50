/**
 * The hook runners of the request path: request hooks (request, reply, done), value hooks
 * (request, reply, payload, done), onResponse, notify hooks (onTimeout) and onRequestAbort, each in
 * callback and promise style. The hook lists themselves are built by the plugin tree
 * (context/plugin-context.ts) and resolved into each route at ready(); running them needs nothing from it.
 */
import { errorCodes } from '../base/errors'
import type { AnyHook } from './hooks'

function isPromise (value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function'
}

/**
 * Runs `hooks` as (request, reply, done) in order. `next(err, request, reply)` is called once, after
 * the last hook, on the first error, or never when a hook sent the reply (the reply then owns the
 * request). `next` gets the request and reply back so callers pass one shared function, not a
 * closure per request. Each `done` call runs the next hook at once (recursively, as Fastify 4.3's
 * runner does): code a hook runs after `done()` runs after the hooks that follow it.
 */
export function runRequestHooks<Req, Rep extends { sent: boolean }> (
  hooks: AnyHook[], thisArg: unknown, request: Req, reply: Rep,
  next: (err: Error | null, request: Req, reply: Rep) => void
): void {
  let i = 0
  const step = (err?: unknown): void => {
    // a hook that answered or hijacked owns the response: a later error of it is dropped (Fastify 4.3);
    // like Fastify, a non-Error value (a thrown string) reaches the error handlers as it is
    if (reply.sent) return
    if (err !== undefined && err !== null) { next(err as Error, request, reply); return }
    if (i === hooks.length) { next(null, request, reply); return }
    const hook = hooks[i++]
    let result: unknown
    try {
      result = hook.call(thisArg, request, reply, step)
    } catch (e) { next((e ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()) as Error, request, reply); return }
    if (result !== undefined && isPromise(result)) result.then(() => step(), (e: unknown) => step(e ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()))
  }
  step()
}

/**
 * Runs hooks that may replace a value, as (request, reply, value, done(err, newValue)):
 * preSerialization, onSend and preParsing. An async hook's resolved value replaces it when defined.
 */
export function runValueHooks (
  hooks: AnyHook[], thisArg: unknown, request: unknown, reply: unknown, value: unknown,
  next: (err: Error | null, value: unknown) => void
): void {
  let i = 0
  let current = value
  const step = (err?: unknown, newValue?: unknown): void => {
    // a hook answered (preParsing: `reply.send(); return reply` resolves once the response is out)
    // or hijacked: the reply owns the request, a later error is dropped
    if ((reply as { sent?: boolean }).sent === true) return
    if (err !== undefined && err !== null) { next(err as Error, current); return }
    if (newValue !== undefined) current = newValue
    if (i === hooks.length) { next(null, current); return }
    const hook = hooks[i++]
    let result: unknown
    try {
      result = hook.call(thisArg, request, reply, current, step)
    } catch (e) { next((e ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()) as Error, current); return }
    if (isPromise(result)) result.then((v) => step(null, v), (e: unknown) => step(e ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()))
  }
  step()
}

/**
 * Runs onResponse hooks as (request, reply, done): the response is already out, so nothing can be
 * answered any more; like Fastify, the first error stops the chain and is handed to `done(err)`.
 *
 * {@link runAbortHooks} is a near-copy on purpose. One runner for both (a flag choosing the
 * arguments and the error for an undefined failure) was measured: 517 instead of 476 instructions
 * per run of two onResponse hooks (callgrind, Node 20, difference of 2M and 6M runs, +8.5 %),
 * because the shared `step` closure's call sites then see both hook shapes (polymorphic) and the
 * extra call level is not always inlined. onResponse runs on every request of a route that has
 * the hooks; onRequestAbort almost never, so it does not pay for a shared runner.
 */
export function runResponseHooks (
  hooks: AnyHook[], thisArg: unknown, request: unknown, reply: unknown, done: (err: Error | null) => void
): void {
  let i = 0
  const step = (err?: unknown): void => {
    if (err !== undefined && err !== null) { done(toError(err)); return }
    if (i === hooks.length) { done(null); return }
    const hook = hooks[i++]
    let result: unknown
    try {
      result = hook.call(thisArg, request, reply, step)
    } catch (e) { done(toError(e)); return }
    if (isPromise(result)) result.then(() => step(), (e: unknown) => step(e ?? new Error('onResponse hook rejected')))
  }
  step()
}

/** Runs hooks that cannot stop anything (onTimeout): errors are reported, not thrown. */
export function runNotifyHooks (
  hooks: AnyHook[], thisArg: unknown, args: unknown[], onError: (err: Error) => void, done: () => void
): void {
  let i = 0
  const step = (err?: unknown): void => {
    if (err !== undefined && err !== null) onError(toError(err))
    if (i === hooks.length) { done(); return }
    const hook = hooks[i++]
    let result: unknown
    try {
      result = hook.call(thisArg, ...args, step)
    } catch (e) { step(e); return }
    if (isPromise(result)) result.then(() => step(), (e: unknown) => step(e))
  }
  step()
}

function toError (value: unknown): Error {
  if (value instanceof Error) return value
  if (value !== null && typeof value === 'object') return value as Error
  return new Error(String(value))
}

/**
 * Runs onRequestAbort hooks as (request, done) (Fastify 4.29): the client is gone, nothing can be
 * answered; the first error stops the chain and is handed to `done(err)` (the caller logs it).
 */
export function runAbortHooks (
  hooks: AnyHook[], thisArg: unknown, request: unknown, done: (err: Error | null) => void
): void {
  let i = 0
  const step = (err?: unknown): void => {
    if (err !== undefined && err !== null) { done(toError(err)); return }
    if (i === hooks.length) { done(null); return }
    const hook = hooks[i++]
    let result: unknown
    try {
      result = hook.call(thisArg, request, step)
    } catch (e) { done(toError(e ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR())); return }
    if (isPromise(result)) result.then(() => step(), (e: unknown) => done(toError(e ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR())))
  }
  step()
}
