/**
 * `inject` through the light-my-request major each Fastify line ships: 5 on the Fastify 4 line (Fastify
 * 4.29's), 6 on the Fastify 5 line (Fastify 5's: `payloadAsStream` and `response.stream()`,
 * `Response.isLightMyRequest`, ...). Both are loaded on the first inject(): a server that only
 * listens never loads them.
 *
 * The 6.x installed is 6.6, the last whose dependencies are all CommonJS, so inject loads under jest's
 * module registry on every Node version (6.8 needs cookie 2, an ES module only). What 6.8 changed
 * that applications see is done here: a header given as an array reaches the application as Node's
 * server gives repeated header lines (docs: `message.headers`), one `rawHeaders` entry per value;
 * `cookies` may be a list of `{ name, value, path? }` (or an object whose values are such records),
 * and a cookie whose `path` does not path-match the request URL (RFC 6265 §5.1.4) is not sent; a
 * response to HEAD, or with status 204 or 304, has no body, as a real server sends none.
 */

import { ServerResponse as NodeServerResponse, type IncomingMessage, type ServerResponse } from 'node:http'
import type { FastifyLine } from '../base/version'
import { cookieHeaderFor, injectPath } from './inject-cookies'

type Dispatch = (req: IncomingMessage, res: ServerResponse) => void
type Inject = (dispatch: Dispatch, opts?: unknown, cb?: unknown) => any

/** Header fields whose repeated values Node's server drops after the first (`message.headers`). */
const FIRST_VALUE_ONLY = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host',
  'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards',
  'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent'
])

/** One header's array of values as Node's server puts repeated lines in `request.headers`. */
function joinValues (field: string, values: string[]): string | string[] {
  if (field === 'set-cookie') return values
  if (FIRST_VALUE_ONLY.has(field)) return values[0]
  return values.join(field === 'cookie' ? '; ' : ', ')
}

interface Headers { joined: Record<string, unknown>, repeated: Map<string, string[]> }

/** The headers with each array value joined, and the values of each (lower-cased) for `rawHeaders`; null when no value is an array. */
function joinRepeatedHeaders (headers: unknown): Headers | null {
  if (headers === null || typeof headers !== 'object') return null
  let result: Headers | null = null
  for (const [field, value] of Object.entries(headers)) {
    if (!Array.isArray(value)) continue
    result ??= { joined: { ...headers }, repeated: new Map() }
    const name = field.toLowerCase()
    const values = value.map((v) => {
      if (v === undefined) throw new TypeError(`invalid value "undefined" for header ${field}`)
      return String(v)
    })
    result.repeated.set(name, values)
    // light-my-request 6.6 writes a header's value as a string: a set-cookie array stays one
    result.joined[field] = joinValues(name, values)
  }
  return result
}

/**
 * A response to HEAD, or with status 204 or 304, keeps no body (light-my-request 6.8, as a real
 * server): node's ServerResponse knows it (`_hasBody`, false for HEAD from the start and for 204 and
 * 304 once the head is written) and ignores writes then; light-my-request 6.6 would still record them.
 */
type NodeResponseState = ServerResponse & { _hasBody: boolean, _implicitHeader: () => void }

function withoutBodyWhereNoneIsSent (res: ServerResponse): void {
  const record = res.write
  res.write = function (this: NodeResponseState, ...args: Parameters<ServerResponse['write']>) {
    if (!this.headersSent) this._implicitHeader()
    return (this._hasBody ? record : NodeServerResponse.prototype.write).apply(this, args)
  } as ServerResponse['write']
}

/**
 * The dispatch of a light-my-request 6.6 request as 6.8 makes it: request and response say
 * `isLightMyRequest`, and each header given as an array has one `rawHeaders` entry per value (and
 * `set-cookie` stays an array).
 */
