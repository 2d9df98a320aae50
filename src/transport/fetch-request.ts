/**
 * A fetch `Request` as the request path's raw request (`request.raw`): a Node Readable of the body
 * with IncomingMessage's fields. The body is pulled from the Request's stream only when something
 * reads it (a parser, a preParsing hook, a plugin), one chunk per read, so a slow reader holds
 * the sender back; a request nobody reads costs no read at all, and a parser that takes the body
 * whole gets it from `request.arrayBuffer()` (`kWholeBody`) without the stream. The socket is made
 * on first access.
 *
 * The abort watch (a listener on the Request's `signal`) is armed only when something observes an
 * abort: a 'close' or 'aborted' listener on this object (onRequestAbort hooks, `request.signal`,
 * the handler timeout, a plugin), a body read as a stream, or a streamed answer. Listening on the
 * signal costs per request on Bun and Deno, so a request nobody watches never touches it. When the
 * signal aborts before the answer is out, the message is marked aborted and emits 'aborted' and
 * 'close', and the response is destroyed; when the exchange ends otherwise, a watched message
 * emits 'close' (node's request does both).
 */
import { EventEmitter } from 'node:events'
import { Readable } from 'node:stream'
import { kWholeBody } from './contract'
import { isWorkerTarget } from '../base/worker-target'

type ReadResult = { done: true, value?: undefined } | { done: false, value: Uint8Array }

/** What stands in for the connection: the peer's address when the runtime says it, and TLS from the URL. */
export class FetchSocket extends EventEmitter {
  readonly remoteAddress: string | undefined
  readonly remotePort: number | undefined
  readonly remoteFamily: string | undefined
  readonly encrypted: boolean | undefined
  readonly destroyed = false
  readonly localAddress = undefined
  readonly localPort = undefined

  constructor (peer: Peer, encrypted: boolean) {
    super()
    this.remoteAddress = peer.address
    this.remotePort = peer.port
    this.remoteFamily = peer.address === undefined ? undefined : peer.address.includes(':') ? 'IPv6' : 'IPv4'
    // a plain socket has no `encrypted` field; a TLS one has it true (what request.protocol reads)
    if (encrypted) this.encrypted = true
  }

  setTimeout (): this { return this }
  setNoDelay (): this { return this }
  setKeepAlive (): this { return this }
  ref (): this { return this }
  unref (): this { return this }
  destroy (): this { return this }
  address (): Record<string, never> { return {} }

  /**
   * A fetch exchange has no connection to write to. An informational response written raw (a 103
   * Early Hints, as @fastify/early-hints writes it onto `reply.raw.socket`) is dropped, as
   * `reply.writeEarlyHints` drops its hints here: a Response has no 1xx before it. Any other
   * write throws, rather than losing bytes a client waits for.
   */
  write (chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const done = typeof encoding === 'function' ? encoding : callback
    if (!INFORMATIONAL.test(leadingText(chunk))) {
      throw Object.assign(new Error('reply.raw.socket.write(): a fetch exchange has no connection to write to (an informational 1xx response is dropped, nothing else is taken)'), { code: 'TRL_ERR_FETCH_NO_SOCKET' })
    }
    if (typeof done === 'function') process.nextTick(done as () => void)
    return true
  }
}

/** The status line of an informational response, as written raw onto a socket. */
const INFORMATIONAL = /^HTTP\/1\.[01] 1\d\d /

/** The first bytes of what is written, as text (enough for a status line). */
function leadingText (chunk: unknown): string {
  if (typeof chunk === 'string') return chunk.slice(0, 16)
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, 16)).toString('latin1')
  return ''
}

interface Peer { address: string | undefined, port: number | undefined }

/**
 * The client's address from the runtime's context argument, where it gives one: Deno.serve's
 * handler info (`remoteAddr`), Bun.serve's server (`requestIP(request)`), @hono/node-server's
 * bindings (`incoming.socket`), or any object with `remoteAddress`. In a built Worker (../worker.ts)
 * the context is the Worker's `env, ctx`, and the client's address is the `cf-connecting-ip` header,
 * which Cloudflare sets on every request it passes to a Worker (as Hono's getConnInfo reads it).
 */
export function peerOf (request: Request, context: readonly unknown[]): Peer {
  if (isWorkerTarget()) {
    const ip = request.headers.get('cf-connecting-ip')
    return ip === null || ip === '' ? NO_PEER : { address: ip, port: undefined }
  }
  const info = context[0] as Record<string, any> | null | undefined
  if (info === null || typeof info !== 'object') return NO_PEER
  try {
    const deno = info.remoteAddr
    if (deno !== null && typeof deno === 'object' && typeof deno.hostname === 'string') return { address: deno.hostname, port: deno.port }
    if (typeof info.requestIP === 'function') {
      const bun = info.requestIP(request)
      if (bun !== null && typeof bun === 'object' && typeof bun.address === 'string') return { address: bun.address, port: bun.port }
      return NO_PEER
    }
    const socket = info.incoming?.socket
    if (socket !== null && typeof socket === 'object' && typeof socket.remoteAddress === 'string') return { address: socket.remoteAddress, port: socket.remotePort }
    if (typeof info.remoteAddress === 'string') return { address: info.remoteAddress, port: typeof info.remotePort === 'number' ? info.remotePort : undefined }
  } catch {}
  return NO_PEER
}

