import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { ContentTypeParsers } from '../../src/lifecycle/content-type-parsers'
import { parseBody, shouldParseBody } from '../../src/lifecycle/body'

/**
 * A plain node:http server that runs parseBody the way the core will and answers
 * `{ body }` with 200, or `{ code }` with the error's statusCode. Every parseBody outcome is also
 * recorded server-side (by the x-id request header), because for aborted requests no response
 * can reach the client.
 */
const LIMIT = 1000
const parsers = new ContentTypeParsers({ bodyLimit: LIMIT, onProtoPoisoning: 'error', onConstructorPoisoning: 'error' })
parsers.add('application/octet-stream', { parseAs: 'buffer' }, (_req: unknown, body: Buffer, done: (e: null, b: unknown) => void) => done(null, { bytes: body.length }))

interface Outcome { err: any, body: unknown, calls: number }
const outcomes = new Map<string, Outcome>()
const waiters = new Map<string, (o: Outcome) => void>()
function outcomeOf (id: string): Promise<Outcome> {
  const o = outcomes.get(id)
  if (o !== undefined) return Promise.resolve(o)
  return new Promise(resolve => waiters.set(id, resolve))
}

let server: http.Server
let port = 0

before(async () => {
  server = http.createServer((req, res) => {
    const id = String(req.headers['x-id'] ?? '')
    if (!shouldParseBody(req.method, req.headers)) {
      res.end(JSON.stringify({ body: null }))
      return
    }
    const routeLimit = req.headers['x-route-limit'] !== undefined ? Number(req.headers['x-route-limit']) : undefined
    parseBody({ headers: req.headers, raw: req }, req, parsers, routeLimit, (err, body) => {
      if (id !== '') {
        const prev = outcomes.get(id)
        if (prev !== undefined) { prev.calls++; return }
        const outcome: Outcome = { err, body, calls: 1 }
        outcomes.set(id, outcome)
        waiters.get(id)?.(outcome)
      }
      if (res.destroyed) return
      if (err != null) {
        res.statusCode = typeof (err as any).statusCode === 'number' ? (err as any).statusCode : 500
        res.end(JSON.stringify({ code: (err as any).code ?? err.name }))
      } else {
        res.end(JSON.stringify({ body }))
      }
    })
  })
  server.on('clientError', (_err, socket) => { socket.destroy() })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})

after(async () => {
  server.closeAllConnections()
  await new Promise(resolve => server.close(resolve))
})

/** sends raw bytes, resolves with everything the server wrote before closing (or after `ms`) */
function raw (parts: Array<string | Buffer>, opts: { end?: boolean, destroyAfter?: number, ms?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const received: Buffer[] = []
    const text = (): string => Buffer.concat(received).toString('utf8')
    const timer = setTimeout(() => { socket.destroy(); resolve(text()) }, opts.ms ?? 2000)
    socket.on('data', d => { received.push(d) })
    socket.on('close', () => { clearTimeout(timer); resolve(text()) })
    socket.on('error', err => {
      clearTimeout(timer)
      const code = (err as NodeJS.ErrnoException).code
      if (received.length > 0 || code === 'ECONNRESET' || code === 'EPIPE') resolve(text())
      else reject(err)
    })
    socket.on('connect', () => {
      for (const p of parts) socket.write(p)
      if (opts.destroyAfter !== undefined) setTimeout(() => socket.destroy(), opts.destroyAfter)
      else if (opts.end === true) socket.end()
    })
  })
}

function statusOf (response: string): number {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(response)
  return m === null ? 0 : Number(m[1])
}

function jsonOf (response: string): any {
  const idx = response.indexOf('\r\n\r\n')
  const body = response.slice(idx + 4)
  // responses here are Content-Length framed (res.end with a string)
  return JSON.parse(body.split('HTTP/1.1')[0])
}

let seq = 0
const nextId = (): string => `req-${++seq}`

function chunk (s: string | Buffer): Buffer {
  const b = typeof s === 'string' ? Buffer.from(s) : s
  return Buffer.concat([Buffer.from(b.length.toString(16) + '\r\n'), b, Buffer.from('\r\n')])
}

test('fetch: JSON with charset is parsed', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"hello":"world"}' })
  assert.equal(res.status, 200)
  assert.deepEqual(await res.json(), { body: { hello: 'world' } })
})

