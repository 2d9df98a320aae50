/**
 * ECOSYSTEM_TRANSPORT=fetch: the ecosystem tests' `app.inject(...)` calls go through `app.fetch`
 * instead (light-my-request's options made into a Request, the Response read back into
 * light-my-request's response shape), so each test that answers through inject checks the plugin
 * on the fetch path too. Tests over a real socket still use node:http. The chained form
 * (`app.inject().get(...)`) keeps light-my-request.
 */
import { Readable } from 'node:stream'

const setCookieParser = require('set-cookie-parser')

interface InjectOptions {
  method?: string
  url?: string | { pathname?: string, query?: Record<string, unknown> | string, protocol?: string, hostname?: string, port?: number }
  path?: InjectOptions['url']
  query?: Record<string, unknown> | string
  headers?: Record<string, unknown>
  payload?: unknown
  body?: unknown
  cookies?: Record<string, string>
  remoteAddress?: string
  authority?: string
}

function target (opts: InjectOptions): string {
  const url = opts.url ?? opts.path ?? '/'
  let base: string
  let query: InjectOptions['query']
  if (typeof url === 'string') {
    base = /^https?:\/\//.test(url) ? url : `http://${opts.authority ?? 'localhost:80'}${url.startsWith('/') ? '' : '/'}${url}`
  } else {
    base = `${url.protocol ?? 'http:'}//${url.hostname ?? 'localhost'}:${url.port ?? 80}${url.pathname ?? '/'}`
    query = url.query
  }
  const parsed = new URL(base)
  for (const q of [query, opts.query]) {
    if (q === undefined) continue
    if (typeof q === 'string') new URLSearchParams(q).forEach((v, k) => { parsed.searchParams.append(k, v) })
    else for (const [k, v] of Object.entries(q)) for (const one of Array.isArray(v) ? v : [v]) parsed.searchParams.append(k, String(one))
  }
  return parsed.href
}

async function viaFetch (app: any, opts: InjectOptions): Promise<any> {
  const headers = new Headers()
  for (const [name, value] of Object.entries(opts.headers ?? {})) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one))
  }
  if (opts.cookies !== undefined) {
    const pairs = Object.entries(opts.cookies).map(([k, v]) => `${k}=${v}`).join('; ')
    headers.set('cookie', headers.has('cookie') ? `${headers.get('cookie') as string}; ${pairs}` : pairs)
  }
  let payload = opts.payload ?? opts.body
  let body: RequestInit['body']
  let duplex = false
  if (payload !== undefined && payload !== null) {
    if (payload instanceof Readable || typeof (payload as Readable).pipe === 'function') {
      body = Readable.toWeb(payload as Readable) as unknown as ReadableStream
      duplex = true
    } else {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload) && !(payload instanceof Uint8Array)) {
        payload = JSON.stringify(payload)
        if (!headers.has('content-type')) headers.set('content-type', 'application/json')
      }
      const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload as Uint8Array
      // as light-my-request: a body given whole is announced with its length
      if (!headers.has('content-length') && !headers.has('transfer-encoding')) headers.set('content-length', String(bytes.length))
      body = bytes
    }
  }
  const method = (opts.method ?? 'GET').toUpperCase()
  const request = new Request(target(opts), { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body, ...(duplex ? { duplex: 'half' } : {}) } as RequestInit)
  const response: Response = await app.fetch(request, { remoteAddress: opts.remoteAddress ?? '127.0.0.1' })
  const rawPayload = Buffer.from(await response.arrayBuffer())
  const out: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => { if (name !== 'set-cookie') out[name] = value })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) out['set-cookie'] = cookies.length === 1 ? cookies[0] : cookies
  const res = {
    statusCode: response.status,
    statusMessage: response.statusText,
    headers: out,
    rawPayload,
    payload: rawPayload.toString(),
    body: rawPayload.toString(),
    trailers: {},
    json () { return JSON.parse(this.payload) },
    stream () { return Readable.from([rawPayload]) },
    get cookies () { return setCookieParser.parse(this) }
  }
  return res
}

/** Makes `app.inject(options[, callback])` answer through `app.fetch`. */
export function injectThroughFetch (app: any): any {
  const inject = app.inject
  app.inject = function (opts?: InjectOptions | string, callback?: (err: Error | null, res?: any) => void) {
    if (opts === undefined || (typeof opts === 'function')) return inject.call(this, opts, callback)
    const promise = viaFetch(this, typeof opts === 'string' ? { url: opts } : opts)
    if (typeof callback === 'function') { promise.then((res) => callback(null, res), (err) => callback(err)); return undefined }
    return promise
  }
  return app
}