const NO_PEER: Peer = { address: undefined, port: undefined }

/**
 * What the request path takes from a Request's URL: the path with its query, TLS or not, and
 * where the authority lies (`hostOf` reads it only for a Request that carries no Host).
 */
export interface RequestUrl { path: string, encrypted: boolean, href: string, authorityStart: number, authorityEnd: number }

/**
 * Splits a Request's URL (already serialized by the Request: `scheme://authority/path?query#fragment`)
 * without building a URL object; the fragment is never sent, so it is dropped. Null when it has no
 * authority (not an http(s) URL). A serialized http(s) URL (what Bun.serve, Deno.serve and a
 * `new Request` give) has its path right after the authority: one search for '/' and one for
 * '#'; anything else (an object shaped like a Request) takes the general way.
 */
export function splitRequestUrl (href: string): RequestUrl | null {
  const start = href.startsWith('http://') ? 7 : href.startsWith('https://') ? 8 : -1
  if (start !== -1) {
    const slash = href.indexOf('/', start)
    // no '?' or '#' before the path: nothing else ends a serialized authority
    if (slash !== -1 && !hasQueryOrHash(href, start, slash)) {
      const hash = href.indexOf('#', slash)
      return { path: hash === -1 ? href.slice(slash) : href.slice(slash, hash), encrypted: start === 8, href, authorityStart: start, authorityEnd: slash }
    }
  }
  return splitAnyUrl(href)
}

function hasQueryOrHash (href: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const code = href.charCodeAt(i)
    if (code === 63 || code === 35) return true
  }
  return false
}

function splitAnyUrl (href: string): RequestUrl | null {
  const scheme = href.indexOf('://')
  if (scheme === -1) return null
  const start = scheme + 3
  let end = href.length
  const hash = href.indexOf('#', start)
  if (hash !== -1) end = hash
  let slash = href.indexOf('/', start)
  if (slash === -1 || slash > end) slash = -1
  const query = href.indexOf('?', start)
  // an authority ends at the first '/', '?' or '#'
  let hostEnd = end
  if (slash !== -1) hostEnd = slash
  if (query !== -1 && query < hostEnd) hostEnd = query
  const rest = href.slice(hostEnd, end)
  return { path: rest === '' || rest[0] === '?' ? '/' + rest : rest, encrypted: href.startsWith('https:'), href, authorityStart: start, authorityEnd: hostEnd }
}

/** The URL's authority as a client sends it in Host: without credentials. */
export function hostOf (url: RequestUrl): string {
  const at = url.href.lastIndexOf('@', url.authorityEnd - 1)
  return url.href.slice(at >= url.authorityStart ? at + 1 : url.authorityStart, url.authorityEnd)
}

const READABLE_OPTIONS = { autoDestroy: false }
/** Bun's Headers have `toJSON()`: the headers as a plain object (set-cookie a list), made natively. */
const BUN = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined'

function setOwn (target: object, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true })
}

/** The Request's headers as IncomingMessage's `headers`: lower-cased names, repeated values joined, set-cookie a list. */
function headersOf (source: Headers): Record<string, string | string[]> {
  const toJSON = BUN ? (source as Headers & { toJSON?: () => Record<string, string | string[]> }).toJSON : undefined
  if (typeof toJSON === 'function') {
    // Bun: made natively (a `__proto__` header is an own property there); set-cookie is already a list
    const headers = toJSON.call(source)
    const cookie = headers['set-cookie']
    if (typeof cookie === 'string') headers['set-cookie'] = [cookie]
    return headers
  }
  const headers: Record<string, string | string[]> = {}
  source.forEach((value, name) => {
    if (name === '__proto__') setOwn(headers, name, value)
    else headers[name] = value
  })
  if (headers['set-cookie'] !== undefined) headers['set-cookie'] = source.getSetCookie()
  return headers
}

/**
 * A Node Readable (`instanceof Readable`, `Stream`, `EventEmitter`: its prototype is Readable's)
 * whose Readable constructor has not run: the ReadableState is made on first use (see
 * `_readableState` below), not per request.
 */
