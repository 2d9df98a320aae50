/**
 * The ServerResponse class of trellis's node:http(s) servers (`http.createServer`'s
 * `ServerResponse` option). A write or end with data on a response that has already ended makes
 * node emit 'error' (ERR_STREAM_WRITE_AFTER_END) on the next tick, which crashes the process when
 * the response has no 'error' listener. Instead of adding a listener to every response, this class
 * adds one at the only place that error can come from: a `write`/`end` call after the end. Other
 * responses (inject, HTTP/2, a custom `serverFactory`) get a listener per response as before
 * (lifecycle/handle-request.ts watchResponse).
 */
import http from 'node:http'

/**
 * On the prototype of responses that guard themselves against write-after-end errors (a registered
 * symbol: the same in every copy of this module, the CommonJS and the ES-module build alike).
 */
const kGuardsWriteAfterEnd = Symbol.for('trellis.guardsWriteAfterEnd')

/** Marks a response class (its prototype) as one that never throws a write-after-end error: dropWriteAfterEndErrors adds it no listener. */
export function markGuardsWriteAfterEnd (prototype: object): void {
  (prototype as Record<symbol, boolean>)[kGuardsWriteAfterEnd] = true
}

function ignoreError (): void {}

function guard (res: http.ServerResponse): void {
  // added even when the response has listeners: the onResponse watcher removes its own at 'finish',
  // which can come before the error's tick. An application's own listener still gets the error.
  if (!res.listeners('error').includes(ignoreError)) res.on('error', ignoreError)
}

type Callback = (err?: Error | null) => void

export class GuardedServerResponse extends http.ServerResponse {
  override write (chunk: any, encoding?: any, callback?: Callback): boolean {
    if (this.writableEnded) guard(this)
    return super.write(chunk, encoding, callback)
  }

  override end (chunk?: any, encoding?: any, callback?: () => void): this {
    if (this.writableEnded) guard(this)
    return super.end(chunk, encoding, callback)
  }
}
markGuardsWriteAfterEnd(GuardedServerResponse.prototype)

/**
 * Makes sure an error emitted on `res` after its end is dropped, never thrown: a response of this
 * class does it itself; any other (inject, HTTP/2, a custom serverFactory) gets one shared listener.
 */
export function dropWriteAfterEndErrors (res: http.ServerResponse): void {
  if ((res as unknown as Record<symbol, unknown>)[kGuardsWriteAfterEnd] !== true) res.on('error', ignoreError)
}
