/**
 * The Reply object: status, headers, and `send`, which routes a payload through the rest of the
 * request path: errors to the error handlers, objects through preSerialization and the route's
 * serializer, everything through onSend, then to the socket (./write-response.ts).
 */
import { parseMediaType } from '../base/media-type'
import type { ServerResponse } from 'node:http'
import { errorCodes } from '../base/errors'
import type { RouteContext } from './route-context'
import type { Logger } from '../server/logger'
import { applyNoFields, deriveDecoratableClass, readDecorator, type DecoratedField, type FieldCarrier } from './instance-fields'
import type { RequestBase } from './request'
import { runValueHooks } from './hook-runners'
import { handleError, type ErrorHandler } from './error-handling'
import { isWebResponse, writeResponse } from './write-response'
import { callNotFound } from './handle-request'
import { compileSerializationSchema, getSerializationFunction, serializeInput } from './route-schema-api'
import { emitDeprecation } from '../base/warnings'
import { perf } from '../base/clock'
import { closePhase, openPhase, requestFailed, type RequestTrace } from './tracing'
import { detachedRequest, detachedRouteContext } from './detached-route-context'
import type { FastifyLine } from '../base/version'

export interface ReplyClass {
  new (res: ServerResponse, request: RequestBase, log: Logger, startTime?: number): ReplyBase
  readonly prototype: ReplyBase
  decorated: boolean
}

const JSON_TYPE = 'application/json; charset=utf-8'
const TEXT_TYPE = 'text/plain; charset=utf-8'
const OCTET_TYPE = 'application/octet-stream'

type HeaderValue = string | number | string[] | undefined

export class ReplyBase {
  static decorated = false
  static ownFields: DecoratedField[] = []
  static instanceFields: DecoratedField[] = []
  static applyFields: (target: object) => void = applyNoFields
  /** The Fastify line of a reply built by hand, outside a route (./detached-route-context.ts). */
  static line: FastifyLine = 4
  // `declare`: set by the constructor only (see RequestBase)
  declare raw: ServerResponse
  declare request: RequestBase
  declare log: Logger
  declare routeContext: RouteContext
  /** Headers to write, lowercased names. */
  declare headersStore: Record<string, HeaderValue>
  declare trailersStore: Record<string, ((reply: ReplyBase, payload: unknown, done: (err?: unknown, value?: unknown) => void) => unknown) | undefined> | null
  declare customSerializer: ((payload: any) => string) | null
  declare isError: boolean
  declare hijacked: boolean
  declare hasStatusCode: boolean
  declare runningOnErrorHook: boolean
  /** The error handler to use for the next error; undefined: the route's; false: none left. */
  declare nextErrorHandler: ErrorHandler | false | undefined
  /** Depth of synchronous reply.send() calls in progress. */
  declare sending: number
  declare startTime: number
  declare endTime: number | undefined
  /** elapsedTime added a 'finish' listener to record endTime. */
  declare watchingEnd: boolean
  /** The request's diagnostics state when it is traced (./tracing.ts), else null. */
  declare trace: RequestTrace | null

  /** `startTime`: when the request began, when the caller has read the clock already (a traced request's routing start). */
  constructor (res: ServerResponse, request: RequestBase, log: Logger, startTime?: number) {
    // undefined: built by hand as Fastify allows, with a request that is no trellis request
    const context = request?.routeContext as RouteContext | undefined
    this.raw = res
    this.request = context !== undefined ? request : detachedRequest(request, res)
    this.log = log
    this.routeContext = context ?? detachedRouteContext(request, (new.target as unknown as { line: FastifyLine }).line)
    this.headersStore = {}
    this.trailersStore = null
    this.customSerializer = null
    this.isError = false
    this.hijacked = false
    this.hasStatusCode = false
    this.runningOnErrorHook = false
    this.nextErrorHandler = undefined
    this.sending = 0
    this.startTime = startTime === undefined ? perf.now() : startTime
    this.endTime = undefined
    this.watchingEnd = false
    this.trace = null
    ;(new.target as unknown as FieldCarrier).applyFields(this)
  }

  get server (): any { return this.routeContext.server }

