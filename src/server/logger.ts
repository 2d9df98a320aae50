/**
 * The logger: pino when `logger` is true or pino options, the given instance when it already looks
 * like a logger, and a silent logger otherwise. Requests get a child logger carrying their id.
 */
import { isWorkerTarget, WorkerUnavailableError } from '../base/worker-target'
import type { IncomingMessage } from 'node:http'
import type pinoType from 'pino'
import { errorCodes } from '../base/errors'

// pino is loaded when a pino logger is made (or an application's pino instance is inspected): a
// server with logging off never loads it
function pinoModule (): typeof pinoType {
  return require('pino') as typeof pinoType
}

export interface Logger {
  level: string
  fatal: (...args: any[]) => void
  error: (...args: any[]) => void
  warn: (...args: any[]) => void
  info: (...args: any[]) => void
  debug: (...args: any[]) => void
  trace: (...args: any[]) => void
  child: (bindings: Record<string, unknown>, options?: Record<string, unknown>) => Logger
  [key: string]: any
}

const noop = (): void => {}

/** A logger that writes nothing; `child` returns itself so requests allocate nothing. */
function silentLogger (): Logger {
  const logger: Logger = {
    level: 'silent',
    fatal: noop,
    error: noop,
    warn: noop,
    info: noop,
    debug: noop,
    trace: noop,
    child: () => logger
  }
  silentLoggers.add(logger)
  return logger
}

const silentLoggers = new WeakSet<Logger>()

/** Whether this is trellis's own silent logger (logging disabled): request log lines can be skipped entirely. */
export function isSilentLogger (logger: Logger): boolean {
  return silentLoggers.has(logger)
}

/** The default serializers of request lines (req, res, err). */
export const serializers = {
  req (req: any) {
    const raw = req.raw ?? req
    // a Fastify 5 request has `host` (with the port), which its log lines show; Fastify 4's `hostname`
    if (raw !== req && typeof req.host === 'string') {
      return { method: raw.method, url: raw.url, version: raw.headers?.['accept-version'], host: req.host, remoteAddress: req.ip, remotePort: raw.socket?.remotePort }
    }
    return {
      method: raw.method,
      url: raw.url,
      version: raw.headers?.['accept-version'],
      hostname: req.hostname ?? raw.headers?.host,
      remoteAddress: req.ip ?? raw.socket?.remoteAddress,
      remotePort: raw.socket?.remotePort
    }
  },
  res (reply: any) {
    return { statusCode: reply.statusCode ?? reply.raw?.statusCode }
  },
  get err (): (err: Error) => unknown { return pinoModule().stdSerializers.err }
}

/**
 * For an application's own pino instance (used as is): the default serializers (req, res, err) it
 * does not define, given to request loggers so their lines have the usual shape. Undefined when
 * there is nothing to add or the logger is not pino.
 */
export function missingDefaultSerializers (logger: Logger): Record<string, (value: any) => unknown> | undefined {
  if (isSilentLogger(logger)) return undefined // logging off: nothing to fill, and no reason to load pino
  const own = (logger as unknown as Record<symbol, unknown>)[pinoModule().symbols.serializersSym] as Record<string, unknown> | undefined
  if (own === undefined || own === null) return undefined
  const missing: Record<string, (value: any) => unknown> = {}
  let any = false
  for (const [name, fn] of Object.entries(serializers)) {
    if (own[name] === undefined) { missing[name] = fn; any = true }
  }
  return any ? missing : undefined
}

const LOGGER_METHODS = ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'child']

/** The logger methods Fastify requires that `value` lacks (all of them for null or undefined). */
export function missingLoggerMethods (value: unknown): string[] {
  const object = value as Record<string, unknown> | null | undefined
  return LOGGER_METHODS.filter((m) => object === null || object === undefined || typeof object[m] !== 'function')
}

/**
 * A logger instance has all of Fastify's logger methods; an object with none of them is pino
 * options. One with some but not all (console, say) is FST_ERR_LOG_INVALID_LOGGER naming the
 * missing ones (Fastify 4.29; 4.3 took it for pino options).
 */
function looksLikeLogger (value: Record<string, unknown>): boolean {
  const missing = missingLoggerMethods(value)
  if (missing.length === 0) return true
  if (missing.length === LOGGER_METHODS.length) return false
  throw new errorCodes.FST_ERR_LOG_INVALID_LOGGER(missing.join(','))
}

/**
 * On Cloudflare Workers pino writes each line to the console (console.log: what `wrangler tail` and
 * workerd show): there is no file descriptor 1 to write to there.
 */
const consoleDestination = {
  write (line: string): void {
    console.log(line.endsWith('\n') ? line.slice(0, -1) : line)
  }
}

export function createLogger (option: unknown): Logger {
  if (option === undefined || option === null || option === false) return silentLogger()
  if (option === true) return isWorkerTarget() ? pinoModule()({ level: 'info', serializers }, consoleDestination) as unknown as Logger : pinoModule()({ level: 'info', serializers }) as unknown as Logger
  if (typeof option === 'object') {
    const opts = option as Record<string, any>
    if (looksLikeLogger(opts)) return opts as Logger
    const pino = pinoModule()
    if (opts.stream !== undefined && opts.file !== undefined) throw new errorCodes.FST_ERR_LOG_INVALID_DESTINATION()
    const { stream, file, ...rest } = opts
    const pinoOptions = { level: 'info', ...rest, serializers: { ...serializers, ...(rest.serializers ?? {}) } }
    if (stream !== undefined) return pino(pinoOptions, stream) as unknown as Logger
    if (file !== undefined) {
      if (isWorkerTarget()) throw new WorkerUnavailableError('the logger\'s file option', 'a Worker has no disk to write; its logs are what it writes to the console (wrangler tail, workerd\'s output)')
      return pino(pinoOptions, pino.destination(file)) as unknown as Logger
    }
    if (isWorkerTarget()) {
      if (rest.transport !== undefined) throw new WorkerUnavailableError('the logger\'s transport option', 'pino runs transports in worker threads, which a Worker does not have; its logs are what it writes to the console')
      return pino(pinoOptions, consoleDestination) as unknown as Logger
    }
    return pino(pinoOptions) as unknown as Logger
  }
  return silentLogger()
}

/** Makes a request's child logger: `setChildLoggerFactory` / the route option `childLoggerFactory` (Fastify 4.29). */
export type ChildLoggerFactory = (this: any, logger: Logger, bindings: Record<string, unknown>,
  opts: { level?: string, serializers?: Record<string, (value: any) => unknown> }, rawReq: IncomingMessage) => Logger

/** Fastify's default factory: `logger.child(bindings, opts)`. */
export function defaultChildLoggerFactory (logger: Logger, bindings: Record<string, unknown>, opts: Record<string, unknown>): Logger {
  return logger.child(bindings, opts) as Logger
}
