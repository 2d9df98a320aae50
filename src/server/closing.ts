/**
 * While the server closes, a finished response may leave its keep-alive connection idle: it is
 * closed then (closeIdleAfterResponse), so close() does not wait for keepAliveTimeout. Node
 * publishes every finished response of its http(s) servers on the 'http.server.response.finish'
 * diagnostics channel; listening there while closing replaces a 'finish' listener on every
 * response of the server's life. It covers the responses already written when close() began.
 */
import diagnosticsChannel from 'node:diagnostics_channel'
import type { Server } from 'node:http'
import { closeIdleAfterResponse } from './listen'

const RESPONSE_FINISH = 'http.server.response.finish'

/** Starts closing idle connections of `server` after each response; returns the function that stops it. */
export function closeIdleWhileClosing (server: Server | null, forceClose: boolean | 'idle'): () => void {
  if (server === null || forceClose === false || typeof server.closeIdleConnections !== 'function') return noop
  const onFinish = (message: unknown): void => {
    if ((message as { server?: unknown }).server === server) closeIdleAfterResponse(server, forceClose)
  }
  diagnosticsChannel.subscribe(RESPONSE_FINISH, onFinish)
  return () => { diagnosticsChannel.unsubscribe(RESPONSE_FINISH, onFinish) }
}

function noop (): void {}
