/**
 * Route options: the methods a route may use, the `(path, [options], handler)` shorthand, Fastify's
 * checks of an options object and its hooks, and the onSend hook of automatic HEAD routes. The
 * plugin tree turns checked options into routes (context/route-builder.ts).
 */
import { errorCodes } from '../base/errors'
import { errorCodesAddedInV5 } from '../base/errors-v5'
import { checkAsyncArity, requestHookNames } from '../lifecycle/hooks'
import type { ErrorHandlerFn } from '../lifecycle/error-handling'
import type { HttpMethods } from '../lifecycle/http-methods'

export interface RouteOptions {
  method: string | string[]
  url: string
  path?: string
  handler: (this: any, request: any, reply: any) => unknown
  schema?: Record<string, unknown>
  attachValidation?: boolean
  config?: Record<string, unknown>
  constraints?: Record<string, unknown>
  version?: string
  errorHandler?: ErrorHandlerFn
  bodyLimit?: number
  logLevel?: string
  logSerializers?: Record<string, (value: any) => unknown>
  /** Fastify 4.29: makes this route's request loggers (see setChildLoggerFactory). */
  childLoggerFactory?: (...args: any[]) => any
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both'
  exposeHeadRoute?: boolean
  validatorCompiler?: (...args: any[]) => any
  serializerCompiler?: (...args: any[]) => any
  schemaErrorFormatter?: (...args: any[]) => Error
  [hook: string]: unknown
}

/** `(path, [options], handler)` -> one options object, with Fastify's checks. */
export function shorthandOptions (method: string | string[], url: string, options: unknown, handler: unknown): RouteOptions {
  let opts = options as Record<string, unknown> | undefined
  let fn = handler
  if (fn === undefined && typeof opts === 'function') {
    fn = opts
    opts = {}
  } else if (fn !== undefined && typeof fn === 'function') {
    if (Object.prototype.toString.call(opts) !== '[object Object]') throw new errorCodes.FST_ERR_ROUTE_OPTIONS_NOT_OBJ(String(method), url)
    if (opts?.handler !== undefined) {
      if (typeof opts.handler === 'function') throw new errorCodes.FST_ERR_ROUTE_DUPLICATED_HANDLER(String(method), url)
      throw new errorCodes.FST_ERR_ROUTE_HANDLER_NOT_FN(String(method), url)
    }
  }
  return Object.assign({}, opts, { method, url, path: url, handler: fn ?? opts?.handler }) as RouteOptions
}

export function checkOptions (opts: RouteOptions, methods: string[], path: string, supported: HttpMethods): void {
  for (const method of methods) {
    if (typeof method !== 'string') throw new errorCodes.FST_ERR_ROUTE_METHOD_INVALID()
    if (!supported.has(method)) throw new errorCodes.FST_ERR_ROUTE_METHOD_NOT_SUPPORTED(method)
    // Fastify 5: the application's methods without a body (addHttpMethod may move one either way)
    const bodyless = supported.line === 5 ? supported.bodyless.has(method) && Boolean(opts.schema?.body) : (method === 'GET' || method === 'HEAD') && opts.schema?.body !== undefined
    if (bodyless) throw new errorCodes.FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED(method, path)
  }
  if (typeof opts.handler !== 'function') {
    if (opts.handler === undefined || opts.handler === null) throw new errorCodes.FST_ERR_ROUTE_MISSING_HANDLER(String(opts.method), path)
    throw new errorCodes.FST_ERR_ROUTE_HANDLER_NOT_FN(String(opts.method), path)
  }
  if (opts.errorHandler !== undefined && typeof opts.errorHandler !== 'function') throw new errorCodes.FST_ERR_ROUTE_HANDLER_NOT_FN(String(opts.method), path)
  if (opts.handlerTimeout !== undefined && supported.line === 5 && (!Number.isInteger(opts.handlerTimeout) || (opts.handlerTimeout as number) <= 0)) {
    throw new errorCodesAddedInV5.FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT(String(opts.handlerTimeout))
  }
  if (opts.bodyLimit !== undefined && (!Number.isInteger(opts.bodyLimit) || opts.bodyLimit <= 0)) {
    throw new errorCodes.FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT(String(opts.bodyLimit))
  }
  checkRouteHooks(opts)
}

/** Route-level hooks must be functions (an array may not hold anything else), with the arity their style needs. */
export function checkRouteHooks (opts: RouteOptions): void {
  for (const name of requestHookNames) {
    const hook = opts[name]
    if (hook === undefined) continue
    for (const fn of Array.isArray(hook) ? hook : [hook]) {
      if (typeof fn !== 'function') throw new errorCodes.FST_ERR_HOOK_INVALID_HANDLER(name, Object.prototype.toString.call(fn))
      checkAsyncArity(name, fn)
    }
  }
}

/** The last onSend hook of automatic HEAD routes: content-length of what GET would send, no body. */
export function headOnSend (_request: unknown, reply: { header: (k: string, v: string) => unknown; log: { error: (...a: unknown[]) => void } }, payload: unknown, done: (err: Error | null, value: unknown) => void): void {
  if (payload === undefined || payload === null) {
    reply.header('content-length', '0')
    done(null, null)
    return
  }
  const stream = payload as { resume?: () => void; on?: (e: string, f: (err: Error) => void) => void }
  if (typeof stream.resume === 'function') {
    stream.on?.('error', (err) => reply.log.error({ err }, 'Error on Stream found for HEAD route'))
    stream.resume()
    done(null, null)
    return
  }
  // Fastify 5: a web ReadableStream is cancelled (Fastify 4.29 fails on it)
  const webStream = payload as { getReader?: unknown; cancel?: (reason: string) => Promise<void> }
  if (typeof webStream.getReader === 'function' && typeof webStream.cancel === 'function' &&
    (reply as { routeContext?: { env: { line: number } } }).routeContext?.env.line === 5) {
    webStream.cancel('Stream cancelled by HEAD route').catch((err: unknown) => reply.log.error({ err }, 'Error on Stream found for HEAD route'))
    done(null, null)
    return
  }
  reply.header('content-length', String(Buffer.byteLength(payload as string | Buffer)))
  done(null, null)
}
