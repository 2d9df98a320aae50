/**
 * Malformed HTTP from a client (node's parser rejects it before any route runs): answer with a
 * JSON body and close the connection, never a crash. The status and message follow the error, as
 * Fastify 4.29 answers: 408 "Client Timeout" for a request that timed out, 431 "Exceeded maximum
 * allowed HTTP header size" for headers over the size limit, 400 "Client Error" otherwise. When an earlier
 * request on the same keep-alive connection is still being answered, its response is finished
 * first and this answer follows it. A reset or destroyed socket is left alone.
 */
import { STATUS_CODES, type Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Logger } from './logger'

function statusFor (code: string | undefined): number {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408
  if (code === 'HPE_HEADER_OVERFLOW') return 431
  return 400
}

/** The answer's message and the log line's label, as Fastify 4.29 writes them. */
const MESSAGES: Record<number, { message: string, label: string }> = {
  408: { message: 'Client Timeout', label: 'timeout' },
  431: { message: 'Exceeded maximum allowed HTTP header size', label: 'header_overflow' },
  400: { message: 'Client Error', label: 'error' }
}

const responses = new Map<number, string>()
function responseFor (statusCode: number): string {
  let response = responses.get(statusCode)
  if (response === undefined) {
    const error = STATUS_CODES[statusCode] as string
    const body = JSON.stringify({ error, message: MESSAGES[statusCode].message, statusCode })
    response = `HTTP/1.1 ${statusCode} ${error}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\n\r\n${body}`
    responses.set(statusCode, response)
  }
  return response
}

type InFlight = { headersSent?: boolean, writableEnded?: boolean, req?: { complete?: boolean }, once?: (event: string, fn: () => void) => unknown }

export function bindClientErrorHandler (server: Server, log: Logger): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Socket & { _httpMessage?: InFlight | null }) => {
    // a reset or already destroyed socket: nothing to answer and nothing to clean up
    if (err.code === 'ECONNRESET' || socket.destroyed) return
    const statusCode = statusFor(err.code)
    // most client errors are network or load-balancer noise: trace level, as Fastify
    log.trace({ err }, `client ${MESSAGES[statusCode].label}`)
    const answer = (): void => {
      if (socket.writable && !socket.destroyed) socket.write(responseFor(statusCode))
      socket.destroy(err)
    }
    const inFlight = socket._httpMessage
    if (inFlight === undefined || inFlight === null || inFlight.writableEnded === true) { answer(); return }
    if (inFlight.req?.complete === true && typeof inFlight.once === 'function') {
      // a keep-alive connection still answering an earlier, complete (pipelined) request: that
      // answer is finished first, then this one follows it (Fastify 4.29 answers both)
      inFlight.once('finish', answer)
      inFlight.once('close', () => { if (!socket.destroyed) socket.destroy(err) })
      return
    }
    // the error is in the request being answered (its body, say): answered now unless its
    // response has already started (never two answers mixed on the wire), then the connection closes
    if (inFlight.headersSent === true) { socket.destroy(err); return }
    answer()
  })
}