function as68 (dispatch: Dispatch, repeated: Map<string, string[]> | undefined): Dispatch {
  return (req, res) => {
    (req as unknown as Record<string, unknown>).isLightMyRequest = true;
    (res as unknown as Record<string, unknown>).isLightMyRequest = true
    withoutBodyWhereNoneIsSent(res)
    if (repeated !== undefined) {
      const raw: string[] = []
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        const values = repeated.get(req.rawHeaders[i].toLowerCase())
        if (values === undefined) raw.push(req.rawHeaders[i], req.rawHeaders[i + 1])
        else for (const value of values) raw.push(req.rawHeaders[i], value)
      }
      req.rawHeaders = raw
      const setCookie = repeated.get('set-cookie')
      if (setCookie !== undefined) req.headers['set-cookie'] = setCookie
    }
    dispatch(req, res)
  }
}

/** `opts` with its `cookies` written into the cookie header as light-my-request 6.8 writes them. */
function withCookieHeader (opts: Record<string, unknown>): Record<string, unknown> {
  const headers: Record<string, unknown> = { ...(opts.headers as Record<string, unknown> | undefined) }
  const field = Object.keys(headers).find((name) => name.toLowerCase() === 'cookie')
  const value = cookieHeaderFor(opts.cookies, injectPath(opts), field === undefined ? undefined : headers[field])
  if (field !== undefined) delete headers[field]
  headers.cookie = value
  const { cookies, ...rest } = opts
  return { ...rest, headers }
}

/** The options and dispatch light-my-request 6.6 takes for what 6.8 is given. */
function asLightMyRequest6 (dispatch: Dispatch, opts: unknown): [Dispatch, unknown] {
  if (opts === null || typeof opts !== 'object') return [as68(dispatch, undefined), opts]
  const headers = joinRepeatedHeaders((opts as { headers?: unknown }).headers)
  const given = headers === null ? opts as Record<string, unknown> : { ...opts, headers: headers.joined }
  if ((opts as { cookies?: unknown }).cookies === undefined) return [as68(dispatch, headers?.repeated), given]
  // cookies given apart rebuild the cookie header (as 6.8 does): its given values are not raw lines
  headers?.repeated.delete('cookie')
  return [as68(dispatch, headers?.repeated), withCookieHeader(given)]
}

/** light-my-request 6's chain (`app.inject().get('/').headers({...})`), with array header values as above. */
function chainOf6 (chain: any, dispatch: Dispatch): any {
  const setHeaders = chain.headers as (value: unknown) => unknown
  chain.headers = function (this: any, value: unknown) {
    const headers = joinRepeatedHeaders(value)
    this.dispatch = as68(dispatch, headers?.repeated)
    return setHeaders.call(this, headers === null ? value : headers.joined)
  }
  return chain
}

/**
 * light-my-request 5 (Fastify 4.29's) checks the method against the list node had when it was built,
 * which lacks QUERY (RFC 10008, Fastify 5): such a request skips that check only.
 */
function withQueryMethod (opts: unknown): unknown {
  if (opts === null || typeof opts !== 'object') return opts
  const method = (opts as { method?: unknown }).method
  return typeof method === 'string' && method.toUpperCase() === 'QUERY' ? { ...opts, method: 'QUERY', validate: false } : opts
}

/** Injects a request into `dispatch` with the light-my-request of `line`: with `cb`, called back; else its chain (thenable). */
export function lightMyRequest (line: FastifyLine, dispatch: Dispatch, opts?: unknown, cb?: unknown): any {
  if (line === 4) {
    const inject = require('light-my-request') as Inject
    return cb === undefined ? inject(dispatch, withQueryMethod(opts)) : inject(dispatch, withQueryMethod(opts), cb)
  }
  const inject = require('light-my-request-6') as Inject
  let to: Dispatch
  let options: unknown
  try {
    [to, options] = asLightMyRequest6(dispatch, opts)
  } catch (err) {
    // an option light-my-request 6.8 refuses (a cookie name that is not a token): its error, given back as it gives it
    if (typeof cb === 'function') { process.nextTick(cb as (e: unknown) => void, err); return }
    return Promise.reject(err)
  }
  return cb !== undefined ? inject(to, options, cb) : chainOf6(inject(to, options), dispatch)
}
