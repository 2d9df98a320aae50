/**
 * The node:http server: creation with the timeout options, `listen` (options object and the 4.3
 * legacy signatures), addresses, and a graceful close: in-flight requests finish, idle keep-alive
 * connections are closed, and requests that still arrive get 503 while closing.
 */
import { isWorkerTarget } from '../base/worker-target'
import http from 'node:http'
import type https from 'node:https'
import net, { type AddressInfo, type Socket } from 'node:net'
import type dns from 'node:dns'
import { errorCodes } from '../base/errors'
import type { ResolvedOptions } from '../base/option-types'
import type { Logger } from './logger'
import { createHttp2Server, closeHttp2Sessions, type Http2RequestListener } from './http2'
import { GuardedServerResponse } from './guarded-response'

type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void

export function createServer (options: ResolvedOptions, listener: RequestListener): http.Server {
  // a Worker's app.server never listens (its fetch handler serves): a plain server object for the
  // plugins that reach it, without the socket timeouts workerd's node:http does not implement
  if (isWorkerTarget()) return http.createServer(listener)
  let server: http.Server
  if (options.serverFactory !== undefined) {
    server = options.serverFactory(listener, options)
  } else if (options.http2) {
    server = createHttp2Server(options.https, options.http2SessionTimeout, listener as unknown as Http2RequestListener) as unknown as http.Server
  } else {
    // headersTimeout and requestTimeout answer a slow client 408 (slowloris); node checks them every
    // connectionsCheckingInterval ms
    const serverOptions: http.ServerOptions = {
      requestTimeout: options.requestTimeout,
      headersTimeout: options.headersTimeout,
      connectionsCheckingInterval: options.connectionsCheckingInterval,
      keepAliveTimeout: options.keepAliveTimeout,
      // responses guard themselves against write-after-end errors: no 'error' listener per response
      ServerResponse: GuardedServerResponse as typeof http.ServerResponse
    }
    // trellis-only options (headersTimeout, connectionsCheckingInterval) not given: the same names
    // in Fastify 4.29's `http` option apply
    const httpOption = (options.input.http ?? {}) as http.ServerOptions
    for (const name of ['headersTimeout', 'connectionsCheckingInterval'] as const) {
      if (options.input[name] === undefined && httpOption[name] !== undefined) delete serverOptions[name]
    }
    server = options.https !== null
      ? (require('node:https') as typeof https).createServer({ ...options.https, ...serverOptions }, listener) // loaded only for TLS
      // Fastify 4.29's `http` option: node's own server options; trellis's timeouts above still apply
      : http.createServer({ ...httpOption, ...serverOptions }, listener)
    // node reads maxRequestsPerSocket from the server object only (createServer ignores the option):
    // past it, node answers 503 and closes the connection
    if (options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket
  }
  // a custom server (serverFactory) keeps the timeouts its factory gave it
  if (options.serverFactory === undefined) server.setTimeout(options.connectionTimeout)
  if (options.input.forceCloseConnections === 'idle' && typeof (server as Partial<http.Server>).closeIdleConnections !== 'function') {
    throw new errorCodes.FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE()
  }
  if (options.serverFactory === undefined && !options.http2) {
    server.keepAliveTimeout = options.keepAliveTimeout
    trackConnections(server, options.https !== null)
  }
  return server
}

export interface ListenOptions { port?: number | string; host?: string; backlog?: number; path?: string; exclusive?: boolean; ipv6Only?: boolean; readableAll?: boolean; writableAll?: boolean; signal?: AbortSignal; listenTextResolver?: (address: string) => string }
export type ListenCallback = (err: Error | null, address?: string | null) => void

/** Normalizes listen(opts, cb), listen(port, host, backlog, cb), listen(port, cb), listen(cb). */
export function parseListenArgs (args: unknown[]): { options: ListenOptions; callback: ListenCallback | undefined } {
  const last = args[args.length - 1]
  const callback = typeof last === 'function' ? last as ListenCallback : undefined
  const rest = callback !== undefined ? args.slice(0, -1) : args
  const first = rest[0]
  if (first !== null && typeof first === 'object') return { options: { ...(first as ListenOptions) }, callback }
  const options: ListenOptions = {}
  if (first !== undefined) {
    const port = typeof first === 'string' && /^\d+$/.test(first) ? Number(first) : first
    if (typeof port === 'number') options.port = port
    else if (typeof port === 'string') options.path = port
  }
  if (typeof rest[1] === 'string') options.host = rest[1]
  else if (typeof rest[1] === 'number') options.backlog = rest[1]
  if (typeof rest[2] === 'number') options.backlog = rest[2]
  return { options, callback }
}

export function formatAddress (address: AddressInfo | string | null, secure: boolean): string {
  if (address === null) return ''
  if (typeof address === 'string') return address
  const host = address.family === 'IPv6' || (address.family as unknown) === 6 ? `[${address.address}]` : address.address
  return `${secure ? 'https' : 'http'}://${host}:${address.port}`
}

/** The port and host listen() binds: the port checked as node's server.listen checks it, 'localhost' resolved (the default). */
export async function listenTarget (options: ListenOptions): Promise<{ port: number, host: string }> {
  const port = options.port === undefined ? 0 : Number(options.port)
  if (options.path === undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    // the same error node's server.listen raises for a bad port
    throw Object.assign(new RangeError(`options.port should be >= 0 and < 65536. Received ${String(options.port)}`), { code: 'ERR_SOCKET_BAD_PORT' })
  }
  let host = options.host ?? 'localhost'
  if (host === 'localhost') {
    host = await new Promise<string>((resolve) => (require('node:dns') as typeof dns).lookup('localhost', (err, address) => resolve(err === null ? address : '127.0.0.1')))
  }
  return { port, host }
}

/** Fastify 4.29: listenTextResolver(address) writes the "listening" log line. */
export function logListening (options: ListenOptions, address: string, log: Logger): void {
  log.info(typeof options.listenTextResolver === 'function' ? options.listenTextResolver(address) : `Server listening at ${address}`)
}

export async function listen (server: http.Server, options: ListenOptions, secure: boolean, log: Logger): Promise<string> {
  const { port, host } = await listenTarget(options)
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => { server.removeListener('listening', onListening); reject(err) }
    const onListening = (): void => { server.removeListener('error', onError); resolve() }
    server.once('error', onError)
    server.once('listening', onListening)
    if (options.path !== undefined) server.listen({ path: options.path, backlog: options.backlog, readableAll: options.readableAll, writableAll: options.writableAll, signal: options.signal })
    else server.listen({ port, host, backlog: options.backlog, exclusive: options.exclusive, ipv6Only: options.ipv6Only, signal: options.signal })
  })
  const address = formatAddress(server.address(), secure)
  logListening(options, address, log)
  return address
}

