/**
 * The cluster primary (`--workers N`, N > 1): forks the workers, restarts one that dies with back-off
 * (and logs it), forwards SIGTERM/SIGINT as a graceful close and exits 0 once every worker has
 * exited cleanly. A second signal kills the workers and exits 1. When no worker ever started
 * listening (the application fails to load), it stops instead of restarting forever.
 * The workers run the application's Fastify line, resolved here once (./line.ts) and passed to
 * them in TRELLIS_FASTIFY_LINE.
 */
import cluster, { type Worker } from 'node:cluster'
import pino from 'pino'
import type { StartOptions } from './args'
import { createBackoff } from './backoff'
import { SHUTDOWN_MESSAGE, STARTUP_FAILED } from './serve'
import { resolvePrettyTarget, PRETTY_MISSING } from './pretty'
import { appLine, followLine } from './line'
import { resolve } from 'node:path'

export function runPrimary (opts: StartOptions): void {
  const { line, from } = appLine(opts.file as string, opts.line)
  followLine(line) // the workers inherit the environment
  const log = pino({ level: opts.logLevel, base: { pid: process.pid, role: 'primary' } })
  const backoff = createBackoff()
  const startedAt = new Map<number, number>()
  const pending = new Set<NodeJS.Timeout>()
  let everListened = false
  let shuttingDown = false
  let failedExit = false

  const fork = (): void => {
    const worker = cluster.fork()
    startedAt.set(worker.id, Date.now())
    log.info({ worker: worker.id, workerPid: worker.process.pid }, 'worker forked')
  }
  const alive = (): Worker[] => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead())
  const finish = (): void => {
    log.info({ exitCode: failedExit ? 1 : 0 }, 'all workers exited')
    process.exit(failedExit ? 1 : 0)
  }

  // a worker that cannot start for a reason the user must fix (the port is in use, ...): one line, exit 1
  cluster.on('message', (_worker, message: { type?: unknown, message?: unknown } | null) => {
    if (message?.type !== STARTUP_FAILED || everListened || shuttingDown) return
    shuttingDown = true
    process.stderr.write(`trellis: ${String(message.message)}\n`)
    for (const w of alive()) w.process.kill('SIGKILL')
    process.exit(1)
  })
  cluster.on('listening', (worker, address) => {
    everListened = true
    log.info({ worker: worker.id, workerPid: worker.process.pid, port: address.port }, 'worker listening')
  })
  cluster.on('exit', (worker, code, signal) => {
    const uptime = Date.now() - (startedAt.get(worker.id) ?? Date.now())
    startedAt.delete(worker.id)
    if (shuttingDown) {
      if (code !== 0) failedExit = true
      log.info({ worker: worker.id, workerPid: worker.process.pid, code, signal }, 'worker exited')
      if (alive().length === 0) finish()
      return
    }
    if (!everListened) {
      // a worker's startup-failure message may still be in the IPC pipe when its exit is seen
      setTimeout(() => {
        if (shuttingDown) return
        log.fatal({ worker: worker.id, code, signal }, 'a worker exited before the application started listening: not restarting')
        shuttingDown = true
        failedExit = true
        for (const w of alive()) w.process.kill('SIGKILL')
        if (alive().length === 0) finish()
      }, 100)
      return
    }
    const delay = backoff.next(uptime)
    log.warn({ worker: worker.id, workerPid: worker.process.pid, code, signal, uptime, restartIn: delay }, 'worker died: restarting')
    const timer = setTimeout(() => { pending.delete(timer); if (!shuttingDown) fork() }, delay)
    pending.add(timer)
  })

  const onSignal = (signal: NodeJS.Signals): void => {
    if (shuttingDown) {
      log.warn({ signal }, 'second signal: killing the workers')
      for (const w of alive()) w.process.kill('SIGKILL')
      process.exit(1)
    }
    shuttingDown = true
    for (const timer of pending) clearTimeout(timer)
    pending.clear()
    const workers = alive()
    log.info({ signal, workers: workers.length }, 'closing the workers')
    if (workers.length === 0) { finish(); return }
    for (const w of workers) {
      // a worker signalled with the primary (a terminal's Ctrl+C reaches the whole group) may have
      // closed its channel already: the send then fails, later, with an error that would otherwise
      // be an unhandled 'error' event of the primary; that worker is closing, its exit comes next
      const unsent = (err: Error | null): void => { if (err !== null && !w.isDead()) w.process.kill('SIGTERM') }
      try { w.send(SHUTDOWN_MESSAGE, unsent) } catch (err) { unsent(err as Error) }
    }
    // each worker enforces closeTimeout itself; this only catches one that is stuck beyond it
    setTimeout(() => {
      log.error('workers did not exit in time: killing them')
      for (const w of alive()) w.process.kill('SIGKILL')
      process.exit(1)
    }, opts.drainDelay + opts.closeTimeout + 2000).unref()
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)

  if (opts.prettyLogs && resolvePrettyTarget(resolve(opts.file as string)) === undefined) process.stderr.write(PRETTY_MISSING + '\n')
  log.info({ workers: opts.workers, fastifyLine: line, lineFrom: from }, 'starting workers')
  for (let i = 0; i < opts.workers; i++) fork()
}