  get statusCode (): number { return this.raw.statusCode }
  set statusCode (code: number) { this.code(code) }

  /** Read-only (Fastify 5); Fastify 4's setter is on ReplyV4. */
  get sent (): boolean { return this.hijacked || this.raw.writableEnded }

  /**
   * Sets the status code. As Fastify 4.29: anything `Number()` turns into 100..599 is accepted
   * (a fraction is cut off, as node's writeHead does); null, undefined, NaN and codes out of that
   * range throw FST_ERR_BAD_STATUS_CODE.
   */
  code (code: number | string): this {
    const value = typeof code === 'number' ? code : Number(code)
    if (Number.isNaN(value) || value < 100 || value > 599) {
      throw new errorCodes.FST_ERR_BAD_STATUS_CODE(code === undefined || code === null || code === '' ? String(code) : code)
    }
    this.raw.statusCode = Math.trunc(value)
    this.hasStatusCode = true
    return this
  }

  status (code: number | string): this { return this.code(code) }

  header (name: string, value: HeaderValue = ''): this {
    const key = name.toLowerCase()
    const current = this.headersStore[key]
    if (key === 'set-cookie' && current !== undefined) {
      const list = Array.isArray(current) ? current : [String(current)]
      if (Array.isArray(value)) list.push(...value)
      else list.push(String(value))
      this.headersStore[key] = list
    } else {
      // a set-cookie array is copied: the calls after this one push into the stored list, and the
      // caller's array (often a module-level constant) must not grow from one request to the next
      this.headersStore[key] = Array.isArray(value) && key === 'set-cookie' ? value.slice() : value
    }
    return this
  }

  headers (headers: Record<string, HeaderValue>): this {
    for (const key of Object.keys(headers)) this.header(key, headers[key])
    return this
  }

  getHeader (name: string): HeaderValue {
    const key = name.toLowerCase()
    const value = this.headersStore[key]
    return value !== undefined ? value : (this.raw.getHeader(key) as HeaderValue)
  }

  getHeaders (): Record<string, HeaderValue> {
    return { ...(this.raw.getHeaders() as Record<string, HeaderValue>), ...this.headersStore }
  }

  hasHeader (name: string): boolean {
    const key = name.toLowerCase()
    return this.headersStore[key] !== undefined || this.raw.hasHeader(key)
  }

  removeHeader (name: string): this {
    delete this.headersStore[name.toLowerCase()]
    return this
  }

  trailer (name: string, fn: (reply: ReplyBase, payload: unknown, done: (err?: unknown, value?: unknown) => void) => unknown): this {
    const key = name.toLowerCase()
    if (INVALID_TRAILERS.has(key)) throw new errorCodes.FST_ERR_BAD_TRAILER_NAME(key)
    if (typeof fn !== 'function') throw new errorCodes.FST_ERR_BAD_TRAILER_VALUE(key, typeof fn)
    if (this.trailersStore === null) this.trailersStore = {}
    this.trailersStore[key] = fn
    return this
  }

  hasTrailer (name: string): boolean { return this.trailersStore?.[name.toLowerCase()] !== undefined }

  removeTrailer (name: string): this {
    if (this.trailersStore !== null) this.trailersStore[name.toLowerCase()] = undefined
    return this
  }

  type (contentType: string): this {
    this.headersStore['content-type'] = contentType
    return this
  }

  serializer (fn: (payload: any) => string): this {
    this.customSerializer = fn
    return this
  }

  /** Serializes with the route's response schema for the current status, or JSON.stringify. */
  serialize (payload: unknown): string {
    if (this.customSerializer !== null) return this.customSerializer(payload)
    return serializeWithRoute(this.routeContext, payload, this.raw.statusCode)
  }

  /** The route's serializer for a response key (and, Fastify 4.29, a media type of its `content`), or one compiled earlier for a schema. */
  getSerializationFunction (statusOrSchema: number | string | object, contentType?: string): ((payload: unknown) => string) | undefined {
    return getSerializationFunction(this.routeContext, statusOrSchema, contentType)
  }

