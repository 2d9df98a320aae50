/**
 * The last step: status line, headers and payload to the socket. Bodies are never written for
 * HEAD, 1xx, 204 and 304 (1xx and 204 also lose content-type and content-length); content-length is computed from the bytes written; streams are piped and
 * torn down cleanly when either side fails.
 *
 * A content-length set by the application goes out only as exactly a decimal integer (RFC 9110
 * 8.6: `1*DIGIT`), and never beside `transfer-encoding: chunked`: a body that is known is always
 * sent with its own length; where it is not (a stream, HEAD or 304 without a payload) a declared
 * length that is a decimal integer is kept and anything else (`20, 5`, `20abc`, ` 20`, `-1`, `1e3`)
 * is dropped, so no proxy or client ever reads the framing differently from Node.
 */
import { finished, Readable } from 'node:stream'
import { errorCodes } from '../base/errors'
import { errorCodesAddedInV5 } from '../base/errors-v5'
import type { ReplyBase } from './reply'
import { emitDeprecation } from '../base/warnings'

const noop = (): void => {}

/** What to do with an error met while writing (reply.ts passes its error path: onError hooks, then the error handlers). */
type WriteFailure = (reply: ReplyBase, error: unknown) => void

/** A fetch `Response` (undici's or the global one). */
export function isWebResponse (payload: unknown): payload is Response {
  return Object.prototype.toString.call(payload) === '[object Response]'
}

/**
 * Writes `payload` as the response. A payload that cannot be written throws (to the caller); a
 * stream that fails before the headers are out is handed to `fail`.
 */
export function writeResponse (reply: ReplyBase, payload: unknown, fail: WriteFailure): void {
  const res = reply.raw
  if (payload !== null && typeof payload === 'object' && !Buffer.isBuffer(payload)) payload = fromWeb(reply, payload)
  const statusCode = res.statusCode
  const method = reply.request.raw.method
  const headers = reply.headersStore
  if (reply.trailersStore !== null) {
    let names = ''
    for (const name of Object.keys(reply.trailersStore)) {
      if (typeof reply.trailersStore[name] === 'function') names += (names === '' ? '' : ' ') + name
    }
    if (reply.routeContext.env.line !== 5) {
      headers['transfer-encoding'] = 'chunked'
      headers.trailer = names
    } else if (names === '') {
      // Fastify 5: with every trailer removed the response is framed as if none had been set
      reply.trailersStore = null
    } else {
      // HTTP/2 forbids transfer-encoding and carries trailers itself
      if (reply.request.raw.httpVersionMajor !== 2) headers['transfer-encoding'] = 'chunked'
      headers.trailer = names
    }
  }

  if (payload === undefined || payload === null) {
    if (statusCode >= 200 && statusCode !== 204 && statusCode !== 304 && method !== 'HEAD' && reply.trailersStore === null) {
      headers['content-length'] = '0'
    } else if (headers['content-length'] !== undefined) {
      dropUnsafeLength(reply)
    }
    res.writeHead(statusCode, headers as Record<string, string>)
    if (reply.trailersStore === null) res.end()
    else sendTrailers(reply, payload, () => res.end())
    return
  }

  if ((statusCode >= 100 && statusCode < 200) || statusCode === 204) {
    // no body for 1xx and 204 (RFC 9110 8.6, 15.3.5): whatever the payload, it is dropped, with
    // its content-type and content-length (Fastify 4.29); a stream is drained so it can end
    delete headers['content-type']
    delete headers['content-length']
    res.removeHeader('content-type')
    res.removeHeader('content-length')
    res.writeHead(statusCode, headers as Record<string, string>)
    if (reply.trailersStore === null) res.end()
    else sendTrailers(reply, undefined, () => res.end())
    const stream = payload as Readable
    if (typeof stream.resume === 'function') { stream.on('error', noop); stream.resume() }
    return
  }

  if (typeof (payload as Readable).pipe === 'function') {
    if (headers['content-length'] !== undefined) dropUnsafeLength(reply)
    sendStream(reply, payload as Readable, fail)
    return
  }

  if (typeof payload !== 'string' && !Buffer.isBuffer(payload) && !(payload instanceof Uint8Array)) {
    throw new errorCodes.FST_ERR_REP_INVALID_PAYLOAD_TYPE(typeof payload)
  }

  if (reply.trailersStore === null) {
    // HEAD keeps a declared length (what GET would send) when it is a decimal integer
    if (method !== 'HEAD' || !isDecimalLength(headers['content-length'])) {
      headers['content-length'] = String(Buffer.byteLength(payload as string | Buffer))
    }
  } else if (headers['content-length'] !== undefined) {
    delete headers['content-length']
  }
  res.writeHead(statusCode, headers as Record<string, string>)
  const hasBody = method !== 'HEAD' && statusCode !== 204 && statusCode !== 304
  if (hasBody && writesInChunks(reply, payload as string | Buffer)) {
    writeHttp2Chunks(res, payload as string | Buffer, () => { sendTrailers(reply, payload, () => res.end()) })
    return
  }
  if (reply.trailersStore === null) {
    // one end() call: headers and body leave in a single write
    if (hasBody) res.end(payload)
    else res.end()
    return
  }
  if (hasBody) res.write(payload)
  sendTrailers(reply, payload, () => res.end())
}