export interface FetchIncomingMessage extends Readable {}
export class FetchIncomingMessage {
  method: string
  url: string
  headers: Record<string, string | string[]>
  // constants on the prototype (below), not stored per request
  declare readonly httpVersion: '1.1'
  declare readonly httpVersionMajor: 1
  declare readonly httpVersionMinor: 1
  aborted = false
  complete = false
  private trailersMade: Record<string, string> | undefined = undefined
  private rawTrailersMade: string[] | undefined = undefined
  /** The Request this message stands for. */
  readonly request: Request
  /** The arguments after the Request (`env, ctx` on Workers, the server on Bun, the handler info on Deno). */
  readonly context: readonly unknown[]
  private readonly encrypted: boolean
  private socketMade: FetchSocket | undefined = undefined
  private rawHeadersMade: string[] | undefined = undefined
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined = undefined
  /** The response of this exchange (set by ./fetch.ts): what an abort destroys. */
  res: { destroy: (err?: Error) => unknown, readonly writableEnded: boolean, readonly destroyed: boolean } | null = null
  /** Something observes an abort: the signal is listened to (or was already aborted). */
  private watched = false
  /** The answer is out or the exchange was torn down. */
  private over = false
  private onAbort: (() => void) | null = null
  /** The body was taken whole (kWholeBody): the stream has nothing more. */
  private taken = false
  /** Readable's state exists: something used this message as a stream (or destroyed it). */
  streaming = false

  constructor (request: Request, url: RequestUrl, context: readonly unknown[]) {
    this.request = request
    this.context = context
    this.method = request.method
    this.url = url.path
    this.encrypted = url.encrypted
    const headers = headersOf(request.headers)
    // a Request made in-process carries no Host: the URL's authority is what a client would send
    if (headers.host === undefined) headers.host = hostOf(url)
    // a body of unknown length goes as a client sends one over a socket: chunked. `request.body` is
    // read last: on Bun reading it makes the body a stream, which `arrayBuffer()` then has to drain
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined && this.method !== 'GET' && this.method !== 'HEAD' && request.body !== null) headers['transfer-encoding'] = 'chunked'
    this.headers = headers
  }

  get socket (): FetchSocket {
    return (this.socketMade ??= new FetchSocket(peerOf(this.request, this.context), this.encrypted))
  }

  get connection (): FetchSocket { return this.socket }

  /** A fetch Request brings no trailers: empty, made on first read. */
  get trailers (): Record<string, string> { return (this.trailersMade ??= {}) }
  get rawTrailers (): string[] { return (this.rawTrailersMade ??= []) }

  /** The header lines as a flat list, made on first read from the headers as they were then (node's are fixed at parse). */
  get rawHeaders (): string[] {
    if (this.rawHeadersMade !== undefined) return this.rawHeadersMade
    const list: string[] = []
    for (const name of Object.keys(this.headers)) {
      const value = this.headers[name]
      if (Array.isArray(value)) for (const v of value) list.push(name, v)
      else if (value !== undefined) list.push(name, value)
    }
    return (this.rawHeadersMade = list)
  }

  setTimeout (): this { return this }

  // a 'close' or 'aborted' listener observes an abort: the watch is armed then, not before
  private armFor (event: string | symbol): this {
    if (!this.watched && (event === 'close' || event === 'aborted')) this.watchAbort()
    return this
  }

  // Readable's own `on`/`removeListener` touch its state for every event: only 'data' and 'readable' need it
  on (event: string | symbol, listener: (...args: any[]) => void): this {
    if (event === 'data' || event === 'readable') Readable.prototype.on.call(this, event, listener)
    else EventEmitter.prototype.on.call(this, event, listener)
    return this.armFor(event)
  }

  addListener (event: string | symbol, listener: (...args: any[]) => void): this { return this.on(event, listener) }
  once (event: string | symbol, listener: (...args: any[]) => void): this { Readable.prototype.once.call(this, event, listener); return this.armFor(event) }
  prependListener (event: string | symbol, listener: (...args: any[]) => void): this { Readable.prototype.prependListener.call(this, event, listener); return this.armFor(event) }
  prependOnceListener (event: string | symbol, listener: (...args: any[]) => void): this { Readable.prototype.prependOnceListener.call(this, event, listener); return this.armFor(event) }

  removeListener (event: string | symbol, listener: (...args: any[]) => void): this {
    if (event === 'data' || event === 'readable') Readable.prototype.removeListener.call(this, event, listener)
    else EventEmitter.prototype.removeListener.call(this, event, listener)
    return this
  }

  off (event: string | symbol, listener: (...args: any[]) => void): this { return this.removeListener(event, listener) }

  /** Arms the abort watch (once): from now on the Request's signal aborting aborts the exchange. */
  watchAbort (): void {
    if (this.watched) return
    this.watched = true
    if (this.over) return
    const signal = this.request.signal as AbortSignal | null | undefined
    if (signal === null || signal === undefined) return
    // aborted already: the observer that armed the watch is in place when the abort comes
    if (signal.aborted) { queueMicrotask(() => { this.abortExchange() }); return }
    this.onAbort = () => { this.abortExchange() }
    signal.addEventListener('abort', this.onAbort, { once: true })
  }

  private abortExchange (): void {
    const res = this.res
    // once the answer is ended it is out: a signal that aborts then (Deno aborts it after every response) aborts nothing
    if (this.over || this.aborted || res === null || res.writableEnded) return
    this.aborted = true
    this.emit('aborted')
    this.destroy()
    res.destroy()
  }

  /** The response has finished or was destroyed (./fetch-response.ts): a watched message closes, the watch ends. */
  exchangeOver (): void {
    if (this.over) return
    this.over = true
    if (this.onAbort !== null) {
      this.request.signal.removeEventListener('abort', this.onAbort)
      this.onAbort = null
    }
    if ((this.watched || this.reader !== undefined) && !this.destroyed) this.destroy()
  }

  /**
   * The whole body as one Buffer, for a parser that takes it whole, when nothing has read the
   * stream: `request.arrayBuffer()` with no Node stream between. Null when the stream was touched.
   */
  [kWholeBody] (): Promise<Buffer> | null {
    // `request.body` is not read here (on Bun that makes the body a stream): a body someone else
    // has read is `bodyUsed`; one locked by another reader makes arrayBuffer() reject
    if (this.reader !== undefined || (this.streaming && (this.readableDidRead || this.destroyed)) || this.request.bodyUsed) return null
    this.complete = true
    this.taken = true
    return this.request.arrayBuffer().then((data) => Buffer.from(data))
  }

  // a request path that destroys the request with an error (a non-string rewriteUrl) fails the exchange
  destroy (err?: Error): this {
    if (err !== undefined && err !== null) {
      const res = this.res
      if (res !== null && !res.destroyed) res.destroy(err)
      // nobody listens for it here: the exchange's failure is the error's only consequence
      if (this.listenerCount('error') === 0) return Readable.prototype.destroy.call(this) as this
    }
    return Readable.prototype.destroy.call(this, err) as this
  }

  _read (): void {
    // a body read as a stream: a client that goes must reach its reader
    if (!this.watched) this.watchAbort()
    const body = this.request.body
    if (body === null || this.taken) { this.complete = true; this.push(null); return }
    const reader = (this.reader ??= body.getReader())
    reader.read().then((result: ReadResult) => {
      if (result.done) { this.complete = true; this.push(null); return }
      const chunk = result.value
      this.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
    }, (err: unknown) => { this.destroy(err as Error) })
  }

  _destroy (err: Error | null, callback: (err?: Error | null) => void): void {
    if (this.reader !== undefined && !this.complete) this.reader.cancel().catch(noop)
    callback(err)
  }
}

