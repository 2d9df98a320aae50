/**
 * One serving process (the only one, or a cluster worker): builds the server from the options and
 * the application module, listens, and closes gracefully on SIGTERM/SIGINT (or when the primary
 * asks): new requests get 503 + Connection: close, in-flight ones finish, onClose hooks run, and the
 * process exits 0, or 1 when closing takes longer than --close-timeout. A second signal exits at once.
 * The server is the application's Fastify line (./line.ts: --line, TRELLIS_FASTIFY_LINE, package.json).
 * With --drain-delay, closing waits that long first, still serving, after emitting DRAINING_EVENT on
 * `process` so the application's readiness check can answer 503 while the load balancer notices.
 */
import cluster from 'node:cluster'
import { hostname } from 'node:os'
import { createOnLine } from './factory'
import type { FastifyLine } from '../base/version'
import type { TrellisOptions } from '../types/server-options'
import type { TrellisInstance } from '../types/instance'
import type { StartOptions } from './args'
import { UsageError } from './args'
import { loadApp } from './load-app'
import { appLine, followLine } from './line'
import { flushCompileCache } from '../module-pack/compile-cache'
import { resolvePrettyTarget, PRETTY_MISSING } from './pretty'

export const SHUTDOWN_MESSAGE = 'trellis:shutdown'
/** What a worker that cannot start for a reason the user must fix sends the primary, which says it once. */
export const STARTUP_FAILED = 'trellis:startup-failed'
/** Emitted on `process` when closing begins, before --drain-delay: the moment readiness should fail. */
const DRAINING_EVENT = 'trellis:draining'

function serverOptions (opts: StartOptions, exported: Record<string, unknown> | undefined, appPath: string, line: FastifyLine): TrellisOptions {
  const base: Record<string, unknown> = opts.options && exported !== undefined ? { ...exported } : {}
  // Fastify 5 takes a logger instance as `loggerInstance` (and refuses one given as `logger`)
  const instanceKey = line === 5 && base.loggerInstance !== undefined && base.loggerInstance !== null ? 'loggerInstance' : 'logger'
  const given = base[instanceKey]
  const looksLikeInstance = given !== null && typeof given === 'object' && typeof (given as { child?: unknown }).child === 'function'
  const worker = cluster.worker
  if (!looksLikeInstance && given !== false) {
    const logger: Record<string, unknown> = { ...(given !== null && typeof given === 'object' ? given : {}), level: opts.logLevel }
    if (opts.prettyLogs) {
      const target = resolvePrettyTarget(appPath)
      if (target !== undefined) logger.transport = { target }
      else if (worker === undefined) process.stderr.write(PRETTY_MISSING + '\n') // the primary says it once for all workers
    }
    // each line names the worker that wrote it (pino's own base is { pid, hostname })
    if (worker !== undefined) logger.base = { ...(logger.base === undefined ? { pid: process.pid, hostname: hostname() } : logger.base as object), worker: worker.id }
    base.logger = logger
  } else if (looksLikeInstance && worker !== undefined) {
    base[instanceKey] = (given as { child: (bindings: object) => unknown }).child({ worker: worker.id })
  }
  // request ids unique across the workers (worker ids are never reused while the primary runs)
  if (worker !== undefined && base.genReqId === undefined) base.genReqId = workerRequestIds(worker.id)
  if (opts.bodyLimit !== undefined) base.bodyLimit = opts.bodyLimit
  if (opts.pluginTimeout !== undefined) base.pluginTimeout = opts.pluginTimeout
  if (opts.trustProxy !== undefined) base.trustProxy = opts.trustProxy
  if (opts.requestIdHeader !== undefined) base.requestIdHeader = opts.requestIdHeader
  return base as TrellisOptions
}

/** `req-w<worker>-<n>`: Fastify's `req-<n>` (base 36), with the worker's id. */
function workerRequestIds (workerId: number): () => string {
  let next = 0
  return () => {
    next = (next + 1) & 0x7fffffff
    return `req-w${workerId}-${next.toString(36)}`
  }
}

/** The one line a listen failure the user must fix deserves, naming the flag and variable to change. */
function listenFailure (err: unknown, opts: StartOptions): UsageError | undefined {
  switch ((err as { code?: unknown } | null)?.code) {
    case 'EADDRINUSE': return new UsageError(`port ${opts.port} is in use (--port / PORT)`)
    case 'EACCES': return new UsageError(`no permission to listen on port ${opts.port} (--port / PORT)`)
    case 'EADDRNOTAVAIL': return new UsageError(`address ${opts.address} is not an address of this machine (--address / TRELLIS_ADDRESS)`)
    case 'ENOTFOUND': return new UsageError(`address ${opts.address} does not resolve (--address / TRELLIS_ADDRESS)`)
    default: return undefined
  }
}

export async function serve (opts: StartOptions): Promise<TrellisInstance> {
  const { line } = appLine(opts.file as string, opts.line)
  followLine(line) // before the application loads: require('fastify') under the alias gives this line
  const app = await loadApp(opts.file as string)
  const server = createOnLine(serverOptions(opts, app.options, app.path, line), line)
  const pluginOptions: Record<string, unknown> = opts.prefix !== undefined ? { prefix: opts.prefix } : {}
  server.register(app.plugin as any, pluginOptions)
  installShutdown(server, opts.closeTimeout, opts.drainDelay)
  try {
    await server.listen({ port: opts.port, host: opts.address })
  } catch (err) {
    throw listenFailure(err, opts) ?? err
  }
  // what the start compiled is on disk now, for the next start, even if this process is killed
  flushCompileCache()
  return server
}

function installShutdown (app: TrellisInstance, closeTimeout: number, drainDelay: number): void {
  let closing = false
  // the signals this process got: the second one exits at once. A worker asked to close by the
  // primary may get the first one after that request (a terminal's Ctrl+C signals the whole process
  // group, and the primary's message can come first): that is the same close, not a second one
  let signals = 0
  const begin = (reason: string, fromSignal: boolean): void => {
    if (fromSignal) signals++
    if (closing) {
      if (signals < 2) return
      app.log.warn({ signal: reason }, 'second signal while closing: exiting now')
      process.exit(1)
    }
    closing = true
    const emitter: NodeJS.EventEmitter = process
    emitter.emit(DRAINING_EVENT, { reason, drainDelay })
    if (drainDelay > 0) {
      app.log.info({ reason, drainDelay }, 'draining: still serving, readiness fails, closing after the drain delay')
      setTimeout(() => close(reason), drainDelay)
    } else {
      close(reason)
    }
  }
  const close = (reason: string): void => {
    app.log.info({ reason, closeTimeout }, 'closing: no new requests, answering the ones in flight')
    setTimeout(() => {
      app.log.error({ closeTimeout }, 'close did not finish in time: exiting')
      process.exit(1)
    }, closeTimeout).unref()
    app.close().then(() => {
      app.log.info('closed')
      process.exit(0)
    }, (err: unknown) => {
      app.log.error({ err }, 'close failed')
      process.exit(1)
    })
  }
  process.on('SIGTERM', () => begin('SIGTERM', true))
  process.on('SIGINT', () => begin('SIGINT', true))
  if (process.send !== undefined) {
    // a cluster worker: the primary asks by message (it may also have been signalled directly, as a
    // terminal's Ctrl+C signals the whole process group). A primary killed outright is not covered:
    // node:cluster exits its workers at once when the IPC channel drops.
    process.on('message', (message: unknown) => {
      if (message === SHUTDOWN_MESSAGE) begin('primary', false)
    })
  }
}