const HTTP2_CHUNK = 64 * 1024

/**
 * Fastify 5: an HTTP/2 body over 64 KiB is written in 64 KiB chunks, each after the stream drained,
 * and the response ends after the last one: until then the reply is not sent, so a handler timeout
 * that fires while a client holds the flow-control window shut aborts the stream.
 */
function writesInChunks (reply: ReplyBase, payload: string | Buffer): boolean {
  return reply.request.raw.httpVersionMajor === 2 && reply.routeContext.env.line === 5 &&
    (typeof payload === 'string' ? payload.length * 3 : payload.length) > HTTP2_CHUNK && Buffer.byteLength(payload) > HTTP2_CHUNK
}

function writeHttp2Chunks (res: ReplyBase['raw'], payload: string | Buffer, done: () => void): void {
  const buffer = typeof payload === 'string' ? Buffer.from(payload) : payload
  let offset = 0
  const writeChunk = (): void => {
    while (offset < buffer.length) {
      if (res.destroyed || res.writableEnded) return
      const end = Math.min(offset + HTTP2_CHUNK, buffer.length)
      const more = res.write(buffer.subarray(offset, end))
      offset = end
      if (!more) { res.once('drain', writeChunk); return }
    }
    done()
  }
  writeChunk()
}

/** `1*DIGIT` without leading zeros (or a safe non-negative integer number): a length as Node will write it. */
function isDecimalLength (value: unknown): boolean {
  if (typeof value === 'string') return /^(?:0|[1-9][0-9]*)$/.test(value)
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
}

/** Where the body's length is not known here: a declared length goes out only when it is a decimal integer and the response is not chunked. */
function dropUnsafeLength (reply: ReplyBase): void {
  if (reply.trailersStore !== null || !isDecimalLength(reply.headersStore['content-length'])) delete reply.headersStore['content-length']
}

/**
 * Computes the trailers and adds them, then calls `end`. A trailer function answers with
 * `done(err, value)` or a promise (Fastify 4.29); a plain return value still works but is
 * deprecated (FSTDEP013). A failing trailer is left out (logged at debug: the status is sent).
 */