/**
 * Readable's state, made on first read: everything of Readable (`read`, `pipe`, `on('data')`,
 * async iteration, `destroy`, `readableEnded`, ...) reads `_readableState`, so the first of them
 * runs Readable's constructor on the message (listeners added before it are kept).
 */
Object.setPrototypeOf(FetchIncomingMessage.prototype, Readable.prototype)
for (const [name, value] of [['httpVersion', '1.1'], ['httpVersionMajor', 1], ['httpVersionMinor', 1]] as const) {
  Object.defineProperty(FetchIncomingMessage.prototype, name, { value, writable: true, configurable: true })
}
Object.setPrototypeOf(FetchIncomingMessage, Readable)

/**
 * What the request path asks of every request (body.ts: `destroyed`, `readableEnded`) answered
 * without making the state: a message nobody used as a stream is neither destroyed nor ended.
 */
for (const [name, fresh] of [['destroyed', false], ['readableEnded', false], ['readableDidRead', false]] as const) {
  const inherited = Object.getOwnPropertyDescriptor(Readable.prototype, name)
  const get = inherited?.get
  if (get === undefined) continue
  Object.defineProperty(FetchIncomingMessage.prototype, name, {
    configurable: true,
    get (this: FetchIncomingMessage) { return this.streaming ? get.call(this) : fresh },
    ...(inherited?.set === undefined ? {} : { set: inherited.set })
  })
}

Object.defineProperty(FetchIncomingMessage.prototype, '_readableState', {
  configurable: true,
  get (this: FetchIncomingMessage & Record<string, unknown>) {
    const events = this._events
    const count = this._eventsCount
    ;(Readable as unknown as (this: unknown, options: unknown) => void).call(this, READABLE_OPTIONS)
    // every runtime's EventEmitter keeps an own `_events`; this makes sure of it
    if (events !== undefined && this._events !== events) { this._events = events; this._eventsCount = count }
    return this._readableState
  },
  set (this: FetchIncomingMessage, value: unknown) {
    setOwn(this, '_readableState', value)
    this.streaming = true
  }
})

function noop (): void {}
