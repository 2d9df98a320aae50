/**
 * What the request path writes (`reply.raw`: ServerResponse's methods) turned into a fetch
 * `Response`. Like node's own ServerResponse it is a legacy `Stream` (an EventEmitter with
 * `write`/`end`), not a Writable: no stream state machine runs per request. A body given whole to
 * `end()` becomes the Response's body as it is (a string stays a string when the reply named its
 * type, so the runtime encodes it), and the Response is made at that call. Anything written before
 * the end (a piped stream, a hijacked reply's writes) is sent as a ReadableStream as it comes:
 * `write()` returns false once the stream's queue is full and 'drain' follows when the Response's
 * reader asks for more (backpressure, as a socket gives it). HEAD, 1xx, 204, 205 and 304 answers
 * have no body. Hop-by-hop headers (connection, keep-alive, transfer-encoding, trailer, upgrade)
 * are the runtime's to write, never the Response's; trailers are computed and kept on `trailers`
 * but not sent: a fetch Response carries none. 'finish' and then 'close' are emitted after the end
 * (in a microtask, so that they never wait for the event loop), as node emits them once the answer
 * is out; `destroy()` emits 'close' only.
 */
import { Stream } from 'node:stream'
import type { FetchIncomingMessage } from './fetch-request'
import type { OutgoingHeaderValue } from './contract'
import { markGuardsWriteAfterEnd } from '../server/guarded-response'

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'upgrade', 'proxy-connection'])
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/
/** Bytes the Response's stream queues before write() says wait (node's default high-water mark of a socket's writes). */
const HIGH_WATER_MARK = 16 * 1024

type Callback = (err?: Error | null) => void

function destroyedError (): Error {
  return Object.assign(new Error('The response was destroyed before it was sent'), { code: 'ECONNRESET' })
}

function headersSentError (): Error {
  return Object.assign(new Error('Cannot set headers after they are sent to the client'), { code: 'ERR_HTTP_HEADERS_SENT' })
}

function writeAfterEndError (): Error {
  return Object.assign(new Error('write after end'), { code: 'ERR_STREAM_WRITE_AFTER_END' })
}

/** node:http's checks of a header (its errors and codes), so a bad header fails where it fails over a socket. */
function checkHeader (name: string, value: unknown): void {
  if (typeof name !== 'string' || !TOKEN.test(name)) {
    throw Object.assign(new TypeError(`Header name must be a valid HTTP token ["${String(name)}"]`), { code: 'ERR_INVALID_HTTP_TOKEN' })
  }
  if (value === undefined) throw Object.assign(new TypeError(`Invalid value "undefined" for header "${name}"`), { code: 'ERR_HTTP_INVALID_HEADER_VALUE' })
  if (Array.isArray(value)) {
    for (const v of value) {
      if (INVALID_VALUE.test(String(v))) throw invalidChar(name)
    }
  } else if (typeof value !== 'number' && INVALID_VALUE.test(String(value))) throw invalidChar(name)
}

function invalidChar (name: string): Error {
  return Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), { code: 'ERR_INVALID_CHAR' })
}

function toBuffer (chunk: unknown, encoding: BufferEncoding | undefined): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, encoding)
  if (Buffer.isBuffer(chunk)) return chunk
  if (ArrayBuffer.isView(chunk)) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
  throw Object.assign(new TypeError('The "chunk" argument must be of type string or an instance of Buffer or Uint8Array'), { code: 'ERR_INVALID_ARG_TYPE' })
}

function isUtf8 (encoding: unknown): boolean {
  return encoding === undefined || encoding === null || encoding === 'utf8' || encoding === 'utf-8'
}

/** Whether the Response carries this header: not a hop-by-hop one, nor a Content-Length left to the runtime's server (`lengthless`). */
function carried (name: string, lengthless: boolean): boolean {
  return !HOP_BY_HOP.has(name) && !(lengthless && name === 'content-length')
}

/**
 * Its prototype is Stream's (`instanceof Stream`, `EventEmitter`), but no Stream/EventEmitter
 * constructor runs per response: EventEmitter makes its listener table on the first listener.
 */
