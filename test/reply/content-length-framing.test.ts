// A content-length set with reply.header() goes out only as exactly the body's length as a decimal
// integer: a list, a sign, spaces, an exponent, hex or trailing junk is replaced by the real length
// where the body is known, and dropped where it is not (a stream, HEAD or 304 without a payload), so
// the framing a client or a proxy reads is always the framing Node writes. Checked over a real socket
// (raw bytes, with a request pipelined behind, which only parses if the first answer's framing is
// right) and over inject.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import trellis from '../../src/index'
import { listen, rawRequest } from '../helpers'

// not exactly "5": each would make Node write that text as the length of a 5-byte body
const BAD = ['20, 5', '20abc', ' 20', '-1', '1e3', '5, 5', '+5', '5.0', '0x5', '5e0', '05', ' 5', '']

interface RawAnswer { head: string, lengths: string[], chunked: boolean, body: string, rest: string }

/** Splits the first answer of a raw byte string by its own framing; `rest` is what follows it. */
function firstAnswer (raw: string, bodyless = false): RawAnswer {
  const end = raw.indexOf('\r\n\r\n')
  assert.notEqual(end, -1, raw)
  const head = raw.slice(0, end)
  const lines = head.split('\r\n').slice(1)
  const lengths = lines.filter((l) => /^content-length:/i.test(l)).map((l) => l.slice(l.indexOf(':') + 1))
  const chunked = lines.some((l) => /^transfer-encoding:\s*chunked$/i.test(l))
  let rest = raw.slice(end + 4)
  let body = ''
  if (bodyless) return { head, lengths, chunked, body, rest }
  if (chunked) {
    for (;;) {
      const lineEnd = rest.indexOf('\r\n')
      const size = parseInt(rest.slice(0, lineEnd), 16)
      rest = rest.slice(lineEnd + 2)
      if (size === 0) {
        // the trailer section (maybe empty) ends with an empty line
        rest = rest.startsWith('\r\n') ? rest.slice(2) : rest.slice(rest.indexOf('\r\n\r\n') + 4)
        break
      }
      body += rest.slice(0, size)
      rest = rest.slice(size + 2)
    }
  } else {
    assert.equal(lengths.length, 1, head)
    assert.match(lengths[0], /^ \d+$/, head)
    const n = Number(lengths[0])
    body = rest.slice(0, n)
    rest = rest.slice(n)
  }
  return { head, lengths, chunked, body, rest }
}

function pipelined (method: string, path: string): string {
  return `${method} ${path} HTTP/1.1\r\nhost: x\r\n\r\nGET /next HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`
}

function app (): ReturnType<typeof trellis> {
  const instance = trellis()
  instance.get('/next', async () => 'next')
  instance.get('/string', (req, reply) => { reply.header('content-length', (req.query as { v: string }).v).send('hello') })
  instance.get('/buffer', (req, reply) => { reply.header('content-length', (req.query as { v: string }).v).send(Buffer.from('hello')) })
  instance.get('/json', (req, reply) => { reply.header('content-length', (req.query as { v: string }).v).send({ a: 1 }) })
  instance.get('/stream', (req, reply) => { reply.header('content-length', (req.query as { v: string }).v).send(Readable.from([Buffer.from('hel'), Buffer.from('lo')])) })
  instance.route({ method: 'HEAD', url: '/head-empty', handler: (req, reply) => { reply.header('content-length', (req.query as { v: string }).v).send() } })
  instance.route({ method: 'HEAD', url: '/head-payload', handler: (req, reply) => { reply.header('content-length', (req.query as { v: string }).v).send('hello') } })
  instance.route({ method: 'HEAD', url: '/numeric', handler: (_req, reply) => { reply.header('content-length', 13).send() } })
  instance.get('/not-modified', (req, reply) => { reply.code(304).header('content-length', (req.query as { v: string }).v).send() })
  instance.get('/trailers', (req, reply) => {
    reply.header('content-length', (req.query as { v: string }).v).trailer('x-sum', (_reply: unknown, _payload: unknown, done: (err: null, value: string) => void) => { done(null, 'ok') }).send('hello')
  })
  return instance
}

test('a body sent as a string, a Buffer or serialized JSON goes out with its own length, whatever was declared (socket)', async (t) => {
  const server = app()
  t.after(() => server.close())
  const { port } = await listen(server)
  for (const [path, body] of [['/string', 'hello'], ['/buffer', 'hello'], ['/json', '{"a":1}']]) {
    for (const value of [...BAD, '999', '4']) {
      const raw = await rawRequest(port, pipelined('GET', `${path}?v=${encodeURIComponent(value)}`))
      const first = firstAnswer(raw)
      assert.deepEqual(first.lengths, [` ${Buffer.byteLength(body)}`], `${path} ${JSON.stringify(value)}: ${first.head}`)
      assert.equal(first.body, body)
      assert.match(first.rest, /^HTTP\/1\.1 200 OK\r\n/, `${path} ${JSON.stringify(value)}: the pipelined request is read where the first answer ends`)
      assert.ok(first.rest.endsWith('\r\n\r\nnext'), first.rest)
    }
  }
})