  /** Compiles a schema with the route's serializer compiler; cached per route by schema object. */
  compileSerializationSchema (schema: object, httpStatus: string | null = null, contentType: string | null = null): (payload: unknown) => string {
    return compileSerializationSchema(this.routeContext, schema, httpStatus, this.request.method, this.request.url, contentType)
  }

  /** Serializes `input` with the route's schema for a response key, or with `schema` (compiled once). */
  serializeInput (input: unknown, schema: object | string | number, httpStatus?: string | number, contentType?: string): string {
    return serializeInput(this.routeContext, input, schema, httpStatus, this.request.method, this.request.url, contentType)
  }

  /** `redirect(url, code?)`: without a code, the one set before, else 302. */
  redirect (url: string, code?: number): this {
    if (code === undefined || code === null || code === 0) code = this.hasStatusCode ? this.raw.statusCode : 302
    return this.header('location', url).code(code).send()
  }

  callNotFound (): this {
    callNotFound(this)
    return this
  }

  hijack (): this {
    this.hijacked = true
    return this
  }

  /** Milliseconds since the request came in; fixed once the response has finished (Fastify 4.29). */
  get elapsedTime (): number {
    if (this.endTime !== undefined) return this.endTime - this.startTime
    // without onResponse hooks or request logging nothing records the end of each response
    // (./handle-request.ts watchResponse): it is recorded from the first read on
    const now = perf.now()
    if (this.raw.writableFinished) this.endTime = now
    else if (!this.watchingEnd) {
      this.watchingEnd = true
      this.raw.once('finish', () => { if (this.endTime === undefined) this.endTime = perf.now() })
    }
    return now - this.startTime
  }

  then (fulfilled: () => void, rejected?: (err: Error) => void): void {
    if (this.sent) { fulfilled(); return }
    const res = this.raw
    const onFinish = (): void => { cleanup(); fulfilled() }
    const onError = (err: Error): void => {
      cleanup()
      if (rejected !== undefined) rejected(err)
      else this.log.warn('unhandled rejection on reply.then')
    }
    const cleanup = (): void => { res.removeListener('finish', onFinish); res.removeListener('close', onFinish); res.removeListener('error', onError) }
    res.once('finish', onFinish)
    res.once('close', onFinish)
    res.once('error', onError)
  }

  send (payload?: unknown): this {
    // while > 0, a payload that cannot be written is reported to the caller of send() (a TypeError)
    this.sending++
    try {
      return this.sendPayload(payload)
    } finally {
      this.sending--
    }
  }

  private sendPayload (payload?: unknown): this {
    if (this.runningOnErrorHook) throw new errorCodes.FST_ERR_SEND_INSIDE_ONERR()
    if (this.sent) {
      // Fastify 4.29 logs the error's message ('Reply was already sent, did you forget ...'); 4.3 said 'Reply already sent'
      const err = new errorCodes.FST_ERR_REP_ALREADY_SENT(this.request.url, this.request.method)
      this.log.warn({ err }, err.message)
      return this
    }
    if (payload instanceof Error || this.isError) {
      this.isError = false
      sendError(this, payload)
      return this
    }
    if (payload === undefined) { runOnSend(this, payload); return this }

    // getHeader('content-type') without lowercasing a constant name
    const stored = this.headersStore['content-type']
    const contentType = (stored !== undefined ? stored : this.raw.getHeader('content-type')) as string | undefined
    const hasContentType = contentType !== undefined
    if (payload !== null) {
      if (typeof (payload as { pipe?: unknown }).pipe === 'function') { runOnSend(this, payload); return this }
      // web streams and fetch Responses (Fastify 4.29) are sent as they are, like node streams
      if (typeof (payload as { getReader?: unknown }).getReader === 'function' || isWebResponse(payload)) { runOnSend(this, payload); return this }
      if (Buffer.isBuffer(payload) || payload instanceof Uint8Array) {
        if (!hasContentType) this.headersStore['content-type'] = OCTET_TYPE
        runOnSend(this, payload)
        return this
      }
      // any other TypedArray (or DataView) is sent as its bytes, like a Buffer (Fastify 4.29)
      if (ArrayBuffer.isView(payload)) {
        if (!hasContentType) this.headersStore['content-type'] = OCTET_TYPE
        runOnSend(this, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength))
        return this
      }
      if (!hasContentType && typeof payload === 'string') {
        this.headersStore['content-type'] = TEXT_TYPE
        runOnSend(this, payload)
        return this
      }
    }