export interface FetchServerResponse extends Stream {}
export class FetchServerResponse {
  statusCode = 200
  statusMessage = ''
  sendDate = false
  headersSent = false
  // constants on the prototype (below), not stored per response
  declare readonly writable: true
  declare readonly writableCorked: 0
  declare readonly writableObjectMode: false
  declare readonly writableHighWaterMark: number
  writableEnded = false
  writableFinished = false
  destroyed = false
  closed = false
  /** Trailers the reply added (a fetch Response cannot carry them). */
  trailers: Record<string, string> | null = null
  readonly req: FetchIncomingMessage
  /**
   * The Response once made (its status and headers known): a runtime's server takes it as it is
   * when the request path answered before dispatch returned (./fetch.ts `serveNative`).
   */
  made: Response | null = null
  /**
   * The runtime's server writes Content-Length itself for a body given whole (Bun.serve,
   * Deno.serve): the Response then carries none (on Deno an explicit one costs ~3 µs per response).
   */
  runtimeSetsLength = false
  private readonly store: Record<string, OutgoingHeaderValue> = Object.create(null)
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null
  private settled = false
  private needDrain = false
  private failure: { err: unknown } | null = null
  private promise: Promise<Response> | null = null
  private resolve: ((response: Response) => void) | null = null
  private reject: ((err: unknown) => void) | null = null

  constructor (req: FetchIncomingMessage) {
    this.req = req
  }

  /**
   * Settles with the Response once its status and headers are known (or rejects when the exchange
   * fails first). Made on first read: an answer given before anyone asks needs no pending Promise,
   * and a failure nobody asks about is no unhandled rejection.
   */
  get response (): Promise<Response> {
    if (this.promise !== null) return this.promise
    if (this.made !== null) return (this.promise = Promise.resolve(this.made))
    if (this.failure !== null) return (this.promise = Promise.reject(this.failure.err))
    return (this.promise = new Promise<Response>((resolve, reject) => { this.resolve = resolve; this.reject = reject }))
  }

  get socket (): FetchIncomingMessage['socket'] { return this.req.socket }
  get connection (): FetchIncomingMessage['socket'] { return this.req.socket }
  get finished (): boolean { return this.writableEnded }
  get writableNeedDrain (): boolean { return this.needDrain }
  get writableLength (): number {
    const controller = this.controller
    return controller === null ? 0 : Math.max(0, HIGH_WATER_MARK - (controller.desiredSize ?? HIGH_WATER_MARK))
  }

  setHeader (name: string, value: OutgoingHeaderValue): this {
    if (this.headersSent) throw headersSentError()
    checkHeader(name, value)
    this.store[name.toLowerCase()] = value
    return this
  }

  appendHeader (name: string, value: OutgoingHeaderValue): this {
    const key = name.toLowerCase()
    const current = this.store[key]
    if (current === undefined) return this.setHeader(name, value)
    if (this.headersSent) throw headersSentError()
    checkHeader(name, value)
    const list = Array.isArray(current) ? current.slice() : [String(current)]
    this.store[key] = list.concat(Array.isArray(value) ? value : String(value))
    return this
  }

  getHeader (name: string): OutgoingHeaderValue | undefined { return this.store[name.toLowerCase()] }
  getHeaders (): Record<string, OutgoingHeaderValue> { return { ...this.store } }
  getHeaderNames (): string[] { return Object.keys(this.store) }
  hasHeader (name: string): boolean { return this.store[name.toLowerCase()] !== undefined }

  removeHeader (name: string): void {
    if (this.headersSent) throw headersSentError()
    delete this.store[name.toLowerCase()]
  }