test('fetch: lookalike and smuggled content types never reach the JSON parser', async () => {
  for (const ct of ['application/jsonx', 'application/json garbage', 'constructor']) {
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': ct }, body: '{"a":1}' })
    assert.equal(res.status, 415, ct)
    assert.deepEqual(await res.json(), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' })
  }
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'text/plain; x="application/json"' }, body: '{"a":1}' })
  assert.deepEqual(await res.json(), { body: '{"a":1}' })
})

test('fetch: JSON prototype poisoning -> 400', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"__proto__":{"x":1}}' })
  assert.equal(res.status, 400)
})

test('raw: chunked JSON body with a multi-byte character split across chunks', async () => {
  const bytes = Buffer.from('{"s":"h€llo"}')
  const res = await raw([
    'POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    chunk(bytes.subarray(0, 8)), chunk(bytes.subarray(8)), '0\r\n\r\n'
  ])
  assert.equal(statusOf(res), 200)
  assert.deepEqual(jsonOf(res), { body: { s: 'h€llo' } })
})

test('raw: chunked body over the limit -> 413 without waiting for the end of the body', async () => {
  const id = nextId()
  const parts: Array<string | Buffer> = [`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-id: ${id}\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n`]
  for (let i = 0; i < 6; i++) parts.push(chunk(Buffer.alloc(300, 1)))
  // no terminating 0-chunk: the body never ends, so only the limit can answer
  const res = await raw(parts, { ms: 1500 })
  assert.equal(statusOf(res), 413)
  assert.deepEqual(jsonOf(res), { code: 'FST_ERR_CTP_BODY_TOO_LARGE' })
  assert.equal((await outcomeOf(id)).calls, 1)
})

test('raw: chunked body under the limit is accepted, by bytes received', async () => {
  const res = await raw([
    'POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n',
    chunk(Buffer.alloc(500)), chunk(Buffer.alloc(500)), '0\r\n\r\n'
  ])
  assert.equal(statusOf(res), 200)
  assert.deepEqual(jsonOf(res), { body: { bytes: 1000 } })
})

test('raw: route bodyLimit overrides the parser limit', async () => {
  const res = await raw([
    'POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-route-limit: 10\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n',
    chunk('12345'), chunk('678901'), '0\r\n\r\n'
  ])
  assert.equal(statusOf(res), 413)
})

test('raw: content-length above the limit -> 413 before any body byte is sent', async () => {
  const res = await raw([`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${LIMIT + 1}\r\n\r\n`], { ms: 1500 })
  assert.equal(statusOf(res), 413)
  assert.deepEqual(jsonOf(res), { code: 'FST_ERR_CTP_BODY_TOO_LARGE' })
})

test('raw: content-length larger than what is sent, then the client ends -> error 400, done once, no hang', async () => {
  const id = nextId()
  await raw([`POST / HTTP/1.1\r\nHost: x\r\nx-id: ${id}\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\n12345`], { end: true, ms: 1500 })
  const o = await outcomeOf(id)
  assert.equal(o.err?.statusCode, 400)
  await new Promise(resolve => setTimeout(resolve, 20))
  assert.equal(o.calls, 1)
})

test('raw: content-length smaller than what is sent -> body is the declared bytes; the rest is the next request', async () => {
  const id = nextId()
  const res = await raw([`POST / HTTP/1.1\r\nHost: x\r\nx-id: ${id}\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`], { ms: 1000 })
  assert.equal(statusOf(res), 200)
  assert.deepEqual(jsonOf(res), { body: 'abc' })
  assert.equal((await outcomeOf(id)).body, 'abc')
  assert.equal(res.split('HTTP/1.1 200').length, 3, 'two responses: the extra bytes were a request of their own')
})

test('raw: client aborts mid-body -> parseBody reports 400 once, server keeps serving', async () => {
  const id = nextId()
  await raw([`POST / HTTP/1.1\r\nHost: x\r\nx-id: ${id}\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n`, chunk('abc')], { destroyAfter: 50 })
  const o = await outcomeOf(id)
  assert.equal(o.err?.statusCode, 400)
  const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'still alive' })
  assert.deepEqual(await res.json(), { body: 'still alive' })
  assert.equal(o.calls, 1)
})

test('raw: body without content-type -> 415', async () => {
  const res = await raw(['POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello'])
  assert.equal(statusOf(res), 415)
})

test('raw: empty JSON body with content-length 0 -> 400 FST_ERR_CTP_EMPTY_JSON_BODY', async () => {
  const res = await raw(['POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n'])
  assert.equal(statusOf(res), 400)
  assert.deepEqual(jsonOf(res), { code: 'FST_ERR_CTP_EMPTY_JSON_BODY' })
})
