/**
 * HTTP/2 servers (`http2: true`, with `https` for TLS and `https.allowHTTP1` for HTTP/1 fallback):
 * node:http2's compatibility API hands trellis request/response objects shaped like node:http's,
 * so they go through the same request path. This file owns what HTTP/2 adds: sessions. Each
 * session closes after `http2SessionTimeout` ms of inactivity; on close(), sessions close
 * gracefully (see closeHttp2Sessions).
 */
import type http2 from 'node:http2'

export type Http2RequestListener = (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void

interface SessionState { open: number; closing: boolean }

const sessionsOf = new WeakMap<object, Map<http2.Http2Session, SessionState>>()

export function createHttp2Server (https: Record<string, unknown> | null, sessionTimeout: number, listener: Http2RequestListener): http2.Http2Server | http2.Http2SecureServer {
  // node:http2 is loaded only for an HTTP/2 server (it costs ~1 MB of RSS to every process that loads it)
  const h2 = require('node:http2') as typeof http2
  const server = https !== null ? h2.createSecureServer(https, listener) : h2.createServer(listener)
  const sessions = new Map<http2.Http2Session, SessionState>()
  sessionsOf.set(server, sessions)
  server.on('session', (session: http2.Http2Session) => {
    const state: SessionState = { open: 0, closing: false }
    sessions.set(session, state)
    session.once('close', () => sessions.delete(session))
    session.setTimeout(sessionTimeout, () => { session.close() })
    session.on('stream', (stream: http2.Http2Stream) => {
      state.open++
      stream.once('close', () => {
        state.open--
        if (state.closing && state.open === 0) session.close()
      })
    })
  })
  return server
}

/**
 * On server close, each HTTP/2 session closes (GOAWAY: no new streams) once its open streams are
 * done, but only after one round trip (a PING): a request the client sent before it learnt of the
 * close is still answered (503 while closing) instead of being refused mid-flight.
 * `forceCloseConnections: true` destroys the sessions instead. Returns false for a server that is
 * not trellis's HTTP/2 server.
 */
export function closeHttp2Sessions (server: object, force: boolean): boolean {
  const sessions = sessionsOf.get(server)
  if (sessions === undefined) return false
  for (const [session, state] of sessions) {
    if (force) { session.destroy(); continue }
    if (state.closing || session.closed || session.destroyed) continue
    const closeWhenIdle = (): void => {
      state.closing = true
      if (state.open === 0 && !session.closed && !session.destroyed) session.close()
    }
    try {
      if (!session.ping(() => { closeWhenIdle() })) closeWhenIdle()
    } catch {
      closeWhenIdle()
    }
  }
  return true
}
