/**
 * Malformed HTTP from a client (node's parser rejects it before any route runs): answer 400 with a
 * JSON body and close, never a crash; a timed-out or reset socket is simply destroyed.
 */
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Logger } from './logger'

const BODY = JSON.stringify({ error: 'Bad Request', message: 'Client Error', statusCode: 400 })
const RESPONSE = `HTTP/1.1 400 Bad Request\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${BODY}`

export function bindClientErrorHandler (server: Server, log: Logger): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) { socket.destroy(err); return }
    log.debug({ err }, 'client error')
    socket.end(RESPONSE)
  })
}
