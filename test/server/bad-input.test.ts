import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, rawRequest, parseRaw, request } from '../helpers'

async function withServer (fn: (port: number) => Promise<void>): Promise<void> {
  const app = trellis()
  app.get('/', async () => ({ alive: true }))
  app.post('/', async (req) => ({ body: req.body }))
  const { port } = await listen(app)
  try {
    await fn(port)
    // the server keeps serving afterwards
    const res = await request(port)
    assert.equal(res.statusCode, 200)
    assert.deepEqual(JSON.parse(res.body), { alive: true })
  } finally { await app.close() }
}

const malformed: Array<[string, string]> = [
  ['garbage request line', 'HELLO\r\n\r\n'],
  ['bad method token', 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['bad HTTP version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n'],
  ['header without colon', 'GET / HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n'],
  ['space before colon', 'GET / HTTP/1.1\r\nHost : x\r\n\r\n'],
  ['control character in header value', 'GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n'],
  ['invalid content-length', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: abc\r\n\r\nhello'],
  ['content-length and transfer-encoding', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
  ['bad chunk size', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n'],
  ['bare LF line endings with obs-fold', 'GET / HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  folded\r\n\r\n']
]

for (const [name, raw] of malformed) {
  test(`malformed request (${name}) gets 400 JSON and does not crash the server`, async () => {
    await withServer(async (port) => {
      const res = parseRaw(await rawRequest(port, raw))
      assert.equal(res.statusCode, 400, name)
      assert.match(res.headers['content-type'], /^application\/json/)
      const body = JSON.parse(res.body)
      assert.equal(body.statusCode, 400)
      assert.equal(body.error, 'Bad Request')
    })
  })
}

test('huge header gets 431 JSON and the server keeps serving', async () => {
  await withServer(async (port) => {
    const raw = `GET / HTTP/1.1\r\nHost: x\r\nX-Huge: ${'a'.repeat(20 * 1024)}\r\n\r\n`
    const res = parseRaw(await rawRequest(port, raw))
    assert.equal(res.statusCode, 431)
    assert.deepEqual(JSON.parse(res.body), { error: 'Request Header Fields Too Large', message: 'Exceeded maximum allowed HTTP header size', statusCode: 431 })
  })
})

test('a client that disconnects mid-body does not crash the server', async () => {
  await withServer(async (port) => {
    const net = await import('node:net')
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":')
        setTimeout(() => { socket.destroy(); resolve() }, 20)
      })
    })
  })
})

test('a malformed request after a good one on the same connection closes it without a crash', async () => {
  await withServer(async (port) => {
    const text = await rawRequest(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\nNOT HTTP AT ALL\r\n\r\n')
    // node reports the parse error before the first (async) response is written: like node's own
    // handler, trellis answers 400 on that socket and closes it
    assert.match(text, /^HTTP\/1\.1 (200 OK|400 Bad Request)\r\n/)
  })
})

test('absolute-form and asterisk-form targets do not crash', async () => {
  await withServer(async (port) => {
    const a = parseRaw(await rawRequest(port, 'GET http://x/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))
    assert.ok(a.statusCode === 200 || a.statusCode === 404 || a.statusCode === 400, String(a.statusCode))
    const b = parseRaw(await rawRequest(port, 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))
    assert.ok(b.statusCode >= 200 && b.statusCode < 500, String(b.statusCode))
    JSON.parse(b.body)
  })
})
