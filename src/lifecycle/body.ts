/**
 * Reading and parsing a request body: the step between `preParsing` and `preValidation`.
 *
 * The core decides *whether* a request has a body to parse — {@link shouldParseBody} encodes
 * Fastify 4.3's rule — and calls {@link parseBody} only then. parseBody picks the parser from the
 * context's {@link ContentTypeParsers}, enforces the body limit and Content-Length for parseAs
 * parsers, and reports through `done` exactly once.
 */
import { AsyncResource } from 'node:async_hooks'
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import { errorCodes } from '../base/errors'
import { errorCodesChangedInV5 } from '../base/errors-v5'
import { isPositiveLimit, type ContentTypeParsers, type ResolvedParser } from './content-type-parsers'

const {
  FST_ERR_CTP_BODY_TOO_LARGE,
  FST_ERR_CTP_INVALID_MEDIA_TYPE,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH
} = errorCodes

/**
 * What parseBody needs from a request: its headers (lowercased names, as node gives them).
 * The core's Request satisfies it structurally. The same object is passed to the parser function
 * as its first argument.
 */
export interface BodyRequest {
  headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>
  raw?: IncomingMessage
  log?: { warn?: (...args: any[]) => void }
}

/** Callback of {@link parseBody}: called once, with the error or the parsed body. */
type BodyDone = (err: Error | null, body?: unknown) => void

/**
 * A raw request that can hand its whole body at once has a method under this key (the fetch
 * transport's, transport/contract.ts: the same registered symbol, so the node:http path never
 * loads the transport to look for it).
 */
const kWholeBody: unique symbol = Symbol.for('trellis.wholeBody')

/** A payload stream as it may come out of a `preParsing` hook (e.g. a decompressor). */
type PayloadStream = Readable & { receivedEncodedLength?: number, [kWholeBody]?: () => Promise<Buffer> | null }

function headerValue (headers: BodyRequest['headers'], name: string): string | undefined {
  const v = headers[name]
  if (Array.isArray(v)) return v[0]
  return typeof v === 'string' ? v : undefined
}

/**
 * Fastify 4.29's rule for whether the body of a request is parsed at all (handleRequest):
 * - GET / HEAD: never.
 * - POST / PUT / PATCH, and (since 4.x) TRACE, SEARCH and the WebDAV methods PROPFIND, PROPPATCH,
 *   LOCK, COPY, MOVE, MKCOL, REPORT, MKCALENDAR: always when a Content-Type is present; without one, only when the request
 *   announces a body (`transfer-encoding` present, or `content-length` present and not `'0'`) —
 *   then parseBody answers 415 unless a `'*'` catch-all exists.
 * - OPTIONS / DELETE: only with a Content-Type *and* a `transfer-encoding` or `content-length`.
 * - any other method: never.
 */
/**
 * Fastify 5's rule, for the methods its application says have a body (HttpMethods.bodywith): the
 * body is parsed when a Content-Type is present or the request announces a body; `missing` says
 * what the request lacks that its method requires (QUERY needs a Content-Type, RFC 10008).
 */
export function bodyOfV5 (method: string, headers: BodyRequest['headers']): 'parse' | 'none' | 'missing-content-type' {
  const contentType = headerValue(headers, 'content-type')
  if (contentType !== undefined) return 'parse'
  if (method === 'QUERY') return 'missing-content-type'
  const cl = headers['content-length']
  return headers['transfer-encoding'] !== undefined || (cl !== undefined && cl !== '0') ? 'parse' : 'none'
}

export function shouldParseBody (method: string | undefined, headers: BodyRequest['headers']): boolean {
  const contentType = headerValue(headers, 'content-type')
  const te = headers['transfer-encoding']
  const cl = headers['content-length']
  switch (method) {
    case 'POST': case 'PUT': case 'PATCH': case 'TRACE': case 'SEARCH': case 'PROPFIND': case 'PROPPATCH':
    case 'LOCK': case 'COPY': case 'MOVE': case 'MKCOL': case 'REPORT': case 'MKCALENDAR':
      if (contentType !== undefined) return true
      return te !== undefined || (cl !== undefined && cl !== '0')
    case 'OPTIONS': case 'DELETE':
      return contentType !== undefined && (te !== undefined || cl !== undefined)
    default:
      return false
  }
}

/**
 * The Content-Length to check the body against: a non-negative integer, `undefined` when absent
 * or when `transfer-encoding` is present (RFC 9112 §6.3: Transfer-Encoding overrides it), or
 * `NaN` when present but not a number.
 */
function declaredLength (headers: BodyRequest['headers']): number | undefined {
  if (headers['transfer-encoding'] !== undefined) return undefined
  const raw = headerValue(headers, 'content-length')
  if (raw === undefined) return undefined
  return parseLength(raw)
}

/** A Content-Length value (surrounding whitespace allowed): 1 to 15 digits, else NaN. A loop, not a regular expression: it runs on every request with a body. */
function parseLength (raw: string): number {
  let start = 0
  let end = raw.length
  while (start < end && isSpace(raw.charCodeAt(start))) start++
  while (end > start && isSpace(raw.charCodeAt(end - 1))) end--
  if (end === start || end - start > 15) return NaN
  let n = 0
  for (let i = start; i < end; i++) {
    const c = raw.charCodeAt(i) - 48
    if (c < 0 || c > 9) return NaN
    n = n * 10 + c
  }
  return n
}