function sendTrailers (reply: ReplyBase, payload: unknown, end: () => void): void {
  const store = reply.trailersStore
  if (store === null) { end(); return }
  const trailers: Record<string, string> = {}
  let pending = 0
  let any = false
  let sent = false
  const send = (): void => {
    if (pending !== 0 || sent) return
    sent = true
    reply.raw.addTrailers(trailers)
    end()
  }
  for (const name of Object.keys(store)) {
    const fn = store[name]
    if (typeof fn !== 'function') continue
    any = true
    pending++
    let answered = false
    const done = (err?: unknown, value?: unknown): void => {
      if (answered) return
      answered = true
      pending--
      if (err !== undefined && err !== null) reply.log.debug(err)
      else trailers[name] = value as string
      process.nextTick(send)
    }
    let result: unknown
    try {
      result = fn(reply, payload, done)
    } catch (err) {
      done(err)
      continue
    }
    if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
      (result as PromiseLike<unknown>).then((v) => done(null, v), (err: unknown) => done(err ?? new Error('trailer rejected')))
    } else if (result !== null && result !== undefined) {
      // Fastify 4.29's deprecation ("will be removed in `fastify@5`"): Fastify 5 has no such text
      if (reply.routeContext.env.line === 4) emitDeprecation('FSTDEP013')
      done(null, result)
    }
  }
  if (!any) end()
}

/**
 * A fetch `Response` gives its status, headers and body; a web `ReadableStream` is sent as a node
 * stream (Fastify 4.29). A Response whose body was already read is FST_ERR_REP_RESPONSE_BODY_CONSUMED.
 */
function fromWeb (reply: ReplyBase, payload: unknown): unknown {
  if (isWebResponse(payload)) {
    reply.code(payload.status)
    payload.headers.forEach((value, name) => { reply.header(name, value) })
    if (payload.body !== null && payload.bodyUsed) throw new errorCodes.FST_ERR_REP_RESPONSE_BODY_CONSUMED()
    payload = payload.body
  }
  if (payload !== null && typeof (payload as { getReader?: unknown }).getReader === 'function' && typeof (payload as { pipe?: unknown }).pipe !== 'function') {
    const statusCode = reply.raw.statusCode
    if (statusCode === 204 || statusCode === 304 || reply.request.raw.method === 'HEAD') {
      (payload as ReadableStream).cancel().catch(noop)
      return null
    }
    if ((payload as ReadableStream).locked && reply.routeContext.env.line === 5) throw new errorCodesAddedInV5.FST_ERR_REP_READABLE_STREAM_LOCKED()
    return Readable.fromWeb(payload as import('node:stream/web').ReadableStream)
  }
  return payload
}

function sendStream (reply: ReplyBase, payload: Readable, fail: WriteFailure): void {
  const res = reply.raw
  let sourceOpen = true
  let errorLogged = false
  // Fastify 4: piping ends the response right after the source's end: only trailers that answer at
  // once make it. Fastify 5: the response ends after the trailers, once the source has ended.
  const trailersAfterEnd = reply.trailersStore !== null && reply.routeContext.env.line === 5
  if (reply.trailersStore !== null && !trailersAfterEnd) payload.on('end', () => sendTrailers(reply, null, noop))
  finished(payload, { readable: true, writable: false }, (err) => {
    sourceOpen = false
    if (err === undefined || err === null) {
      if (trailersAfterEnd) sendTrailers(reply, null, () => res.end())
      return
    }
    if (res.headersSent || reply.request.raw.aborted) {
      if (!errorLogged) { errorLogged = true; logStreamError(reply, err) }
      res.destroy()
    } else {
      fail(reply, err)
    }
  })
  finished(res, (err) => {
    if (!sourceOpen) return
    if (err !== undefined && err !== null && res.headersSent && !errorLogged) { errorLogged = true; logStreamError(reply, err) }
    const source = payload as Readable & { close?: (cb: () => void) => void; abort?: () => void }
    if (typeof source.destroy === 'function') source.destroy()
    else if (typeof source.close === 'function') source.close(() => {})
    else if (typeof source.abort === 'function') source.abort()
  })
  if (!res.headersSent) {
    for (const key of Object.keys(reply.headersStore)) {
      const value = reply.headersStore[key]
      if (value !== undefined) res.setHeader(key, value)
    }
  } else {
    reply.log.warn('response will send, but you shouldn\'t use res.writeHead in stream mode')
  }
  payload.pipe(res, { end: !trailersAfterEnd })
}

function logStreamError (reply: ReplyBase, err: Error & { code?: string }): void {
  reply.routeContext.env.logController.streamError(err, reply.request, reply)
}