test('a stream goes out chunked unless the declared length is a decimal integer (socket)', async (t) => {
  const server = app()
  t.after(() => server.close())
  const { port } = await listen(server)
  for (const value of BAD) {
    const first = firstAnswer(await rawRequest(port, pipelined('GET', `/stream?v=${encodeURIComponent(value)}`)))
    assert.deepEqual(first.lengths, [], `${JSON.stringify(value)}: ${first.head}`)
    assert.equal(first.chunked, true, first.head)
    assert.equal(first.body, 'hello')
    assert.match(first.rest, /^HTTP\/1\.1 200 OK\r\n/)
  }
  // a decimal integer is the application's to give (a file's size): it is kept
  const kept = firstAnswer(await rawRequest(port, pipelined('GET', '/stream?v=5')))
  assert.deepEqual(kept.lengths, [' 5'])
  assert.equal(kept.body, 'hello')
  assert.match(kept.rest, /^HTTP\/1\.1 200 OK\r\n/)
})

test('HEAD and 304 keep a declared decimal length and never send any other (socket)', async (t) => {
  const server = app()
  t.after(() => server.close())
  const { port } = await listen(server)
  for (const value of BAD) {
    const query = `?v=${encodeURIComponent(value)}`
    const empty = firstAnswer(await rawRequest(port, pipelined('HEAD', `/head-empty${query}`)), true)
    assert.deepEqual(empty.lengths, [], `HEAD without payload ${JSON.stringify(value)}: ${empty.head}`)
    assert.match(empty.rest, /^HTTP\/1\.1 200 OK\r\n/)
    const withPayload = firstAnswer(await rawRequest(port, pipelined('HEAD', `/head-payload${query}`)), true)
    assert.deepEqual(withPayload.lengths, [' 5'], `HEAD with a payload ${JSON.stringify(value)}: ${withPayload.head}`)
    assert.match(withPayload.rest, /^HTTP\/1\.1 200 OK\r\n/)
    const automatic = firstAnswer(await rawRequest(port, pipelined('HEAD', `/string${query}`)), true)
    assert.deepEqual(automatic.lengths, [' 5'], `automatic HEAD ${JSON.stringify(value)}: ${automatic.head}`)
    const notModified = firstAnswer(await rawRequest(port, pipelined('GET', `/not-modified${query}`)), true)
    assert.match(notModified.head, /^HTTP\/1\.1 304 /)
    assert.deepEqual(notModified.lengths, [], `304 ${JSON.stringify(value)}: ${notModified.head}`)
    assert.match(notModified.rest, /^HTTP\/1\.1 200 OK\r\n/)
  }
  // the length GET would send, declared by the application, is what HEAD and 304 are for
  assert.deepEqual(firstAnswer(await rawRequest(port, pipelined('HEAD', '/head-empty?v=20')), true).lengths, [' 20'])
  assert.deepEqual(firstAnswer(await rawRequest(port, pipelined('HEAD', '/head-payload?v=20')), true).lengths, [' 20'])
  assert.deepEqual(firstAnswer(await rawRequest(port, pipelined('GET', '/not-modified?v=20')), true).lengths, [' 20'])
})

test('trailers make the answer chunked: no content-length beside it, valid or not (socket)', async (t) => {
  const server = app()
  t.after(() => server.close())
  const { port } = await listen(server)
  for (const value of [...BAD, '5']) {
    const first = firstAnswer(await rawRequest(port, pipelined('GET', `/trailers?v=${encodeURIComponent(value)}`)))
    assert.deepEqual(first.lengths, [], `${JSON.stringify(value)}: ${first.head}`)
    assert.equal(first.chunked, true)
    assert.equal(first.body, 'hello')
    assert.match(first.rest, /^HTTP\/1\.1 200 OK\r\n/)
  }
})

test('the same answers over inject', async () => {
  const server = app()
  for (const value of BAD) {
    const query = { v: value }
    const string = await server.inject({ url: '/string', query })
    assert.equal(string.headers['content-length'], '5', JSON.stringify(value))
    assert.equal(string.body, 'hello')
    const json = await server.inject({ url: '/json', query })
    assert.equal(json.headers['content-length'], '7')
    const stream = await server.inject({ url: '/stream', query })
    assert.equal(stream.headers['content-length'], undefined)
    assert.equal(stream.body, 'hello')
    const head = await server.inject({ method: 'HEAD', url: '/head-empty', query })
    assert.equal(head.headers['content-length'], undefined)
    const headPayload = await server.inject({ method: 'HEAD', url: '/head-payload', query })
    assert.equal(headPayload.headers['content-length'], '5')
  }
  // a number is a decimal integer too (Fastify's own tests declare HEAD lengths that way)
  assert.equal((await server.inject({ method: 'HEAD', url: '/numeric' })).headers['content-length'], '13')
  await server.close()
})