/** What String.prototype.trim removes, for the characters a header value can hold (tab, space; node refuses the others). */
function isSpace (c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff
}

/** Marks a body error whose response must close the connection (`Connection: close`). */
export const kCloseConnection = Symbol('trellis.closeConnection')

/**
 * Parses the body of `request` read from `payload` (the raw request, or what `preParsing`
 * returned) and calls `done(err)` or `done(null, body)` exactly once.
 *
 * - No parser for the Content-Type (absent, invalid, or unregistered, and no `'*'`):
 *   `FST_ERR_CTP_INVALID_MEDIA_TYPE` (415); the payload is left unread.
 * - Stream parsers (no `parseAs`) get `payload` as is and read it themselves; no limit is applied
 *   by parseBody (Fastify 4.3 behaviour).
 * - parseAs parsers: the body is read as Buffers. The limit is the route's `bodyLimit` if given,
 *   else the parser's, else the registry's. A Content-Length above the limit fails at once with
 *   `FST_ERR_CTP_BODY_TOO_LARGE` (413) without reading; otherwise received bytes are counted
 *   (chunked bodies included; a `payload.receivedEncodedLength` set by a decoding preParsing
 *   stream is used instead when present) and as soon as they exceed the limit reading stops with
 *   413 — nothing beyond the limit is kept. At the end, a byte count different from a declared
 *   Content-Length (or an unparseable Content-Length) gives `FST_ERR_CTP_INVALID_CONTENT_LENGTH`
 *   (400). `'string'` bodies are decoded as utf-8 whatever the charset parameter says (4.3).
 * - A payload `error`, or a payload closed before its end (client abort), gives that error with
 *   `statusCode = 400` when it has none or one below 400 (Fastify 4.29); `done` is still called once and nothing hangs.
 * - The parser may call `done`, return a promise, or throw: a throw or rejection becomes the
 *   error (passed on unchanged, so its own `statusCode` — or none, which the reply turns into
 *   500 — is kept, as in 4.3; a rejection without a reason becomes an Error). Second calls of
 *   `done` are ignored.
 *
 * `done` runs in the async context of the call to parseBody (AsyncResource), like 4.3.
 */
export function parseBody (
  request: BodyRequest,
  payload: Readable,
  parsers: ContentTypeParsers,
  routeBodyLimit: number | undefined,
  done: BodyDone
): void {
  const resource = new AsyncResource('content-type-parser:run')
  let finished = false
  const finish: BodyDone = (err, body) => {
    if (finished) {
      request.log?.warn?.('content-type parser reported more than once; ignored')
      return
    }
    finished = true
    try {
      if (err != null) resource.runInAsyncScope(done, null, err)
      else resource.runInAsyncScope(done, null, null, body)
    } finally {
      // the parser's resource ends with its callback (async_hooks' destroy), as in Fastify
      resource.emitDestroy()
    }
  }

  const contentType = headerValue(request.headers, 'content-type')
  let parser: ResolvedParser | undefined
  try {
    parser = parsers.lookup(contentType)
  } catch (err) {
    finish(err as Error)
    return
  }
  if (parser === undefined) {
    finish(parsers.line === 5 ? new errorCodesChangedInV5.FST_ERR_CTP_INVALID_MEDIA_TYPE() : new FST_ERR_CTP_INVALID_MEDIA_TYPE(contentType === '' ? undefined : contentType))
    return
  }

  if (parser.parseAs === undefined) {
    runParser(parser, request, payload, finish)
    return
  }

  const limit = isPositiveLimit(routeBodyLimit)
    ? routeBodyLimit
    : isPositiveLimit(parser.bodyLimit) ? parser.bodyLimit : parsers.bodyLimit
  readRawBody(request, payload as PayloadStream, parser, limit, finish)
}

function runParser (parser: ResolvedParser, request: BodyRequest, input: unknown, finish: BodyDone): void {
  let result: unknown
  try {
    result = parser.fn(request, input, finish)
  } catch (err) {
    finish(err as Error)
    return
  }
  if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
    (result as PromiseLike<unknown>).then(
      body => finish(null, body),
      (err: unknown) => finish(err == null ? new Error('Content type parser rejected without a reason') : err as Error)
    )
  }
}

/** The state of one body read, on the payload stream: the listeners are shared functions (no closures per request). */
const kReader = Symbol('trellis.bodyReader')

class RawBodyReader {
  // `declare`: fields set by the constructor only (see RequestBase)
  declare readonly request: BodyRequest
  declare readonly payload: PayloadStream
  declare readonly parser: ResolvedParser
  declare readonly limit: number
  declare readonly expected: number | undefined
  declare readonly finish: BodyDone
  declare chunks: Buffer[]
  declare received: number
  /**
   * True once the body is complete or reading gave up. After a complete body the listeners stay on
   * the stream (removing four listeners cost more than reading a small body) and do nothing.
   */
  declare ended: boolean

