/**
 * The log lines trellis writes about requests (Fastify 5's `LogController`): 'incoming request',
 * 'request completed' / 'request errored', the default error handler's line, "Route ... not found",
 * stream failures, a failed error serializer and the 503 of a closing server. A Fastify 5
 * application may pass a subclass as the `logController` option to change any of them; every
 * other application gets one built from `disableRequestLogging` and `requestIdLogLabel`.
 *
 * The request path calls these only while request logging can write something (the logger is not
 * the silent one), so a controller costs nothing when logging is off.
 */
import type { Logger } from './logger'

/** What a log line reads of a request or reply. */
interface Logged { log: Logger; raw?: any; [key: string]: any }

export type DisableRequestLogging = boolean | ((request: any) => boolean)

export interface LogControllerOptions {
  /** true, or a function of the request returning true: the per-request lines are not written. */
  disableRequestLogging?: DisableRequestLogging
  /** The key of the request id in request log lines (default `reqId`). */
  requestIdLogLabel?: string
}

export class LogController {
  disableRequestLogging: DisableRequestLogging
  isDisableRequestLoggingFunction: boolean
  requestIdLogLabel: string

  constructor (options?: LogControllerOptions) {
    this.disableRequestLogging = options?.disableRequestLogging || false
    this.isDisableRequestLoggingFunction = typeof this.disableRequestLogging === 'function'
    this.requestIdLogLabel = options?.requestIdLogLabel || 'reqId'
  }

  /** Whether the per-request lines of this request are left out. */
  isLogDisabled (request: unknown): boolean {
    const disable = this.disableRequestLogging
    return typeof disable === 'function' ? disable(request) === true : disable
  }

  incomingRequest (request: Logged, _reply?: Logged, _metadata?: unknown): void {
    if (this.isLogDisabled(request)) return
    request.log.info({ req: request }, 'incoming request')
  }

  requestCompleted (error: unknown, request: Logged, reply: Logged, _metadata?: unknown): void {
    if (this.isLogDisabled(request)) return
    if (error !== undefined && error !== null) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored')
    else reply.log.info({ res: reply, responseTime: reply.elapsedTime }, 'request completed')
  }

  /** The default error handler's line: `error` for a 5xx, `info` otherwise. */
  defaultErrorLog (error: any, request: Logged, reply: Logged, _metadata?: unknown): void {
    if (this.isLogDisabled(request)) return
    if (reply.statusCode >= 500) reply.log.error({ req: request, res: reply, err: error }, error?.message)
    else reply.log.info({ res: reply, err: error }, error?.message)
  }

  /** A payload stream that failed after the headers were sent. */
  streamError (error: Error & { code?: string }, request: Logged, reply: Logged, _metadata?: unknown): void {
    if (this.isLogDisabled(request)) return
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') reply.log.info({ res: reply }, 'stream closed prematurely')
    else reply.log.warn({ err: error }, 'response terminated with an error with headers already sent')
  }

  routeNotFound (request: Logged, _reply?: Logged, _metadata?: unknown): void {
    if (this.isLogDisabled(request)) return
    request.log.info(`Route ${request.raw.method}:${request.raw.url} not found`)
  }

  /** The error payload's headers could not be written. */
  writeHeadError (error: any, request: Logged, reply: Logged, _metadata?: unknown): void {
    if (this.isLogDisabled(request)) return
    reply.log.warn({ req: request, res: reply, err: error }, error?.message)
  }

  serializerError (error: unknown, request: Logged, reply: Logged, metadata: { statusCode: number }): void {
    if (this.isLogDisabled(request)) return
    reply.log.error({ err: error, statusCode: metadata.statusCode }, 'The serializer for the given status code failed')
  }

  /** A request refused with a 503 while the server closes: always written. */
  serviceUnavailable (logger: Logger, _server?: unknown): void {
    logger.info({ res: { statusCode: 503 } }, 'request aborted - refusing to accept new requests as server is closing')
  }
}

/**
 * Fastify 4's lines: the same, except that a stream failing with an error other than a premature
 * close is always reported (`disableRequestLogging` is a boolean there).
 */
export class LogControllerV4 extends LogController {
  override streamError (error: Error & { code?: string }, request: Logged, reply: Logged): void {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') super.streamError(error, request, reply)
    else reply.log.warn({ err: error }, 'response terminated with an error with headers already sent')
  }
}
