/**
 * Graceful shutdown over real sockets: close() answers every request already received, responses
 * written while closing say `Connection: close`, a request that still arrives on a kept-alive
 * connection gets 503 `Connection: close`, and no client sees a reset for a request it was allowed
 * to send.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import trellis from '../../src/index'
import { listen, delay, parseRaw, slowRequestInFlight } from '../helpers'

interface Outcome { status?: number; connection?: string; error?: string; reused?: boolean; localPort?: number }

function get (agent: http.Agent, port: number, path: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let localPort: number | undefined
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode, connection: res.headers.connection }))
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }))
    })
    req.on('socket', (socket) => {
      if (socket.localPort !== undefined) localPort = socket.localPort
      else socket.once('connect', () => { localPort = socket.localPort })
    })
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message, reused: req.reusedSocket, localPort }))
  })
}

test('close() under keep-alive load (50 sockets, 600 requests): every request that reached a handler is answered, none is reset', async () => {
  const app = trellis()
  let handled = 0
  app.get('/work', async () => { handled++; await delay(2); return { ok: true } })
  const { port } = await listen(app)
  // the client ports of every connection the server accepted
  const accepted = new Set<number>()
  app.server.on('connection', (socket: net.Socket) => accepted.add(socket.remotePort as number))
  const agent = new http.Agent({ keepAlive: true, maxSockets: 50 })
  const outcomes: Array<Promise<Outcome>> = []
  let answered = 0
  for (let i = 0; i < 600; i++) outcomes.push(get(agent, port, '/work').then((o) => { answered++; return o }))
  while (answered < 150) await delay(1)
  const closed = app.close()
  const results = await Promise.all(outcomes)
  await closed
  agent.destroy()
  const ok = results.filter((r) => r.status === 200).length
  const unavailable = results.filter((r) => r.status === 503).length
  // a new connection still in the kernel's accept queue when the listening socket closes is reset
  // by the kernel: refused before the server read a byte (never a request it received)
  const refusedNew = (r: Outcome): boolean => r.error === 'ECONNREFUSED' ||
    (r.error === 'ECONNRESET' && r.reused === false && (r.localPort === undefined || !accepted.has(r.localPort)))
  const refused = results.filter(refusedNew).length
  const other = results.filter((r) => r.status !== 200 && r.status !== 503 && !refusedNew(r))
  assert.deepEqual(other, [], 'no reset, no hang-up: only answers, or a refused new connection')
  assert.equal(ok, handled, 'every request that reached the handler got its 200')
  assert.equal(ok + unavailable + refused, 600)
  assert.ok(ok >= 150)
})

test('close() with one kept-alive socket: the response in flight says Connection: close and the socket then ends', async () => {
  const app = trellis()
  const { release, ended, received } = await slowRequestInFlight(app)
  const closing = app.close()
  release()
  await ended
  await closing
  const res = parseRaw(received())
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers.connection, 'close')
  assert.equal(res.body, 'slow done')
})

test('close(): a request sent on an idle kept-alive socket right after close() began gets 503 Connection: close, not a reset', async () => {
  const app = trellis()
  app.get('/', async () => 'first')
  const { port } = await listen(app)
  const socket = net.connect(port, '127.0.0.1')
  let text = ''
  socket.on('data', (c: Buffer) => { text += c.toString() })
  const ended = new Promise<string | undefined>((resolve) => {
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code))
    socket.on('close', () => resolve(undefined))
  })
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
  while (!text.includes('first')) await delay(2)
  assert.match(text, /Connection: keep-alive/i)
  const closing = app.close()
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
  assert.equal(await ended, undefined, 'no socket error')
  await closing
  const second = text.slice(text.indexOf('first') + 'first'.length)
  const res = parseRaw(second)
  assert.equal(res.statusCode, 503)
  assert.equal(res.headers.connection, 'close')
  assert.deepEqual(JSON.parse(res.body), { statusCode: 503, code: 'FST_ERR_SERVER_CLOSING', error: 'Service Unavailable', message: 'Service Unavailable' })
})

test('close() resolves promptly with idle keep-alive sockets open (after the short grace period), and they are closed', async () => {
  const app = trellis()
  app.get('/', async () => 'x')
  const { port } = await listen(app)
  const agent = new http.Agent({ keepAlive: true })
  await Promise.all([get(agent, port, '/'), get(agent, port, '/'), get(agent, port, '/')])
  const started = Date.now()
  await app.close()
  const took = Date.now() - started
  assert.ok(took < 2000, `close() took ${took} ms`)
  agent.destroy()
})
