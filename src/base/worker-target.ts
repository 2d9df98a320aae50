/**
 * Whether this process builds or runs a Cloudflare Worker: `trellis build --target worker` turns it
 * on while the application registers and readies, and so does the Worker that build writes. Then
 * what a Worker cannot have (a listening server, HTTP/2, TLS, a server factory, a log file) fails
 * where the application asks for it, with an error naming the runtime: at build time, not at the
 * Worker's first request.
 */
export const WORKERS = 'Cloudflare Workers'

// on the global object, so two copies of trellis in one process (an application importing the
// installed package while the command runs from another) agree
const FLAG = Symbol.for('trellis.workerTarget')
const flags = globalThis as unknown as Record<symbol, boolean | undefined>

export function setWorkerTarget (value: boolean): void {
  flags[FLAG] = value
}

export function isWorkerTarget (): boolean {
  return flags[FLAG] === true
}

/** `what` is not available on Cloudflare Workers, and why. Code TRL_ERR_WORKER_UNAVAILABLE. */
export class WorkerUnavailableError extends Error {
  readonly code = 'TRL_ERR_WORKER_UNAVAILABLE'
  constructor (what: string, why: string) {
    super(`${what} is not available on ${WORKERS}: ${why}`)
    this.name = 'WorkerUnavailableError'
  }
}

/** The server options a Worker cannot honour (it is served by its fetch handler), checked when the application is created. */
export function assertWorkerOptions (options: { http2?: unknown, https?: unknown, serverFactory?: unknown, schemaCache?: unknown }): void {
  if (!isWorkerTarget()) return
  if (options.schemaCache !== undefined) throw new WorkerUnavailableError('the schemaCache option (or TRELLIS_SCHEMA_CACHE_DIR)', 'a Worker has no disk to keep it on, and the Worker holds every schema the build compiled')
  if (options.http2 === true) throw new WorkerUnavailableError('the http2 option', 'a Worker answers through its fetch handler; Cloudflare speaks HTTP/2 and HTTP/3 to clients in front of it')
  if (options.https !== null && options.https !== undefined && options.https !== false) throw new WorkerUnavailableError('the https option', 'Cloudflare terminates TLS in front of the Worker')
  if (options.serverFactory !== undefined) throw new WorkerUnavailableError('the serverFactory option', 'a Worker has no node:http server; its fetch handler serves')
}