/**
 * Idle keep-alive connections stay open this long after close() begins: a request a client sent on
 * one just before it learnt of the close is answered 503 `Connection: close` instead of being reset.
 * After it, idle connections are closed (the same race as any keep-alive timeout).
 */
const IDLE_CLOSE_GRACE_MS = 250

interface ClosingState { graceOver: boolean; marked: WeakSet<http.ServerResponse> }
const closingStates = new WeakMap<http.Server, ClosingState>()
const socketsOf = new WeakMap<http.Server, Set<Socket>>()

type HttpSocket = Socket & { _httpMessage?: http.ServerResponse | null; parser?: { incoming?: http.IncomingMessage | null } | null }

/** Tracks a node:http(s) server's connections (one Set entry per connection, nothing per request). */
function trackConnections (server: http.Server, secure: boolean): void {
  const sockets = new Set<Socket>()
  socketsOf.set(server, sockets)
  server.on(secure ? 'secureConnection' : 'connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
}

/** close() began: see markLastResponses. Called at once by close(), before it awaits anything. */
export function beginClose (server: http.Server, forceClose: boolean | 'idle'): void {
  const sockets = socketsOf.get(server)
  if (forceClose === 'idle' && sockets !== undefined && server.listening) markLastResponses(server, sockets)
}

/**
 * The response being prepared on each connection, when it answers the last request received there,
 * will say `Connection: close` (node then ends the connection after it).
 */
function markLastResponses (server: http.Server, sockets: Set<Socket>): ClosingState {
  let state = closingStates.get(server)
  if (state === undefined) {
    state = { graceOver: false, marked: new WeakSet() }
    closingStates.set(server, state)
  }
  for (const socket of sockets as Set<HttpSocket>) {
    const res = socket._httpMessage
    if (res === undefined || res === null || res.headersSent || !res.shouldKeepAlive) continue
    // a later request already read on this connection (pipelined) needs it open
    if (socket.parser?.incoming !== undefined && socket.parser.incoming !== res.req) continue
    res.shouldKeepAlive = false
    state.marked.add(res)
  }
  return state
}

/**
 * close() for node:http(s): stop accepting; the response being prepared on each connection (when
 * it answers the last request received there) says `Connection: close`, so the client does not
 * send another request on it; idle connections are closed after IDLE_CLOSE_GRACE_MS
 * (`forceCloseConnections: 'idle'`, the default), at once (`true`), or left to node (`false`).
 */
export function closeServer (server: http.Server, forceClose: boolean | 'idle'): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) { resolve(); return }
    if (closeHttp2Sessions(server, forceClose === true)) {
      // node:http2's own close() (Node >= 22) closes every session at once: a GOAWAY sent before a
      // request the client already sent reaches the server refuses it (NGHTTP2_REFUSED_STREAM).
      // Stop listening only; closeHttp2Sessions closes the sessions after one round trip.
      net.Server.prototype.close.call(server, () => resolve())
      return
    }
    const sockets = socketsOf.get(server)
    if (forceClose !== 'idle' || sockets === undefined || typeof server.closeIdleConnections !== 'function') {
      server.close(() => resolve())
      if (forceClose === true && typeof server.closeAllConnections === 'function') server.closeAllConnections()
      return
    }
    const state = markLastResponses(server, sockets)
    const timer = setTimeout(() => { state.graceOver = true; closeIdleWhenFlushed(server) }, IDLE_CLOSE_GRACE_MS)
    // node >= 19 closes idle connections inside server.close(): not before the grace period
    const own = server as unknown as { closeIdleConnections: () => void }
    own.closeIdleConnections = () => {}
    try {
      server.close(() => { clearTimeout(timer); resolve() })
    } finally {
      delete (own as { closeIdleConnections?: () => void }).closeIdleConnections
    }
  })
}

