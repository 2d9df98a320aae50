/**
 * What the request path writes (`reply.raw`: ServerResponse's methods) turned into a fetch
 * `Response`. A body given whole to `end()` becomes the Response's body as it is; anything written
 * before the end (a piped stream, a hijacked reply's writes) is sent as a ReadableStream as it
 * comes, and a write waits until the Response's reader asks for more (backpressure). HEAD, 1xx,
 * 204, 205 and 304 answers have no body. Hop-by-hop headers (connection, keep-alive,
 * transfer-encoding, trailer, upgrade) are the runtime's to write, never the Response's; trailers
 * are computed and kept on `trailers` but not sent: a fetch Response carries none.
 */
import { Writable } from 'node:stream'
import type { FetchIncomingMessage } from './fetch-request'
import type { OutgoingHeaderValue } from './contract'

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'trailer', 'upgrade', 'proxy-connection'])
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/

type Callback = (err?: Error | null) => void

function destroyedError (): Error {
  return Object.assign(new Error('The response was destroyed before it was sent'), { code: 'ECONNRESET' })
}

function headersSentError (): Error {
  return Object.assign(new Error('Cannot set headers after they are sent to the client'), { code: 'ERR_HTTP_HEADERS_SENT' })
}

/** node:http's checks of a header (its errors and codes), so a bad header fails where it fails over a socket. */
function checkHeader (name: string, value: unknown): void {
  if (typeof name !== 'string' || !TOKEN.test(name)) {
    throw Object.assign(new TypeError(`Header name must be a valid HTTP token ["${String(name)}"]`), { code: 'ERR_INVALID_HTTP_TOKEN' })
  }
  if (value === undefined) throw Object.assign(new TypeError(`Invalid value "undefined" for header "${name}"`), { code: 'ERR_HTTP_INVALID_HEADER_VALUE' })
  const values = Array.isArray(value) ? value : [value]
  for (const v of values) {
    if (INVALID_VALUE.test(String(v))) throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), { code: 'ERR_INVALID_CHAR' })
  }
}

export class FetchServerResponse extends Writable {
  statusCode = 200
  statusMessage = ''
  sendDate = false
  headersSent = false
  /** Trailers the reply added (a fetch Response cannot carry them). */
  trailers: Record<string, string> | null = null
  readonly req: FetchIncomingMessage
  /** Settles with the Response once its status and headers are known (or rejects when the exchange fails first). */
  readonly response: Promise<Response>
  private readonly store: Record<string, OutgoingHeaderValue> = Object.create(null)
  private whole: Buffer | null = null
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null
  private waiting: Callback | null = null
  private settled = false
  private resolve!: (response: Response) => void
  private reject!: (err: unknown) => void

  constructor (req: FetchIncomingMessage) {
    super()
    this.req = req
    this.response = new Promise<Response>((resolve, reject) => { this.resolve = resolve; this.reject = reject })
  }

  get socket (): FetchIncomingMessage['socket'] { return this.req.socket }
  get connection (): FetchIncomingMessage['socket'] { return this.req.socket }
  get finished (): boolean { return this.writableEnded }

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

  override end (chunk?: any, encoding?: any, callback?: any): this {
    if (typeof chunk === 'function') { callback = chunk; chunk = undefined } else if (typeof encoding === 'function') { callback = encoding; encoding = undefined }
    // the whole body in one call: it becomes the Response's body as it is, no stream
    if (chunk !== undefined && chunk !== null && !this.settled && !this.writableEnded && this.writableLength === 0) {
      this.whole = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
      chunk = undefined
    }
    return super.end(chunk, encoding, callback)
  }

  override _write (chunk: Buffer, _encoding: BufferEncoding, callback: Callback): void {
    this.headersSent = true
    if (!this.settled) this.startStream()
    const controller = this.controller
    if (controller === null) { callback(); return } // no body for this status or method
    controller.enqueue(chunk)
    if ((controller.desiredSize ?? 1) > 0) callback()
    else this.waiting = callback
  }

  override _final (callback: Callback): void {
    this.headersSent = true
    if (this.controller !== null) {
      this.controller.close()
    } else if (!this.settled) {
      const body = this.whole
      this.whole = null
      this.settle(() => new Response(this.hasBody() ? body : null, this.init()))
    }
    callback()
  }

  override _destroy (err: Error | null, callback: Callback): void {
    // after a finished response (the usual end: autoDestroy) there is nothing to fail
    if (!this.settled) {
      this.settled = true
      this.reject(err ?? destroyedError())
    } else if (this.controller !== null && !this.writableFinished) {
      try { this.controller.error(err ?? destroyedError()) } catch {}
    }
    this.waiting = null
    // as node's ServerResponse: destroying it tears the exchange down, it does not emit 'error'
    callback()
  }

  private hasBody (): boolean {
    const status = this.statusCode
    return this.req.method !== 'HEAD' && status !== 204 && status !== 205 && status !== 304 && status >= 200
  }

  private startStream (): void {
    if (!this.hasBody()) { this.settle(() => new Response(null, this.init())); return }
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => { this.controller = controller },
      pull: () => {
        const waiting = this.waiting
        if (waiting !== null) { this.waiting = null; waiting() }
      },
      cancel: () => { this.destroy() }
    })
    this.settle(() => new Response(stream, this.init()))
  }

  private settle (make: () => Response): void {
    this.settled = true
    let response: Response
    try {
      response = make()
    } catch (err) {
      this.reject(err)
      return
    }
    this.resolve(response)
  }

  private init (): ResponseInit {
    const headers = new Headers()
    const store = this.store
    for (const name of Object.keys(store)) {
      if (HOP_BY_HOP.has(name)) continue
      const value = store[name]
      if (Array.isArray(value)) for (const v of value) headers.append(name, String(v))
      else headers.append(name, String(value))
    }
    return { status: this.statusCode, headers }
  }
}
