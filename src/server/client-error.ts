/**
 * Malformed HTTP from a client (node's parser rejects it before any route runs): answer with a
 * JSON body and close the connection, never a crash. The status follows the error: 408 for a
 * request that timed out, 431 for headers over the size limit, 400 otherwise. When an earlier
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

type InFlight = { headersSent?: boolean, writableEnded?: boolean, req?: { complete?: boolean }, once?: (event: string, fn: () => void) => unknown }

export function bindClientErrorHandler (server: Server, log: Logger): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Socket & { _httpMessage?: InFlight | null }) => {
    // a reset or already destroyed socket: nothing to answer and nothing to clean up
    if (err.code === 'ECONNRESET' || socket.destroyed) return
    log.debug({ err }, 'client error')
    const answer = (): void => {
      if (socket.writable && !socket.destroyed) socket.write(responseFor(statusFor(err.code)))
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
