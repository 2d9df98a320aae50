/**
 * A fetch `Request` as the request path's raw request (`request.raw`): a Node Readable of the body
 * with IncomingMessage's fields. The body is pulled from the Request's stream only when something
 * reads it (a parser, a preParsing hook, a plugin), one chunk per read, so a slow reader holds
 * the sender back; a request nobody reads costs no read at all. The socket is made on first access.
 */
import { EventEmitter } from 'node:events'
import { Readable } from 'node:stream'

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
}

interface Peer { address: string | undefined, port: number | undefined }

/**
 * The client's address from the runtime's context argument, where it gives one: Deno.serve's
 * handler info (`remoteAddr`), Bun.serve's server (`requestIP(request)`), @hono/node-server's
 * bindings (`incoming.socket`), or any object with `remoteAddress`.
 */
export function peerOf (request: Request, context: readonly unknown[]): Peer {
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

/** What the request path takes from a Request's URL: the path with its query, the authority, TLS or not. */
export interface RequestUrl { path: string, host: string, encrypted: boolean }

/**
 * Splits a Request's URL (already serialized by the Request: `scheme://authority/path?query#fragment`)
 * without building a URL object; the fragment is never sent, so it is dropped. Null when it has no
 * authority (not an http(s) URL).
 */
export function splitRequestUrl (href: string): RequestUrl | null {
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
  // credentials in the URL are not the host a client sends
  const at = href.lastIndexOf('@', hostEnd - 1)
  const host = at >= start ? href.slice(at + 1, hostEnd) : href.slice(start, hostEnd)
  return { path: rest === '' || rest[0] === '?' ? '/' + rest : rest, host, encrypted: href.startsWith('https:') }
}

export class FetchIncomingMessage extends Readable {
  method: string
  url: string
  headers: Record<string, string | string[]>
  readonly httpVersion = '1.1'
  readonly httpVersionMajor = 1
  readonly httpVersionMinor = 1
  aborted = false
  complete = false
  readonly trailers: Record<string, string> = {}
  readonly rawTrailers: string[] = []
  /** The Request this message stands for. */
  readonly request: Request
  /** The arguments after the Request (`env, ctx` on Workers, the server on Bun, the handler info on Deno). */
  readonly context: readonly unknown[]
  private readonly encrypted: boolean
  private socketMade: FetchSocket | undefined = undefined
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined = undefined

  constructor (request: Request, url: RequestUrl, context: readonly unknown[]) {
    // 'close' is the exchange's end (answered or aborted), as node's request emits it, not the body's end
    super({ autoDestroy: false })
    this.request = request
    this.context = context
    this.method = request.method
    this.url = url.path
    this.encrypted = url.encrypted
    const headers: Record<string, string | string[]> = {}
    request.headers.forEach((value, name) => {
      if (name === '__proto__') Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true })
      else headers[name] = value
    })
    if (headers['set-cookie'] !== undefined) headers['set-cookie'] = request.headers.getSetCookie()
    // a Request made in-process carries no Host: the URL's authority is what a client would send
    if (headers.host === undefined) headers.host = url.host
    // a body of unknown length goes as a client sends one over a socket: chunked
    if (request.body !== null && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) headers['transfer-encoding'] = 'chunked'
    this.headers = headers
  }

  get socket (): FetchSocket {
    return (this.socketMade ??= new FetchSocket(peerOf(this.request, this.context), this.encrypted))
  }

  get connection (): FetchSocket { return this.socket }

  get rawHeaders (): string[] {
    const list: string[] = []
    for (const name of Object.keys(this.headers)) {
      const value = this.headers[name]
      if (Array.isArray(value)) for (const v of value) list.push(name, v)
      else list.push(name, value)
    }
    return list
  }

  setTimeout (): this { return this }

  override _read (): void {
    const body = this.request.body
    if (body === null) { this.complete = true; this.push(null); return }
    const reader = (this.reader ??= body.getReader())
    reader.read().then((result: ReadResult) => {
      if (result.done) { this.complete = true; this.push(null); return }
      const chunk = result.value
      this.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
    }, (err: unknown) => { this.destroy(err as Error) })
  }

  override _destroy (err: Error | null, callback: (err?: Error | null) => void): void {
    if (this.reader !== undefined && !this.complete) this.reader.cancel().catch(noop)
    callback(err)
  }
}

function noop (): void {}