  /** `writeHead(status[, statusMessage][, headers])`; headers as an object or a flat list, as node takes them. */
  writeHead (statusCode: number, message?: string | Record<string, OutgoingHeaderValue | undefined> | unknown[], headers?: Record<string, OutgoingHeaderValue | undefined> | unknown[]): this {
    if (this.headersSent) throw headersSentError()
    if (typeof message === 'string') this.statusMessage = message
    else headers = message
    this.statusCode = statusCode
    if (Array.isArray(headers)) {
      const flat = headers.length > 0 && Array.isArray(headers[0]) ? (headers as unknown[][]).flat() : headers
      for (let i = 0; i + 1 < flat.length; i += 2) this.setHeader(String(flat[i]), flat[i + 1] as OutgoingHeaderValue)
    } else if (headers !== undefined && headers !== null) {
      for (const name of Object.keys(headers)) {
        const value = headers[name]
        if (value !== undefined) this.setHeader(name, value)
      }
    }
    this.headersSent = true
    return this
  }

  /** Sends the status and headers now: the body follows as a stream. */
  flushHeaders (): void {
    this.headersSent = true
    if (!this.settled) this.startStream()
  }

  addTrailers (trailers: Record<string, string>): void { this.trailers = { ...this.trailers, ...trailers } }
  writeContinue (): void {}
  writeProcessing (): void {}
  writeEarlyHints (_hints: unknown, callback?: () => void): void { if (typeof callback === 'function') process.nextTick(callback) }
  setTimeout (): this { return this }
  cork (): void {}
  uncork (): void {}

  write (chunk: any, encoding?: any, callback?: Callback): boolean {
    if (typeof encoding === 'function') { callback = encoding; encoding = undefined }
    if (this.writableEnded || this.destroyed) {
      failLater(this, this.destroyed ? destroyedError() : writeAfterEndError(), callback)
      return false
    }
    const buffer = toBuffer(chunk, encoding)
    this.headersSent = true
    if (!this.settled) this.startStream()
    const controller = this.controller
    if (typeof callback === 'function') process.nextTick(callback)
    // no body for this status or method, or an empty write
    if (controller === null || buffer.length === 0) return true
    controller.enqueue(buffer)
    if ((controller.desiredSize ?? 1) > 0) return true
    this.needDrain = true
    return false
  }

  end (chunk?: any, encoding?: any, callback?: any): this {
    if (typeof chunk === 'function') { callback = chunk; chunk = undefined } else if (typeof encoding === 'function') { callback = encoding; encoding = undefined }
    const hasChunk = chunk !== undefined && chunk !== null
    if (this.writableEnded) {
      // node: an end with data after the end is a write after end; without, its callback waits for 'finish'
      if (hasChunk) failLater(this, writeAfterEndError(), callback)
      else if (typeof callback === 'function') {
        if (!this.writableFinished) this.once('finish', callback)
        else process.nextTick(callback, Object.assign(new Error('Cannot call end after a stream was finished'), { code: 'ERR_STREAM_ALREADY_FINISHED' }))
      }
      return this
    }
    if (this.destroyed) return this
    if (!this.settled) {
      // the whole body in one call (or none): it becomes the Response's body as it is, no stream
      const body = hasChunk && this.hasBody() ? this.wholeBody(chunk, encoding) : null
      this.headersSent = true
      this.writableEnded = true
      this.settle(body)
    } else {
      if (hasChunk) this.write(chunk, encoding)
      this.headersSent = true
      this.writableEnded = true
      const controller = this.controller
      if (controller !== null) { try { controller.close() } catch {} }
    }
    if (typeof callback === 'function') this.once('finish', callback)
    // a microtask, not node's next tick: a loop of awaited app.fetch() calls never leaves the
    // microtask queue, so next-tick ends would wait (and hold every exchange) until it yields
    queueMicrotask(() => { finishExchange(this) })
    return this
  }

  destroy (err?: Error | null): this {
    if (this.destroyed) return this
    this.destroyed = true
    this.needDrain = false
    if (!this.settled) {
      this.settled = true
      this.fail(err ?? destroyedError())
    } else if (this.controller !== null && !this.writableFinished) {
      try { this.controller.error(err ?? destroyedError()) } catch {}
    }
    // as node's ServerResponse: destroying it tears the exchange down, it does not emit 'error'
    if (!this.closed) queueMicrotask(() => { closeExchange(this) })
    return this
  }

