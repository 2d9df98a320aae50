import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable, PassThrough } from 'node:stream'
import { AsyncLocalStorage } from 'node:async_hooks'
import { ContentTypeParsers } from '../../src/lifecycle/content-type-parsers'
import { parseBody, shouldParseBody, type BodyRequest } from '../../src/lifecycle/body'

const make = (bodyLimit = 1024): ContentTypeParsers =>
  new ContentTypeParsers({ bodyLimit, onProtoPoisoning: 'error', onConstructorPoisoning: 'error' })

interface Outcome { err: any, body: unknown, calls: number }

/** runs parseBody and resolves on the first done call; counts later calls too */
function run (headers: Record<string, string>, payload: Readable, parsers: ContentTypeParsers, routeLimit?: number): Promise<Outcome> & { outcome: Outcome } {
  const outcome: Outcome = { err: undefined, body: undefined, calls: 0 }
  const p = new Promise<Outcome>(resolve => {
    parseBody({ headers }, payload, parsers, routeLimit, (err, body) => {
      outcome.calls++
      if (outcome.calls === 1) {
        outcome.err = err
        outcome.body = body
        resolve(outcome)
      }
    })
  }) as Promise<Outcome> & { outcome: Outcome }
  p.outcome = outcome
  return p
}

function chunks (...parts: Array<string | Buffer>): Readable {
  return Readable.from(parts.map(p => typeof p === 'string' ? Buffer.from(p) : p), { objectMode: false })
}

const tick = (): Promise<void> => new Promise(resolve => setTimeout(resolve, 5))

test('default JSON parser parses a body split over chunks', async () => {
  const r = await run({ 'content-type': 'application/json; charset=utf-8' }, chunks('{"hel', 'lo":"wo', 'rld"}'), make())
  assert.equal(r.err, null)
  assert.deepEqual(r.body, { hello: 'world' })
})

test('utf-8 characters split across chunks decode correctly and count as bytes', async () => {
  const bytes = Buffer.from('"héllo €"')
  const r = await run({ 'content-type': 'application/json', 'content-length': String(bytes.length) },
    chunks(bytes.subarray(0, 3), bytes.subarray(3, 9), bytes.subarray(9)), make())
  assert.equal(r.err, null)
  assert.equal(r.body, 'héllo €')
})

test('text/plain gives the string; empty text body is the empty string', async () => {
  let r = await run({ 'content-type': 'text/plain' }, chunks('hello ', 'world'), make())
  assert.equal(r.body, 'hello world')
  r = await run({ 'content-type': 'text/plain', 'content-length': '0' }, chunks(), make())
  assert.equal(r.err, null)
  assert.equal(r.body, '')
})

test('empty JSON body -> FST_ERR_CTP_EMPTY_JSON_BODY 400', async () => {
  const r = await run({ 'content-type': 'application/json', 'content-length': '0' }, chunks(), make())
  assert.equal(r.err.code, 'FST_ERR_CTP_EMPTY_JSON_BODY')
  assert.equal(r.err.statusCode, 400)
})

test('invalid JSON -> SyntaxError with statusCode 400', async () => {
  const r = await run({ 'content-type': 'application/json' }, chunks('hello world'), make())
  assert.equal(r.err instanceof SyntaxError, true)
  assert.equal(r.err.statusCode, 400)
})

test('__proto__ in JSON is rejected with 400 by default', async () => {
  const r = await run({ 'content-type': 'application/json' }, chunks('{"__proto__":{"admin":true}}'), make())
  assert.equal(r.err.statusCode, 400)
  assert.equal(({} as any).admin, undefined)
})

