/**
 * listen() on Bun and Deno: their own servers (`Bun.serve`, `Deno.serve`) serve the application's
 * fetch handler (./fetch.ts), or their node:http layers serve it as on Node. The `runtimeServer`
 * option chooses: 'native', 'node', or 'auto' (the default: native, unless the application needs
 * what only a node:http server has: TLS, HTTP/2 or a `serverFactory` server, a Unix socket path,
 * or listeners of `app.server`'s 'upgrade' / 'connect' events, as WebSocket plugins add). One log
 * line at listen says which serves and why. On Node, node:http always serves.
 *
 * `app.server` stays the node:http server object made with the application (plugins reach it
 * before listen): when the runtime's server serves, that object stands for it: `address()`,
 * `listening`, the 'listening' and 'close' events and `close()` answer for the runtime's server.
 */
import type http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ResolvedOptions, RuntimeServerChoice } from '../base/option-types'
import type { Logger } from '../server/logger'
import { formatAddress, listenTarget, logListening, type ListenOptions } from '../server/listen'
import type { NodeHttpPlugin } from './node-http-plugins'

export type RuntimeName = 'node' | 'bun' | 'deno'

/** The runtime this process runs on, by its global (`Bun`, `Deno`); Node otherwise. */
export function currentRuntime (): RuntimeName {
  const g = globalThis as { Bun?: { serve?: unknown }, Deno?: { serve?: unknown } }
  if (typeof g.Bun?.serve === 'function') return 'bun'
  if (typeof g.Deno?.serve === 'function') return 'deno'
  return 'node'
}

/** The runtime's own server, by name (log lines, errors). */
export const SERVER_NAME: Record<'bun' | 'deno', string> = { bun: 'Bun.serve', deno: 'Deno.serve' }
const NODE_NAME: Record<'bun' | 'deno', string> = { bun: "Bun's node:http", deno: "Deno's node:http" }

/** What makes an application need a node:http server ('' when nothing does). */
function needsNodeHttp (options: ResolvedOptions, listenOptions: ListenOptions, server: http.Server, plugin: NodeHttpPlugin | null): string {
  if (plugin !== null) return `${plugin.name} needs node:http's own objects`
  if (options.https !== null) return 'the https option'
  if (options.http2) return 'the http2 option'
  if (options.serverFactory !== undefined) return 'the serverFactory option'
  if (listenOptions.path !== undefined) return 'a socket path'
  for (const event of ['upgrade', 'connect']) {
    if (server.listenerCount(event) > 0) return `app.server has '${event}' listeners`
  }
  return ''
}

export interface ServingChoice { native: boolean, line: string }

/**
 * Which server listen() starts, and the log line that says it (empty on Node, where node:http is
 * the only one).
 */
/** `plugin`: a registered plugin that needs node:http's objects (./node-http-plugins.ts), or null. */
export function chooseServer (runtime: RuntimeName, options: ResolvedOptions, listenOptions: ListenOptions, server: http.Server, plugin: NodeHttpPlugin | null = null): ServingChoice {
  if (runtime === 'node') return { native: false, line: '' }
  const choice: RuntimeServerChoice = options.runtimeServer
  const needs = needsNodeHttp(options, listenOptions, server, plugin)
  const tag = `runtimeServer: '${choice}'`
  if (choice === 'node') return { native: false, line: `Serving with ${NODE_NAME[runtime]} (${tag})` }
  if (choice === 'native') {
    return { native: true, line: `Serving with ${SERVER_NAME[runtime]} (${tag})${needs === '' ? '' : `; node:http only: ${needs}, not used`}` }
  }
  if (needs !== '') return { native: false, line: `Serving with ${NODE_NAME[runtime]}: ${needs} (${tag}; 'native' serves with ${SERVER_NAME[runtime]})` }
  return { native: true, line: `Serving with ${SERVER_NAME[runtime]} (${tag}; 'node' serves with ${NODE_NAME[runtime]})` }
}

/** A fetch handler as the runtimes call it: the Request, then what the runtime passes (Bun's server, Deno's info). */
export type FetchHandler = (request: Request, info: unknown) => Response | Promise<Response>