  /** A string stays a string when the reply named its type (a Response would otherwise add text/plain); anything else is bytes. */
  private wholeBody (chunk: unknown, encoding: unknown): string | Buffer {
    if (typeof chunk === 'string' && isUtf8(encoding) && this.store['content-type'] !== undefined) return chunk
    return toBuffer(chunk, encoding as BufferEncoding | undefined)
  }

  private hasBody (): boolean {
    const status = this.statusCode
    return this.req.method !== 'HEAD' && status !== 204 && status !== 205 && status !== 304 && status >= 200
  }

  private startStream (): void {
    if (!this.hasBody()) { this.settle(null); return }
    // a body being sent: the client going away must reach the source (the abort watch)
    this.req.watchAbort()
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => { this.controller = controller },
      pull: () => {
        if (!this.needDrain) return
        this.needDrain = false
        this.emit('drain')
      },
      cancel: () => { this.destroy() }
    }, { highWaterMark: HIGH_WATER_MARK, size: byteLength })
    this.settle(stream)
  }

  private settle (body: ConstructorParameters<typeof Response>[0]): void {
    this.settled = true
    let response: Response
    try {
      // a body given whole: a runtime's server counts it itself
      const lengthless = this.runtimeSetsLength && body !== null && !(body instanceof ReadableStream)
      response = new Response(body, { status: this.statusCode, headers: this.outgoingHeaders(lengthless) })
    } catch (err) {
      this.fail(err)
      return
    }
    this.made = response
    if (this.resolve !== null) this.resolve(response)
  }

  private fail (err: unknown): void {
    this.failure = { err }
    if (this.reject !== null) this.reject(err)
  }

  /**
   * The headers the Response carries, without hop-by-hop headers (nor a Content-Length left to the
   * runtime: `lengthless`): a plain object when each name has one value (the runtimes convert one
   * faster than the null-prototype store: Deno in half the time), else a list of pairs.
   */
  private outgoingHeaders (lengthless: boolean): ResponseInit['headers'] {
    const store = this.store
    const headers: Record<string, string> = {}
    for (const name in store) {
      if (!carried(name, lengthless)) continue
      const value = store[name]
      // '__proto__' would set the object's prototype
      if (Array.isArray(value) || name === '__proto__') return this.headerPairs(lengthless)
      headers[name] = String(value)
    }
    return headers
  }

  private headerPairs (lengthless: boolean): Array<[string, string]> {
    const store = this.store
    const pairs: Array<[string, string]> = []
    for (const name in store) {
      if (!carried(name, lengthless)) continue
      const value = store[name]
      if (Array.isArray(value)) for (const v of value) pairs.push([name, String(v)])
      else pairs.push([name, String(value)])
    }
    return pairs
  }

  /** Called after the end (a microtask later): the answer is out. */
  markFinished (): void {
    this.writableFinished = true
  }
}

Object.setPrototypeOf(FetchServerResponse.prototype, Stream.prototype)
Object.setPrototypeOf(FetchServerResponse, Stream)
for (const [name, value] of [['writable', true], ['writableCorked', 0], ['writableObjectMode', false], ['writableHighWaterMark', HIGH_WATER_MARK]] as const) {
  Object.defineProperty(FetchServerResponse.prototype, name, { value, writable: true, configurable: true })
}
// a write after the end is reported to an 'error' listener only, never thrown (failLater): the
// request path need not add a listener per response
markGuardsWriteAfterEnd(FetchServerResponse.prototype)

function byteLength (chunk: Uint8Array): number { return chunk.byteLength }

function failLater (res: FetchServerResponse, err: Error, callback: Callback | undefined): void {
  process.nextTick(() => {
    if (typeof callback === 'function') callback(err)
    // as node: the error is emitted too, but never thrown at a response nobody listens to
    if (!res.destroyed && res.listenerCount('error') > 0) res.emit('error', err)
  })
}

function finishExchange (res: FetchServerResponse): void {
  if (res.destroyed) return
  res.markFinished()
  res.emit('finish')
  closeExchange(res)
}

function closeExchange (res: FetchServerResponse): void {
  if (res.closed) return
  res.closed = true
  res.emit('close')
  res.req.exchangeOver()
}