    if (this.customSerializer !== null) {
      if (typeof payload !== 'string') { preSerialize(this, payload); return this }
      payload = this.customSerializer(payload)
    } else if (!hasContentType || String(contentType).includes('json')) {
      if (!hasContentType) {
        this.headersStore['content-type'] = JSON_TYPE
      } else if (!String(contentType).includes('charset')) {
        const trimmed = String(contentType).trim()
        this.headersStore['content-type'] = trimmed.endsWith(';') ? `${trimmed} charset=utf-8` : `${trimmed}; charset=utf-8`
      }
      if (typeof payload !== 'string') { preSerialize(this, payload); return this }
    }
    runOnSend(this, payload)
    return this
  }
}

const INVALID_TRAILERS = new Set([
  'transfer-encoding', 'content-length', 'host', 'cache-control', 'max-forwards', 'te',
  'authorization', 'set-cookie', 'content-encoding', 'content-type', 'content-range', 'trailer'
])

/**
 * Fastify 4.3's order: the context's reply serializer (setReplySerializer) is the application's
 * explicit choice and wins over the route's response schema; then the schema; then JSON.
 */
function serializeWithRoute (context: RouteContext, payload: unknown, statusCode: number, contentType?: string): string {
  if (context.replySerializer !== null) return context.replySerializer(payload, statusCode)
  const fn = context.serializers?.forStatus(statusCode, contentType)
  if (fn !== undefined) return fn(payload)
  return JSON.stringify(payload)
}

function preSerialize (reply: ReplyBase, payload: unknown): void {
  const hooks = reply.routeContext.hooks.preSerialization
  if (hooks.length === 0) { serializeAndSend(reply, payload); return }
  if (reply.trace !== null) openPhase(reply.trace, 'preSerialization', reply.request, reply)
  runValueHooks(hooks, reply.routeContext.server, reply.request, reply, payload, (err, value) => {
    if (reply.trace !== null) closePhase(reply.trace, err)
    if (err !== null) { sendError(reply, err); return }
    serializeAndSend(reply, value)
  })
}

function serializeAndSend (reply: ReplyBase, payload: unknown): void {
  const trace = reply.trace
  if (trace !== null) openPhase(trace, 'serialization', reply.request, reply)
  let serialized: unknown
  try {
    if (reply.customSerializer !== null) serialized = reply.customSerializer(payload)
    else serialized = serializeWithRoute(reply.routeContext, payload, reply.raw.statusCode, reply.headersStore['content-type'] as string | undefined)
  } catch (err) {
    if (err !== null && typeof err === 'object') (err as { serialization?: unknown }).serialization = reply.routeContext.config
    if (trace !== null) closePhase(trace, err)
    sendError(reply, err)
    return
  }
  if (trace !== null) closePhase(trace, null)
  runOnSend(reply, serialized)
}

function runOnSend (reply: ReplyBase, payload: unknown): void {
  const hooks = reply.routeContext.hooks.onSend
  if (hooks.length === 0) {
    // an object that reached the socket unserialized (non-JSON content type, a serializer that
    // returned a non-string) is a programming error: thrown to the code that called send(),
    // which may still send something else; outside send() it becomes a 500 like any error
    if (reply.sending > 0 && !isWritable(payload)) throw new errorCodes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof payload)
    writeOrFail(reply, payload)
    return
  }
  if (reply.trace !== null) openPhase(reply.trace, 'onSend', reply.request, reply)
  runValueHooks(hooks, reply.routeContext.server, reply.request, reply, payload, (err, value) => {
    if (reply.trace !== null) closePhase(reply.trace, err)
    if (err !== null) { sendError(reply, err); return }
    writeOrFail(reply, value)
  })
}

function isWritable (payload: unknown): boolean {
  return payload === undefined || payload === null || typeof payload === 'string' || Buffer.isBuffer(payload) ||
    payload instanceof Uint8Array || typeof (payload as { pipe?: unknown }).pipe === 'function' ||
    typeof (payload as { getReader?: unknown }).getReader === 'function' || isWebResponse(payload)
}

