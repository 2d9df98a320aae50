/**
 * Slowloris over real sockets: a client that trickles its headers or its body is answered 408 and
 * disconnected once headersTimeout / requestTimeout pass (short values here; the defaults are 60 s
 * and 300 s), while other clients keep being served promptly.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import trellis from '../../src/index'
import { listen, request, parseRaw, delay } from '../helpers'

/** Writes `parts` one every `everyMs` until the server closes the socket; resolves with what it answered. */
function trickle (port: number, parts: string[], everyMs: number): Promise<{ text: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now()
    const socket = net.connect(port, '127.0.0.1')
    let text = ''
    let i = 0
    let timer: NodeJS.Timeout | undefined
    // the first part goes out as soon as the socket connects, so a loaded machine that is late with
    // the first timer tick cannot turn a body trickle into a headers timeout
    socket.on('connect', () => {
      socket.write(parts[i++])
      timer = setInterval(() => {
        if (i < parts.length && socket.writable) socket.write(parts[i++])
      }, everyMs)
    })
    socket.on('data', (c: Buffer) => { text += c.toString('latin1') })
    socket.on('error', () => {})
    socket.on('close', () => { clearInterval(timer); resolve({ text, ms: Date.now() - started }) })
  })
}

async function latencyMeanwhile (port: number, untilDone: Promise<unknown>): Promise<number> {
  let worst = 0
  let done = false
  untilDone.then(() => { done = true }, () => { done = true })
  while (!done) {
    const started = Date.now()
    const res = await request(port, { path: '/' })
    assert.equal(res.statusCode, 200)
    worst = Math.max(worst, Date.now() - started)
    await delay(20)
  }
  return worst
}

const slow = { headersTimeout: 300, requestTimeout: 600, connectionsCheckingInterval: 50 }

test('slowloris on the headers: 408 JSON after headersTimeout, socket closed, other clients unaffected', async () => {
  const app = trellis(slow)
  app.get('/', async () => ({ ok: true }))
  const { port } = await listen(app)
  try {
    // one header byte every 40 ms: never finishes within 10 s
    const head = 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(250)
    const slowClient = trickle(port, head.split(''), 40)
    const worst = await latencyMeanwhile(port, slowClient)
    const { text, ms } = await slowClient
    const res = parseRaw(text)
    assert.equal(res.statusCode, 408)
    assert.deepEqual(JSON.parse(res.body), { error: 'Request Timeout', message: 'Client Timeout', statusCode: 408 })
    assert.ok(ms >= 250 && ms < 3000, `closed after ${ms} ms`)
    assert.ok(worst < 1000, `another client waited ${worst} ms`)
  } finally { await app.close() }
})

test('slowloris on the body: 408 after requestTimeout although bytes keep arriving, no handler runs, other clients unaffected', async () => {
  const app = trellis(slow)
  let handled = 0
  app.get('/', async () => ({ ok: true }))
  app.post('/upload', async (req) => { handled++; return { size: JSON.stringify(req.body).length } })
  const { port } = await listen(app)
  try {
    const head = 'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n'
    const slowClient = trickle(port, [head, ...'["'.concat('b'.repeat(996), '"]').split('')], 20)
    const worst = await latencyMeanwhile(port, slowClient)
    const { text, ms } = await slowClient
    assert.match(text, /^HTTP\/1\.1 408 Request Timeout\r\n/)
    assert.ok(ms >= 500 && ms < 3000, `closed after ${ms} ms`)
    assert.equal(handled, 0)
    assert.ok(worst < 1000, `another client waited ${worst} ms`)
    // and the server still serves uploads that arrive in time
    const ok = await request(port, { method: 'POST', path: '/upload', headers: { 'content-type': 'application/json' }, body: '["x"]' })
    assert.equal(ok.statusCode, 200)
  } finally { await app.close() }
})

test('by default a trellis server has non-zero headers and request deadlines (Fastify 4.3 had no request deadline)', async () => {
  const app = trellis()
  assert.equal(app.server.headersTimeout, 60000)
  assert.equal(app.server.requestTimeout, 300000)
  await app.close()
})
