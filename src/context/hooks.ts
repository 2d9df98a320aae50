/**
 * Hook names, registration checks and the two runners: request hooks run in order with
 * callback or promise style; the first error (or a sent reply) stops the chain.
 */
import { errorCodes } from '../errors'

export const requestHookNames = [
  'onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization',
  'onSend', 'onResponse', 'onError', 'onTimeout', 'onRequestAbort'
] as const
export const applicationHookNames = ['onReady', 'onClose', 'onRoute', 'onRegister', 'onListen', 'preClose'] as const

export type RequestHookName = typeof requestHookNames[number]
export type ApplicationHookName = typeof applicationHookNames[number]
export type HookName = RequestHookName | ApplicationHookName
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyHook = (...args: any[]) => any

export type RequestHooks = Record<RequestHookName, AnyHook[]>
export type ApplicationHooks = Record<ApplicationHookName, AnyHook[]>

const requestHookSet = new Set<string>(requestHookNames)
const applicationHookSet = new Set<string>(applicationHookNames)

export function isRequestHook (name: string): name is RequestHookName { return requestHookSet.has(name) }
export function isApplicationHook (name: string): name is ApplicationHookName { return applicationHookSet.has(name) }

export function emptyRequestHooks (): RequestHooks {
  const hooks = {} as RequestHooks
  for (const name of requestHookNames) hooks[name] = []
  return hooks
}
export function copyRequestHooks (from: RequestHooks): RequestHooks {
  const hooks = {} as RequestHooks
  for (const name of requestHookNames) hooks[name] = from[name].slice()
  return hooks
}
export function emptyApplicationHooks (): ApplicationHooks {
  return { onReady: [], onClose: [], onRoute: [], onRegister: [], onListen: [], preClose: [] }
}

interface HookTreeNode { hooks: RequestHooks; onRegister: AnyHook[]; readonly children: HookTreeNode[] }

/**
 * Adds a request or onRegister hook to a context and to every descendant context created so far
 * (later ones copy it from their parent), so a parent's hook reaches a child whatever the order.
 */
export function addHookToTree (context: HookTreeNode, name: RequestHookName | 'onRegister', fn: AnyHook): void {
  if (name === 'onRegister') context.onRegister.push(fn)
  else context.hooks[name].push(fn)
  for (const child of context.children) addHookToTree(child, name, fn)
}

/** The checks Fastify makes when a hook is added, with its error codes. */
export function checkHook (name: unknown, fn: unknown): asserts name is HookName {
  // Fastify 4.29's checks and order: a missing function first, then the name, then the function's type
  if (fn === null || fn === undefined) throw new errorCodes.FST_ERR_HOOK_INVALID_HANDLER(name, fn)
  if (typeof name !== 'string') throw new errorCodes.FST_ERR_HOOK_INVALID_TYPE()
  if (!isRequestHook(name) && !isApplicationHook(name)) throw new errorCodes.FST_ERR_HOOK_NOT_SUPPORTED(name)
  if (typeof fn !== 'function') throw new errorCodes.FST_ERR_HOOK_INVALID_HANDLER(name, Object.prototype.toString.call(fn))
  checkAsyncArity(name, fn as AnyHook)
}

/** An async hook that also takes `done` would answer twice: refused like Fastify 4 does (FST_ERR_HOOK_INVALID_ASYNC_HANDLER). */
export function checkAsyncArity (name: string, fn: AnyHook): void {
  const isAsync = fn.constructor.name === 'AsyncFunction'
  if (isAsync) {
    const length = (fn as AnyHook).length
    const valueHook = name === 'onSend' || name === 'preSerialization' || name === 'onError' || name === 'preParsing'
    const takesDone = valueHook ? length === 4
      : name === 'onReady' || name === 'onListen' ? length !== 0
        : name === 'onRequestAbort' ? length !== 1
          : length === 3
    if (takesDone) throw new errorCodes.FST_ERR_HOOK_INVALID_ASYNC_HANDLER()
  }
}

function isPromise (value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function'
}

/**
 * Runs `hooks` as (request, reply, done) in order. `next(err)` is called once, after the last hook,
 * on the first error, or never when a hook sent the reply (the reply then owns the request).
 */
export function runRequestHooks (
  hooks: AnyHook[], thisArg: unknown, request: unknown, reply: { sent: boolean },
  next: (err: Error | null) => void
): void {
  let i = 0
  const step = (err?: unknown): void => {
    // a hook that answered or hijacked owns the response: a later error of it is dropped (Fastify 4.3);
    // like Fastify, a non-Error value (a thrown string) reaches the error handlers as it is
    if (reply.sent) return
    if (err !== undefined && err !== null) { next(err as Error); return }
    if (i === hooks.length) { next(null); return }
    const hook = hooks[i++]
    let result: unknown
    try {
      result = hook.call(thisArg, request, reply, step)
    } catch (e) { next((e ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()) as Error); return }
    if (isPromise(result)) result.then(() => step(), (e: unknown) => step(e ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()))
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

export function toError (value: unknown): Error {
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