test('unknown, invalid or missing content type -> 415 FST_ERR_CTP_INVALID_MEDIA_TYPE', async () => {
  for (const ct of ['application/jsonx', 'application/json garbage', 'text/plain; x="application/json"x', 'constructor', undefined]) {
    const headers: Record<string, string> = ct === undefined ? { 'content-length': '2' } : { 'content-type': ct }
    const r = await run(headers, chunks('{}'), make())
    assert.equal(r.err?.code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE', String(ct))
    assert.equal(r.err.statusCode, 415)
  }
  const r = await run({ 'content-length': '2' }, chunks('{}'), make())
  assert.equal(r.err.message, 'Unsupported Media Type: undefined')
})

test('missing content type goes to the catch-all parser when one exists', async () => {
  const parsers = make()
  parsers.add('*', { parseAs: 'string' }, (_req: unknown, body: string, done: (e: null, b: string) => void) => done(null, 'all:' + body))
  const r = await run({ 'transfer-encoding': 'chunked' }, chunks('abc'), parsers)
  assert.equal(r.body, 'all:abc')
})

test('content-length above the limit fails with 413 before reading anything', async () => {
  let read = false
  const payload = new Readable({ read () { read = true; this.push(null) } })
  const r = await run({ 'content-type': 'application/json', 'content-length': '2000' }, payload, make())
  assert.equal(r.err.code, 'FST_ERR_CTP_BODY_TOO_LARGE')
  assert.equal(r.err.statusCode, 413)
  assert.equal(read, false)
})

test('bytes beyond the limit without a content-length stop reading with 413, buffering at most the limit', async () => {
  let pushed = 0
  const payload = new Readable({
    read () {
      if (pushed > 100_000) { this.push(null); return }
      pushed += 100
      this.push(Buffer.alloc(100, 0x61))
    }
  })
  const parsers = make(1000)
  let parserCalled = false
  parsers.add('x/y', { parseAs: 'buffer' }, () => { parserCalled = true })
  const r = await run({ 'content-type': 'x/y', 'transfer-encoding': 'chunked' }, payload, parsers)
  assert.equal(r.err.code, 'FST_ERR_CTP_BODY_TOO_LARGE')
  assert.equal(parserCalled, false)
  await tick()
  assert.equal(r.calls, 1)
})

test('limit counts bytes, not characters', async () => {
  const parsers = make(5)
  const r = await run({ 'content-type': 'text/plain' }, chunks('€€'), parsers) // 6 bytes, 2 chars
  assert.equal(r.err?.code, 'FST_ERR_CTP_BODY_TOO_LARGE')
  const ok = await run({ 'content-type': 'text/plain' }, chunks('€a'), parsers) // 4 bytes
  assert.equal(ok.body, '€a')
})

test('a body exactly at the limit is accepted', async () => {
  const r = await run({ 'content-type': 'text/plain', 'content-length': '10' }, chunks('12345', '67890'), make(10))
  assert.equal(r.err, null)
  assert.equal(r.body, '1234567890')
})

test('limit precedence: route over parser over server', async () => {
  const parsers = make(8)
  parsers.add('x/small', { parseAs: 'string', bodyLimit: 3 }, (_r: unknown, b: string, d: (e: null, v: string) => void) => d(null, b))
  parsers.add('x/big', { parseAs: 'string', bodyLimit: 100 }, (_r: unknown, b: string, d: (e: null, v: string) => void) => d(null, b))
  parsers.add('x/default', { parseAs: 'string' }, (_r: unknown, b: string, d: (e: null, v: string) => void) => d(null, b))

  assert.equal((await run({ 'content-type': 'x/small' }, chunks('1234'), parsers)).err?.statusCode, 413, 'parser limit')
  assert.equal((await run({ 'content-type': 'x/small' }, chunks('1234'), parsers, 10)).body, '1234', 'route limit raises it')
  assert.equal((await run({ 'content-type': 'x/big' }, chunks('1234567890'), parsers, 5)).err?.statusCode, 413, 'route limit lowers it')
  assert.equal((await run({ 'content-type': 'x/default' }, chunks('123456789'), parsers)).err?.statusCode, 413, 'server limit')
  assert.equal((await run({ 'content-type': 'x/default' }, chunks('12345678'), parsers)).body, '12345678')
})

test('received bytes different from content-length -> 400 FST_ERR_CTP_INVALID_CONTENT_LENGTH', async () => {
  let r = await run({ 'content-type': 'text/plain', 'content-length': '10' }, chunks('12345'), make())
  assert.equal(r.err.code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH')
  assert.equal(r.err.statusCode, 400)
  r = await run({ 'content-type': 'text/plain', 'content-length': '3' }, chunks('12345'), make())
  assert.equal(r.err.code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH')
  r = await run({ 'content-type': 'text/plain', 'content-length': 'abc' }, chunks('12345'), make())
  assert.equal(r.err.code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH')
})

test('transfer-encoding makes content-length irrelevant (RFC 9112)', async () => {
  const r = await run({ 'content-type': 'text/plain', 'content-length': '3', 'transfer-encoding': 'chunked' }, chunks('12345'), make())
  assert.equal(r.body, '12345')
})

test('receivedEncodedLength of a decoding payload is what content-length checks; the limit applies to both counts (4.29)', async () => {
  const payload = new PassThrough() as PassThrough & { receivedEncodedLength?: number }
  payload.receivedEncodedLength = 0
  const p = run({ 'content-type': 'text/plain', 'content-length': '4' }, payload, make(100))
  payload.receivedEncodedLength = 4
  payload.end('decoded: much longer than four')
  const r = await p
  assert.equal(r.err, null)
  assert.equal(r.body, 'decoded: much longer than four')

  const bomb = new PassThrough() as PassThrough & { receivedEncodedLength?: number }
  bomb.receivedEncodedLength = 4
  const q = run({ 'content-type': 'text/plain', 'content-length': '4' }, bomb, make(10))
  bomb.end('decoded: much longer than the limit')
  assert.equal(((await q).err as { code?: string } | null)?.code, 'FST_ERR_CTP_BODY_TOO_LARGE', 'a small encoded body that decodes past the limit is refused')
})

test('parseAs buffer gives a Buffer; empty buffer body allowed', async () => {
  const parsers = make()
  parsers.add('application/octet-stream', { parseAs: 'buffer' }, (_r: unknown, b: Buffer, d: (e: null, v: unknown) => void) => d(null, b))
  let r = await run({ 'content-type': 'application/octet-stream' }, chunks(Buffer.from([1, 2]), Buffer.from([3])), parsers)
  assert.ok(Buffer.isBuffer(r.body))
  assert.deepEqual([...(r.body as Buffer)], [1, 2, 3])
  r = await run({ 'content-type': 'application/octet-stream', 'content-length': '0' }, chunks(), parsers)
  assert.equal((r.body as Buffer).length, 0)
})

test('stream parsers get the payload itself (callback and async forms)', async () => {
  const parsers = make()
  parsers.add('x/cb', {}, (_req: unknown, payload: Readable, done: (e: null, b: string) => void) => {
    let data = ''
    payload.on('data', c => { data += c })
    payload.on('end', () => done(null, data + '!'))
  })
  parsers.add('x/async', {}, async (_req: unknown, payload: Readable) => {
    let data = ''
    for await (const c of payload) data += c
    return data + '?'
  })
  assert.equal((await run({ 'content-type': 'x/cb' }, chunks('a', 'b'), parsers)).body, 'ab!')
  assert.equal((await run({ 'content-type': 'x/async' }, chunks('a', 'b'), parsers)).body, 'ab?')
})

test('parser errors: callback error, throw, rejection and non-Error values are passed through', async () => {
  const parsers = make()
  const boom = Object.assign(new Error('boom'), { statusCode: 422 })
  parsers.add('x/cb', { parseAs: 'string' }, (_r: unknown, _b: string, d: (e: Error) => void) => d(boom))
  parsers.add('x/throw', { parseAs: 'string' }, () => { throw new Error('thrown') })
  parsers.add('x/stream-throw', {}, () => { throw new Error('stream thrown') })
  parsers.add('x/reject', {}, async () => { throw new Error('rejected') })
  parsers.add('x/reject-nothing', {}, () => Promise.reject(undefined)) // eslint-disable-line prefer-promise-reject-errors -- a parser rejecting with nothing is the case under test
  parsers.add('x/string', {}, (_r: unknown, _p: unknown, d: (e: unknown) => void) => d('test'))

  let r = await run({ 'content-type': 'x/cb' }, chunks('x'), parsers)
  assert.equal(r.err, boom)
  assert.equal(r.err.statusCode, 422)
  r = await run({ 'content-type': 'x/throw' }, chunks('x'), parsers)
  assert.equal(r.err.message, 'thrown')
  assert.equal(r.err.statusCode, undefined, 'status left to the reply (500)')
  r = await run({ 'content-type': 'x/stream-throw' }, chunks('x'), parsers)
  assert.equal(r.err.message, 'stream thrown')
  r = await run({ 'content-type': 'x/reject' }, chunks('x'), parsers)
  assert.equal(r.err.message, 'rejected')
  r = await run({ 'content-type': 'x/reject-nothing' }, chunks('x'), parsers)
  assert.ok(r.err instanceof Error)
  r = await run({ 'content-type': 'x/string' }, chunks('x'), parsers)
  assert.equal(r.err, 'test')
})

test('done is called exactly once even when a parser reports twice', async () => {
  const parsers = make()
  parsers.add('x/twice', {}, async (_r: unknown, _p: unknown, done: (e: null, b: string) => void) => {
    done(null, 'first')
    done(null, 'second')
    return 'third'
  })
  const warnings: unknown[] = []
  let calls = 0
  const body = await new Promise(resolve => {
    const req: BodyRequest = { headers: { 'content-type': 'x/twice' }, log: { warn: (m: unknown) => warnings.push(m) } }
    parseBody(req, chunks('x'), parsers, undefined, (_e, b) => { calls++; resolve(b) })
  })
  await tick()
  assert.equal(body, 'first')
  assert.equal(calls, 1)
  assert.equal(warnings.length, 2)
})

test('payload error -> that error with statusCode 400, done once', async () => {
  const payload = new PassThrough()
  const p = run({ 'content-type': 'text/plain' }, payload, make())
  payload.write('abc')
  payload.destroy(new Error('socket hang up'))
  const r = await p
  assert.equal(r.err.message, 'socket hang up')
  assert.equal(r.err.statusCode, 400)
  await tick()
  assert.equal(r.calls, 1)
})

test('payload destroyed without error (abort) -> 400, no hang', async () => {
  const payload = new PassThrough()
  const p = run({ 'content-type': 'text/plain' }, payload, make())
  payload.write('abc')
  payload.destroy()
  const r = await p
  assert.equal(r.err.statusCode, 400)
  assert.equal(r.err.code, 'ECONNRESET')
})

test('payload already destroyed or already consumed does not hang', async () => {
  const destroyed = new PassThrough()
  destroyed.destroy()
  const r1 = await run({ 'content-type': 'text/plain' }, destroyed, make())
  assert.equal(r1.err.statusCode, 400)

  const consumed = chunks('abc')
  consumed.resume()
  await new Promise(resolve => consumed.on('end', resolve))
  const r2 = await run({ 'content-type': 'text/plain' }, consumed, make())
  assert.equal(r2.err, null)
  assert.equal(r2.body, '')
})

test('a preset string encoding on the payload does not break byte counting', async () => {
  const payload = chunks('€€€')
  payload.setEncoding('utf8')
  const r = await run({ 'content-type': 'text/plain', 'content-length': '9' }, payload, make())
  assert.equal(r.err, null)
  assert.equal(r.body, '€€€')
})

test('done runs in the async context of the parseBody call', async () => {
  const als = new AsyncLocalStorage<string>()
  const parsers = make()
  const payload = new PassThrough()
  const seen = await new Promise(resolve => {
    als.run('request-1', () => {
      parseBody({ headers: { 'content-type': 'text/plain' } }, payload, parsers, undefined, () => resolve(als.getStore()))
    })
    als.run('other', () => { setTimeout(() => payload.end('x'), 1) })
  })
  assert.equal(seen, 'request-1')
})

test('shouldParseBody follows Fastify 4.29 rules', () => {
  assert.equal(shouldParseBody('GET', { 'content-type': 'application/json', 'content-length': '2' }), false)
  assert.equal(shouldParseBody('HEAD', { 'content-type': 'application/json' }), false)
  assert.equal(shouldParseBody('POST', { 'content-type': 'application/json' }), true)
  assert.equal(shouldParseBody('POST', {}), false)
  assert.equal(shouldParseBody('POST', { 'content-length': '0' }), false)
  assert.equal(shouldParseBody('PUT', { 'content-length': '3' }), true)
  assert.equal(shouldParseBody('PATCH', { 'transfer-encoding': 'chunked' }), true)
  assert.equal(shouldParseBody('DELETE', { 'content-type': 'application/json' }), false)
  assert.equal(shouldParseBody('DELETE', { 'content-type': 'application/json', 'content-length': '0' }), true)
  assert.equal(shouldParseBody('OPTIONS', { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }), true)
  assert.equal(shouldParseBody('OPTIONS', { 'content-length': '3' }), false)
  assert.equal(shouldParseBody('PROPFIND', { 'content-type': 'text/plain', 'content-length': '3' }), true)
  assert.equal(shouldParseBody('REPORT', { 'content-length': '3' }), true)
  assert.equal(shouldParseBody('UNLOCK', { 'content-type': 'text/plain', 'content-length': '3' }), false)
})

test('after the body was read, an error or close on the payload is ignored: done once, no warning, no crash', async () => {
  // the reader leaves its listeners on the stream once the body is complete (removing them cost more than the read)
  const payload = new PassThrough()
  const warnings: unknown[] = []
  let calls = 0
  const body = await new Promise(resolve => {
    const req: BodyRequest = { headers: { 'content-type': 'text/plain' }, log: { warn: (m: unknown) => warnings.push(m) } }
    parseBody(req, payload, make(), undefined, (_e, b) => { calls++; resolve(b) })
    payload.end('hello')
  })
  assert.equal(body, 'hello')
  payload.emit('error', new Error('late failure'))
  payload.destroy(new Error('late destroy'))
  await tick()
  assert.equal(calls, 1)
  assert.deepEqual(warnings, [])
})

test('content-length: surrounding whitespace is allowed; signs, decimals and more than 15 digits are invalid', async () => {
  let r = await run({ 'content-type': 'text/plain', 'content-length': ' 5\t' }, chunks('12345'), make())
  assert.equal(r.err, null)
  assert.equal(r.body, '12345')
  for (const bad of ['+5', '5.0', '0x5', '-5', '1 2', '0000000000000005']) {
    r = await run({ 'content-type': 'text/plain', 'content-length': bad }, chunks('12345'), make())
    assert.equal(r.err?.code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', bad)
  }
  r = await run({ 'content-type': 'text/plain', 'content-length': '000000000000005' }, chunks('12345'), make())
  assert.equal(r.body, '12345')
})
