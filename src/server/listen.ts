/**
 * The node:http server: creation with the timeout options, `listen` (options object and the 4.3
 * legacy signatures), addresses, and a graceful close: in-flight requests finish, idle keep-alive
 * connections are closed, and requests that still arrive get 503 while closing.
 */
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import dns from 'node:dns'
import { errorCodes } from '../errors'
import type { ResolvedOptions } from '../options'
import type { Logger } from './logger'
import { createHttp2Server, closeHttp2Sessions, type Http2RequestListener } from './http2'

export type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void

export function createServer (options: ResolvedOptions, listener: RequestListener): http.Server {
  let server: http.Server
  if (options.serverFactory !== undefined) {
    server = options.serverFactory(listener, options)
  } else if (options.http2) {
    server = createHttp2Server(options.https, options.http2SessionTimeout, listener as unknown as Http2RequestListener) as unknown as http.Server
  } else {
    const serverOptions: http.ServerOptions = {
      requestTimeout: options.requestTimeout,
      keepAliveTimeout: options.keepAliveTimeout
    }
    if (options.maxRequestsPerSocket > 0) (serverOptions as Record<string, unknown>).maxRequestsPerSocket = options.maxRequestsPerSocket
    server = options.https !== null
      ? https.createServer({ ...options.https, ...serverOptions }, listener)
      : http.createServer(serverOptions, listener)
  }
  // a custom server (serverFactory) keeps the timeouts its factory gave it
  if (options.serverFactory === undefined) server.setTimeout(options.connectionTimeout)
  if (options.input.forceCloseConnections === 'idle' && typeof (server as Partial<http.Server>).closeIdleConnections !== 'function') {
    throw new errorCodes.FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE()
  }
  if (options.serverFactory === undefined && !options.http2) server.keepAliveTimeout = options.keepAliveTimeout
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

export async function listen (server: http.Server, options: ListenOptions, secure: boolean, log: Logger): Promise<string> {
  const port = options.port === undefined ? 0 : Number(options.port)
  if (options.path === undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    // the same error node's server.listen raises for a bad port
    throw Object.assign(new RangeError(`options.port should be >= 0 and < 65536. Received ${String(options.port)}`), { code: 'ERR_SOCKET_BAD_PORT' })
  }
  let host = options.host ?? 'localhost'
  if (host === 'localhost') {
    host = await new Promise<string>((resolve) => dns.lookup('localhost', (err, address) => resolve(err === null ? address : '127.0.0.1')))
  }
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => { server.removeListener('listening', onListening); reject(err) }
    const onListening = (): void => { server.removeListener('error', onError); resolve() }
    server.once('error', onError)
    server.once('listening', onListening)
    if (options.path !== undefined) server.listen({ path: options.path, backlog: options.backlog, readableAll: options.readableAll, writableAll: options.writableAll, signal: options.signal })
    else server.listen({ port, host, backlog: options.backlog, exclusive: options.exclusive, ipv6Only: options.ipv6Only, signal: options.signal })
  })
  const address = formatAddress(server.address(), secure)
  // Fastify 4.29: listenTextResolver(address) writes the "listening" log line
  log.info(typeof options.listenTextResolver === 'function' ? options.listenTextResolver(address) : `Server listening at ${address}`)
  return address
}

export function closeServer (server: http.Server, forceClose: boolean | 'idle'): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) { resolve(); return }
    server.close(() => resolve())
    closeHttp2Sessions(server, forceClose === true)
    if (typeof server.closeAllConnections !== 'function') return
    if (forceClose === true) server.closeAllConnections()
    else if (forceClose === 'idle') server.closeIdleConnections()
  })
}

/**
 * While closing, a finished response may leave its keep-alive connection idle: close it then
 * (on the next turn, once node has marked it idle), so close() does not wait keepAliveTimeout.
 * Pipelined requests still queued on the connection keep it busy and get their answer first.
 */
export function closeIdleAfterResponse (server: http.Server | null, forceClose: boolean | 'idle'): void {
  if (server === null || forceClose === false || typeof server.closeIdleConnections !== 'function') return
  setImmediate(() => server.closeIdleConnections())
}

export function assertCanListen (listening: boolean, closed: boolean): void {
  if (closed) throw new errorCodes.FST_ERR_REOPENED_CLOSE_SERVER()
  if (listening) throw new errorCodes.FST_ERR_REOPENED_SERVER()
}
