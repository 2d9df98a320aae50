/**
 * Error handlers form a chain that follows the context tree: a context's handler hands what it
 * throws (or sends as an Error) to its parent's, ending in the default handler and, if even that
 * fails, a fallback that always writes a JSON body. No stack trace is ever written.
 */
import { STATUS_CODES } from 'node:http'
import { errorCodes } from '../base/errors'
import type { ReplyBase } from './reply'

export type ErrorHandlerFn = (this: any, error: any, request: any, reply: any) => unknown
export interface ErrorHandler { readonly fn: ErrorHandlerFn | null; readonly parent: ErrorHandler | null; readonly instance: unknown }

/** After the default handler: the fallback payload, still through onSend hooks; after that, a direct write. */
const fallbackStep: ErrorHandler = { fn: null, parent: null, instance: null }
export const rootErrorHandler: ErrorHandler = { fn: defaultErrorHandler, parent: fallbackStep, instance: null }

export function buildErrorHandler (parent: ErrorHandler, fn: ErrorHandlerFn, instance: unknown): ErrorHandler {
  return { fn, parent, instance }
}

/**
 * Hands `error` to the next error handler of the reply's chain. `onSend` is the continuation for the
 * fallback payload (reply.ts passes its onSend step), so this file never calls back into the reply.
 */
export function handleError (reply: ReplyBase, error: unknown, onSend: (reply: ReplyBase, payload: string) => void): void {
  reply.runningOnErrorHook = false
  const err = (error ?? new errorCodes.FST_ERR_SEND_UNDEFINED_ERR()) as Error & Record<string, any>
  if (reply.nextErrorHandler === false) {
    fallbackErrorHandler(err, reply, (payload) => {
      const res = reply.raw
      try {
        res.writeHead(res.statusCode, reply.headersStore as Record<string, string>)
      } catch (writeErr) {
        reply.routeContext.env.logController.writeHeadError(writeErr, reply.request, reply)
        // the application's headers are unusable: keep only what describes the JSON body
        if (!res.headersSent) res.writeHead(res.statusCode, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(payload)) })
      }
      res.end(payload)
    })
    return
  }
  const handler = reply.nextErrorHandler ?? reply.routeContext.errorHandler
  reply.nextErrorHandler = handler.parent ?? false
  delete reply.headersStore['content-length']
  // Fastify 5 (and 4.29) drop the content type too, so the error's payload gets its own; 4.3 kept it
  if (reply.routeContext.env.line === 5) delete reply.headersStore['content-type']
  if (handler.fn === null) {
    reply.nextErrorHandler = false
    fallbackErrorHandler(err, reply, (payload) => { onSend(reply, payload) })
    return
  }
  let result: unknown
  try {
    // a custom handler sees exactly what was thrown or rejected (null, undefined, a string...);
    // the default handler gets an Error in place of a missing one, except a thrown null on the
    // Fastify 5 line, which it answers as Fastify 5 does: a 500 whose JSON body is `null`
    const value = handler.fn === defaultErrorHandler && !(error === null && reply.routeContext.env.line === 5) ? err : error
    result = handler.fn.call(handler.instance ?? reply.routeContext.server, value, reply.request, reply)
  } catch (thrown) {
    reply.isError = true
    reply.send(thrown)
    return
  }
  if (result !== undefined) {
    if (result !== null && typeof (result as PromiseLike<unknown>).then === 'function') {
      (result as PromiseLike<unknown>).then((payload) => {
        if (reply.hijacked) return
        if (payload !== undefined || (!reply.sent && !reply.raw.headersSent)) sendOrFail(reply, payload)
      }, (rejected: unknown) => {
        if (reply.sent) { reply.log.error({ err: rejected }, 'Promise errored, but reply.sent = true was set'); return }
        reply.isError = true
        reply.send(rejected)
      })
    } else {
      sendOrFail(reply, result)
    }
  }
}

/** reply.send() from framework code: what it throws goes to the next error handler. */
function sendOrFail (reply: ReplyBase, payload: unknown): void {
  try {
    reply.send(payload)
  } catch (err) {
    reply.isError = true
    reply.send(err)
  }
}

function defaultErrorHandler (this: unknown, error: any, request: any, reply: ReplyBase): void {
  setErrorHeaders(error, reply)
  if (!reply.hasStatusCode || reply.statusCode === 200) {
    const statusCode = error?.statusCode ?? error?.status
    reply.code(statusCode >= 400 && statusCode <= 599 ? statusCode : 500)
  }
  // disableRequestLogging also silences the default handler's error lines (Fastify 4.29; 4.3 logged them)
  reply.routeContext.env.logController.defaultErrorLog(error, request, reply)
  reply.send(error)
}

function setErrorHeaders (error: any, reply: ReplyBase): void {
  const res = reply.raw
  let statusCode = res.statusCode >= 400 ? res.statusCode : 500
  if (error !== null && error !== undefined) {
    if (error.headers !== undefined && typeof error.headers === 'object') reply.headers(error.headers)
    if (error.status >= 400 && error.status <= 599) statusCode = error.status
    else if (error.statusCode >= 400 && error.statusCode <= 599) statusCode = error.statusCode
  }
  res.statusCode = statusCode
}

/** The default error payload: { statusCode, code?, error, message }, serialized by the route's schema for that status when it has one. */
function fallbackErrorHandler (error: any, reply: ReplyBase, done: (payload: string) => void): void {
  let statusCode = reply.statusCode
  if (statusCode < 400) { statusCode = 500; reply.raw.statusCode = 500 }
  let payload: string
  try {
    // the error payload is JSON: without a content-type of its own, the route's JSON schema for the status applies (Fastify 4.29)
    const contentType = (reply.getHeader('content-type') as string | undefined) ?? 'application/json; charset=utf-8'
    const serializer = reply.routeContext.serializers?.forStatus(statusCode, contentType)
    payload = serializer === undefined
      ? serializeError(statusCode, error)
      : serializer(Object.create(error, {
        error: { value: STATUS_CODES[String(statusCode)] },
        message: { value: error?.message ?? '' },
        statusCode: { value: statusCode }
      }))
  } catch (serializationError) {
    reply.routeContext.env.logController.serializerError(serializationError, reply.request, reply, { statusCode })
    reply.raw.statusCode = 500
    // Fastify 4.29: FST_ERR_FAILED_ERROR_SERIALIZATION naming both errors (4.3 sent the serializer's error as a 500)
    const failed = new errorCodes.FST_ERR_FAILED_ERROR_SERIALIZATION((serializationError as Error)?.message, error?.message)
    payload = JSON.stringify({ statusCode: 500, code: failed.code, message: failed.message })
  }
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
    // a custom serializer compiler returned something that cannot be written (Fastify 4.3's answer:
    // the invalid-payload error's own fields, no status text)
    const invalid = new errorCodes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof payload)
    payload = JSON.stringify({ statusCode: invalid.statusCode, code: invalid.code, message: invalid.message })
  }
  reply.headersStore['content-type'] = 'application/json; charset=utf-8'
  reply.headersStore['content-length'] = String(Buffer.byteLength(payload))
  done(payload)
}

function serializeError (statusCode: number, error: { code?: unknown; message?: unknown } | null | undefined): string {
  const body: Record<string, unknown> = { statusCode }
  if (error !== null && error !== undefined && error.code !== undefined && error.code !== null) body.code = String(error.code)
  body.error = STATUS_CODES[String(statusCode)] ?? 'Error'
  body.message = typeof error?.message === 'string' ? error.message : ''
  return JSON.stringify(body)
}