/**
 * A request arrived on a connection while closing: the response in front of it on that connection
 * (marked `Connection: close` by closeServer) must keep the connection open for this one, which
 * then says `Connection: close` itself. Called only while closing.
 */
export function keepConnectionFor (res: http.ServerResponse): void {
  const req = (res as { req?: http.IncomingMessage }).req
  const socket = req?.socket as HttpSocket | undefined
  const front = socket?._httpMessage
  if (front === undefined || front === null || front === res || front.headersSent) return
  const server = (socket as unknown as { server?: http.Server }).server
  const state = server !== undefined ? closingStates.get(server) : undefined
  if (state !== undefined && state.marked.has(front)) { front.shouldKeepAlive = true; state.marked.delete(front) }
}

/**
 * While closing, a finished response may leave its keep-alive connection idle: close it then
 * (on the next turn, once node has marked it idle), so close() does not wait keepAliveTimeout.
 * Pipelined requests still queued on the connection keep it busy and get their answer first.
 * During the grace period after close() began, the grace timer does it instead.
 */
export function closeIdleAfterResponse (server: http.Server | null, forceClose: boolean | 'idle'): void {
  if (server === null || forceClose === false || typeof server.closeIdleConnections !== 'function') return
  const state = closingStates.get(server)
  if (state !== undefined && !state.graceOver) return
  setImmediate(() => closeIdleWhenFlushed(server))
}

/** How often a close waiting on a slow reader looks again (only while closing). */
const FLUSH_POLL_MS = 20

/**
 * node's closeIdleConnections() counts a connection as idle as soon as its last response has
 * ended, even while that response's bytes still wait in the socket for a slow reader: destroying it
 * then cuts the response short (an 8 MB body to a client that reads slowly arrives half). So idle
 * connections are closed only once no connection of the server has ended-but-unflushed bytes; until
 * then this looks again every FLUSH_POLL_MS. Connections still answering are node's to keep.
 */
function closeIdleWhenFlushed (server: http.Server): void {
  const sockets = socketsOf.get(server)
  if (sockets !== undefined) {
    for (const socket of sockets as Set<HttpSocket>) {
      if (socket.destroyed || socket.writableLength === 0) continue
      const res = socket._httpMessage
      if (res === undefined || res === null || res.writableEnded) {
        setTimeout(closeIdleWhenFlushed, FLUSH_POLL_MS, server).unref()
        return
      }
    }
  }
  server.closeIdleConnections()
}

export function assertCanListen (listening: boolean, closed: boolean): void {
  if (closed) throw new errorCodes.FST_ERR_REOPENED_CLOSE_SERVER()
  if (listening) throw new errorCodes.FST_ERR_REOPENED_SERVER()
}
