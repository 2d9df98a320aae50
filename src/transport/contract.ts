/**
 * The transport seam: what a transport hands the request path, and what it gets back.
 *
 * The request path (routing/dispatch.ts `Dispatcher.dispatch`, then lifecycle/) takes one pair
 * `(req, res)` per request. A transport makes that pair from whatever it serves (a node:http
 * socket, a fetch `Request`, light-my-request's mock) and turns what the request path writes on
 * `res` into its own answer. Node's `IncomingMessage` and `ServerResponse` satisfy the contract as
 * they are (the node:http path builds nothing); the fetch transport (./fetch.ts) supplies small
 * Node-compatible objects of its own, so `request.raw` and `reply.raw` keep working for plugins.
 *
 * What the request path reads and calls, and nothing more:
 * - `TransportRequest`: a Node Readable of the body (preParsing hooks and parsers read it), with
 *   `method`, `url` (path and query), lowercased `headers`, `httpVersion`/`httpVersionMajor`,
 *   `aborted`, a `socket` with `remoteAddress`/`remotePort` (and `encrypted` over TLS), and the
 *   events 'close' (the exchange is over: answered or aborted) and 'aborted'.
 * - `TransportResponse`: a Node Writable (streams are piped into it, with backpressure) with
 *   `statusCode`, `setHeader`/`getHeader`/`getHeaders`/`hasHeader`/`removeHeader`, `writeHead`,
 *   `write`, `end`, `addTrailers`, `headersSent`, `writableEnded`, `writableFinished`,
 *   `destroyed`, `destroy`, and the events 'finish', 'close', 'error', 'drain'.
 */
import type { Readable, Writable } from 'node:stream'

export type OutgoingHeaderValue = string | number | readonly string[]

export interface TransportSocket {
  remoteAddress?: string | undefined
  remotePort?: number | undefined
  encrypted?: boolean
}

export interface TransportRequest extends Readable {
  method?: string | undefined
  url?: string | undefined
  headers: Record<string, string | string[] | undefined>
  httpVersion: string
  httpVersionMajor: number
  aborted: boolean
  socket: TransportSocket
}

export interface TransportResponse extends Writable {
  statusCode: number
  readonly headersSent: boolean
  setHeader (name: string, value: OutgoingHeaderValue): this
  getHeader (name: string): OutgoingHeaderValue | undefined
  getHeaders (): Record<string, OutgoingHeaderValue | undefined>
  hasHeader (name: string): boolean
  removeHeader (name: string): void
  writeHead (statusCode: number, headers?: Record<string, OutgoingHeaderValue | undefined>): this
  addTrailers (trailers: Record<string, string>): void
}

/**
 * A raw request that can hand its whole body at once (the fetch transport: `request.arrayBuffer()`)
 * has a method under this key (a registered symbol: lifecycle/body.ts makes the same one without
 * loading this module, so a server that only listens never loads the transport); body.ts uses it for a parser that takes the body whole when nothing
 * has read the stream. It returns null when the stream was touched (then the stream is read).
 */
export const kWholeBody: unique symbol = Symbol.for('trellis.wholeBody')

/** A transport's way in: `Dispatcher.dispatch`. It answers on `res`, synchronously or later. */
export type Dispatch = (req: TransportRequest, res: TransportResponse) => void