function writeOrFail (reply: ReplyBase, payload: unknown): void {
  // the write phase ends when the response has finished (./tracing.ts)
  if (reply.trace !== null) openPhase(reply.trace, 'write', reply.request, reply)
  try {
    writeResponse(reply, payload, sendError)
  } catch (err) {
    sendError(reply, err)
  }
}

/** onError hooks (once per request, before the first error handler), then the error handler chain. */
function sendError (reply: ReplyBase, error: unknown): void {
  const hooks = reply.routeContext.hooks.onError
  const trace = reply.trace
  if (trace !== null) requestFailed(trace, error)
  if (hooks.length > 0 && reply.nextErrorHandler === undefined) {
    reply.runningOnErrorHook = true
    if (trace !== null) openPhase(trace, 'onError', reply.request, reply)
    runValueHooks(hooks, reply.routeContext.server, reply.request, reply, error, () => {
      if (trace !== null) closePhase(trace, null)
      reply.runningOnErrorHook = false
      handleError(reply, error, runOnSend)
    })
    return
  }
  handleError(reply, error, runOnSend)
}

/** Fastify 4's reply: the deprecated accessors and signatures still answer, each with its warning. */
export class ReplyV4 extends ReplyBase {
  /** Has accessors of its own: routes stop here when they skip empty subclasses. */
  static override decorated = true
  /** The route's context (`config`, `schema`, ...): deprecated in Fastify 4.29 (FSTDEP019). */
  get context (): RouteContext { emitDeprecation('FSTDEP019'); return this.routeContext }

  override get sent (): boolean { return this.hijacked || this.raw.writableEnded }
  /** Setting `sent` is deprecated (FSTDEP010): `reply.hijack()` says the same. */
  override set sent (value: boolean) {
    emitDeprecation('FSTDEP010')
    if (value !== true) throw new errorCodes.FST_ERR_REP_SENT_VALUE()
    if (this.hijacked) throw new errorCodes.FST_ERR_REP_ALREADY_SENT(this.request.url, this.request.method)
    this.hijacked = true
  }

  /** Deprecated in Fastify 4.29 (FSTDEP020) for `reply.elapsedTime`. */
  getResponseTime (): number {
    emitDeprecation('FSTDEP020')
    return this.elapsedTime
  }

  /** `redirect(url, code?)`; the 4.3 order `redirect(code, url)` still works and is deprecated (FSTDEP021). */
  override redirect (urlOrCode: string | number, codeOrUrl?: number | string): this {
    if (typeof urlOrCode === 'number') {
      emitDeprecation('FSTDEP021')
      return super.redirect(codeOrUrl as string, urlOrCode)
    }
    return super.redirect(urlOrCode, codeOrUrl as number | undefined)
  }
}

/** Fastify 5's reply: `sent` is read-only (ReplyBase) and `mediaType` reads the Content-Type set so far. */
export class ReplyV5 extends ReplyBase {
  /** Has accessors of its own: routes stop here when they skip empty subclasses. */
  static override decorated = true
  static override line: FastifyLine = 5

  getDecorator (name: string | symbol): unknown { return readDecorator(this, name, 'reply') }

  /** The route's options, as `request.routeOptions` gives them. */
  get routeOptions (): Readonly<Record<string, unknown>> { return this.request.routeOptions }

  /** Sends a 103 Early Hints response (node's `writeEarlyHints`) before the final one. */
  writeEarlyHints (hints: Record<string, string | string[]>, callback?: () => void): this {
    this.raw.writeEarlyHints(hints, callback)
    return this
  }

  /** The media type of the Content-Type set so far (`type/subtype`, lowercased), or undefined. */
  get mediaType (): string | undefined {
    const header = this.getHeader('content-type')
    return typeof header === 'string' ? parseMediaType(header)?.essence : undefined
  }
}

export function deriveReplyClass (parent: ReplyClass | typeof ReplyBase): ReplyClass {
  return deriveDecoratableClass(parent as typeof ReplyBase) as unknown as ReplyClass
}