/** A started runtime server, as close() and `app.server` need it. */
interface Running {
  address: AddressInfo
  /** Stops accepting; resolves once the requests in flight are answered (force: connections cut at once). */
  stop: (force: boolean) => Promise<void>
}

const running = new WeakMap<http.Server, Running>()

/** True when `server` stands for a runtime server started by listenNative (and not closed). */
export function servesNatively (server: http.Server | null): boolean {
  return server !== null && running.has(server)
}

function familyOf (host: string): string { return host.includes(':') ? 'IPv6' : 'IPv4' }

interface BunServer { port: number, hostname: string, stop: (closeActiveConnections?: boolean) => Promise<void> | void }
interface DenoServer { addr: { hostname: string, port: number }, shutdown: () => Promise<void>, finished: Promise<void> }

function startBun (handler: FetchHandler, port: number, host: string): Running {
  const bun = (globalThis as unknown as { Bun: { serve: (options: object) => BunServer } }).Bun
  // Bun's default body limit (128 MiB) stays: trellis' bodyLimit answers 413 before it matters
  // reusePort false: a port in use is EADDRINUSE, as node's listen (Bun shares it otherwise)
  const server = bun.serve({ port, hostname: host, fetch: handler, development: false, reusePort: false })
  return {
    address: { address: server.hostname, family: familyOf(server.hostname), port: server.port },
    stop: async (force) => { await server.stop(force) }
  }
}

function startDeno (handler: FetchHandler, port: number, host: string): Running {
  const deno = (globalThis as unknown as { Deno: { serve: (options: object, handler: FetchHandler) => DenoServer } }).Deno
  const server = deno.serve({ port, hostname: host, onListen: noop }, handler)
  return {
    address: { address: server.addr.hostname, family: familyOf(server.addr.hostname), port: server.addr.port },
    // Deno's shutdown() lets the requests in flight finish; there is no forced variant
    stop: async () => { await server.shutdown() }
  }
}

function noop (): void {}

/**
 * Starts the runtime's own server on the port and host listen() was given, serving `handler`, and
 * makes `server` (the application's node:http object) stand for it. Returns the address, as listen().
 */
export async function listenNative (runtime: 'bun' | 'deno', server: http.Server, handler: FetchHandler, options: ListenOptions, log: Logger): Promise<string> {
  const { port, host } = await listenTarget(options)
  let started: Running
  try {
    started = runtime === 'bun' ? startBun(handler, port, host) : startDeno(handler, port, host)
  } catch (err) {
    // the code node gives a port in use, whatever the runtime calls it
    const e = err as Error & { code?: string }
    if (e.code === undefined && (e.name === 'AddrInUse' || /in use/i.test(e.message))) e.code = 'EADDRINUSE'
    throw e
  }
  running.set(server, started)
  adopt(server, started)
  server.emit('listening')
  const address = formatAddress(started.address, false)
  logListening(options, address, log)
  return address
}

/** Stops the runtime server `server` stands for; resolves when it has stopped ('close' is emitted). */
export async function closeNative (server: http.Server, forceClose: boolean | 'idle'): Promise<void> {
  const started = running.get(server)
  if (started === undefined) return
  try {
    await started.stop(forceClose === true)
  } finally {
    running.delete(server)
    server.emit('close')
  }
}

/** The node:http object answers for the runtime's server: address, listening, close. */
function adopt (server: http.Server, started: Running): void {
  Object.defineProperties(server, {
    address: { configurable: true, writable: true, value: () => running.has(server) ? { ...started.address } : null },
    listening: { configurable: true, get: () => running.has(server) },
    close: {
      configurable: true,
      writable: true,
      value (callback?: (err?: Error) => void) {
        closeNative(server, 'idle').then(() => callback?.(), (err: Error) => callback?.(err))
        return server
      }
    },
    // what graceful close calls on a node:http server: the runtime's server closes its idle connections itself
    closeIdleConnections: { configurable: true, writable: true, value: noop },
    closeAllConnections: { configurable: true, writable: true, value: noop }
  })
}
