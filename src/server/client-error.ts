/**
 * Malformed HTTP from a client (node's parser rejects it before any route runs): answer with a
 * JSON body and close the connection, never a crash. The status follows the error: 408 for a
 * request that timed out, 431 for headers over the size limit, 400 otherwise. Nothing is written
 * when a response has already started on the connection (as node itself does); a reset or
 * destroyed socket is left alone.
 */
import { STATUS_CODES, type Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Logger } from './logger'

function statusFor (code: string | undefined): number {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408
  if (code === 'HPE_HEADER_OVERFLOW') return 431
  return 400
}

const responses = new Map<number, string>()
function responseFor (statusCode: number): string {
  let response = responses.get(statusCode)
  if (response === undefined) {
    const error = STATUS_CODES[statusCode] as string
    const body = JSON.stringify({ error, message: 'Client Error', statusCode })
    response = `HTTP/1.1 ${statusCode} ${error}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\n\r\n${body}`
    responses.set(statusCode, response)
  }
  return response
}

export function bindClientErrorHandler (server: Server, log: Logger): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Socket & { _httpMessage?: { headersSent?: boolean } | null }) => {
    // a reset or already destroyed socket: nothing to answer and nothing to clean up
    if (err.code === 'ECONNRESET' || socket.destroyed) return
    log.debug({ err }, 'client error')
    // as node itself: answer only when no response on this connection has started (a keep-alive
    // connection may have served earlier requests), then close the connection
    const inFlight = socket._httpMessage
    if (socket.writable && (inFlight === undefined || inFlight === null || inFlight.headersSent !== true)) {
      socket.write(responseFor(statusFor(err.code)))
    }
    socket.destroy(err)
  })
}