  constructor (request: BodyRequest, payload: PayloadStream, parser: ResolvedParser, limit: number, expected: number | undefined, finish: BodyDone) {
    this.request = request
    this.payload = payload
    this.parser = parser
    this.limit = limit
    this.expected = expected
    this.finish = finish
    this.chunks = []
    this.received = 0
    this.ended = false
  }

  counted (): number {
    const encoded = this.payload.receivedEncodedLength
    return typeof encoded === 'number' ? encoded : this.received
  }

  /** Stops listening (limit, error, abort); the listeners of a complete body stay (see `ended`). */
  giveUp (err: Error): void {
    this.ended = true
    const payload = this.payload
    payload.removeListener('data', onBodyData)
    payload.removeListener('end', onBodyEnd)
    payload.removeListener('error', onBodyError)
    payload.removeListener('close', onBodyClose)
    payload.on('error', noop)
    this.chunks.length = 0
    this.finish(err)
  }

  complete (): void {
    this.ended = true
    if (this.expected !== undefined && this.counted() !== this.expected) {
      this.finish(new FST_ERR_CTP_INVALID_CONTENT_LENGTH())
      return
    }
    const chunks = this.chunks
    const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
    chunks.length = 0
    const parser = this.parser
    runParser(parser, this.request, parser.asString ? buffer.toString('utf8') : buffer, this.finish)
  }
}

type ReadingStream = PayloadStream & { [kReader]?: RawBodyReader }

function onBodyData (this: ReadingStream, chunk: Buffer | string): void {
  const reader = this[kReader]
  if (reader === undefined || reader.ended) return
  const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
  reader.received += buf.length
  // the limit applies to the decoded bytes too (Fastify 4.29), not only the encoded ones
  if (reader.received > reader.limit || reader.counted() > reader.limit) {
    reader.giveUp(new FST_ERR_CTP_BODY_TOO_LARGE())
    return
  }
  reader.chunks.push(buf)
}

function onBodyEnd (this: ReadingStream): void {
  const reader = this[kReader]
  if (reader === undefined || reader.ended) return
  reader.complete()
}

function onBodyError (this: ReadingStream, err: unknown): void {
  const reader = this[kReader]
  if (reader === undefined || reader.ended) return
  reader.giveUp(withStatus(err))
}

function onBodyClose (this: ReadingStream): void {
  const reader = this[kReader]
  if (reader === undefined || reader.ended) return
  reader.giveUp(abortError())
}

function readRawBody (request: BodyRequest, payload: ReadingStream, parser: ResolvedParser, limit: number, finish: BodyDone): void {
  const expected = declaredLength(request.headers)
  if (expected !== undefined && expected > limit) {
    // the client sends the announced body anyway: answer and close the connection (Fastify 4.29)
    const err = new FST_ERR_CTP_BODY_TOO_LARGE()
    Object.defineProperty(err, kCloseConnection, { value: true })
    finish(err)
    return
  }
  if (payload.destroyed && !payload.readableEnded) {
    finish(abortError())
    return
  }
  // a transport that has the body whole (fetch: request.arrayBuffer()) with a declared length: no stream read
  if (expected !== undefined && typeof payload[kWholeBody] === 'function') {
    const whole = payload[kWholeBody]()
    if (whole !== null) { readWholeBody(request, whole, parser, limit, expected, finish); return }
  }
  const reader = new RawBodyReader(request, payload, parser, limit, expected, finish)
  if (payload.readableEnded) {
    // already consumed by someone else: nothing more will arrive
    reader.complete()
    return
  }
  payload[kReader] = reader
  payload.on('data', onBodyData)
  payload.on('end', onBodyEnd)
  payload.on('error', onBodyError)
  payload.on('close', onBodyClose)
  payload.resume()
}

/** The body handed whole by the transport: the same limit and Content-Length checks as a streamed read. */
function readWholeBody (request: BodyRequest, whole: Promise<Buffer>, parser: ResolvedParser, limit: number, expected: number, finish: BodyDone): void {
  whole.then((buffer) => {
    if (buffer.length > limit) { finish(new FST_ERR_CTP_BODY_TOO_LARGE()); return }
    if (buffer.length !== expected) { finish(new FST_ERR_CTP_INVALID_CONTENT_LENGTH()); return }
    runParser(parser, request, parser.asString ? buffer.toString('utf8') : buffer, finish)
  }, (err: unknown) => { finish(withStatus(err)) })
}

function noop (): void {}

function withStatus (err: unknown): Error {
  const e = (err instanceof Error ? err : new Error(String(err))) as Error & { statusCode?: number }
  // Fastify 4.29: a status below 400 (or not a number) cannot describe a failed body read
  if (typeof e.statusCode !== 'number' || e.statusCode < 400) e.statusCode = 400
  return e
}

function abortError (): Error {
  const e = new Error('Request aborted before the body was received') as Error & { code: string, statusCode: number }
  e.code = 'ECONNRESET'
  e.statusCode = 400
  return e
}
