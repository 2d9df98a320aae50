/**
 * Hook names and the checks `addHook` and route options make (Fastify's error codes). The hook
 * lists live on the plugin contexts (context/plugin-context.ts), are resolved into each route at
 * ready(), and are run by ./hook-runners.ts.
 */
import { errorCodes } from '../base/errors'

export const requestHookNames = [
  'onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization',
  'onSend', 'onResponse', 'onError', 'onTimeout', 'onRequestAbort'
] as const
const applicationHookNames = ['onReady', 'onClose', 'onRoute', 'onRegister', 'onListen', 'preClose'] as const

export type RequestHookName = typeof requestHookNames[number]
type ApplicationHookName = typeof applicationHookNames[number]
type HookName = RequestHookName | ApplicationHookName
export type AnyHook = (...args: any[]) => any

export type RequestHooks = Record<RequestHookName, AnyHook[]>

const requestHookSet = new Set<string>(requestHookNames)
const applicationHookSet = new Set<string>(applicationHookNames)

function isRequestHook (name: string): name is RequestHookName { return requestHookSet.has(name) }
function isApplicationHook (name: string): name is ApplicationHookName { return applicationHookSet.has(name) }

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
    const takesDone = valueHook
      ? length === 4
      : name === 'onReady' || name === 'onListen'
        ? length !== 0
        : name === 'onRequestAbort'
          ? length !== 1
          : length === 3
    if (takesDone) throw new errorCodes.FST_ERR_HOOK_INVALID_ASYNC_HANDLER()
  }
}
