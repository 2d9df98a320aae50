/**
 * Faults in application code and in clients, over a real socket: none crashes the process, leaks
 * sockets or listeners, or holds up other clients (their latency is measured meanwhile).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { Readable } from 'node:stream'
import trellis from '../../src/index'
import { listen, request, delay, noStack } from '../helpers'

function buildFaulty (options: Record<string, unknown> = {}) {
  const app = trellis(options)
  app.get('/health', async () => ({ ok: true }))
  app.get('/throw', () => { throw new Error('sync boom') })
  app.get('/reject', async () => { throw new Error('async boom') })
  app.get('/throw-null', () => { throw null }) // eslint-disable-line no-throw-literal
  app.get('/hook-throws', { onRequest: () => { throw new Error('hook boom') } }, async () => 'never')
  app.get('/hook-rejects', { preHandler: async () => { throw new Error('hook reject') } }, async () => 'never')
  app.get('/hook-done-error', { preValidation: (_req, _reply, done) => { done(new Error('done boom')) } }, async () => 'never')
  app.register(async (child) => {
    child.setErrorHandler(() => { throw new Error('error handler boom') })
    child.get('/error-handler-throws', async () => { throw new Error('first') })
  })
  app.register(async (child) => {
    child.setErrorHandler(async () => { throw new Error('async error handler boom') })
    child.get('/error-handler-rejects', async () => { throw new Error('first') })
  })
  app.get('/send-twice', (_req, reply) => { reply.send({ first: true }); reply.send({ second: true }) })
  app.get('/stream-error', (_req, reply) => {
    let n = 0
    const stream = new Readable({
      read () {
        n++
        if (n < 3) this.push('chunk' + n)
        else this.destroy(new Error('stream broke'))
      }
    })
    reply.type('text/plain').send(stream)
  })
  app.get('/stream-error-first', (_req, reply) => {
    const stream = new Readable({ read () { this.destroy(new Error('broke at once')) } })
    reply.send(stream)
  })
  app.get('/endless', (_req, reply) => {
    let n = 0
    reply.type('text/plain').send(new Readable({ read () { setTimeout(() => this.push(`line ${n++}\n`), 1) } }))
  })
  app.post('/upload', async (req) => ({ got: JSON.stringify(req.body).length }))
  return app
}

function listenerCounts (emitter: NodeJS.EventEmitter): Record<string, number> {
  const out: Record<string, number> = {}
  for (const name of emitter.eventNames()) out[String(name)] = emitter.listenerCount(name)
  return out
}

async function openConnections (server: { getConnections: (cb: (err: Error | null, n: number) => void) => void }): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((err, n) => err !== null ? reject(err) : resolve(n)))
}

test('throwing and rejecting handlers, hooks and error handlers: 500 JSON without stack, send twice keeps the first', async () => {
  const app = buildFaulty()
  const { port } = await listen(app)
  try {
    for (const path of ['/throw', '/reject', '/throw-null', '/hook-throws', '/hook-rejects', '/hook-done-error', '/error-handler-throws', '/error-handler-rejects']) {
      const res = await request(port, { path })
      assert.equal(res.statusCode, 500, path)
      assert.match(String(res.headers['content-type']), /^application\/json/, path)
      assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body), path)
      assert.equal(JSON.parse(res.body).statusCode, 500, path)
      assert.ok(noStack(res.body), path)
    }
    const twice = await request(port, { path: '/send-twice' })
    assert.deepEqual(JSON.parse(twice.body), { first: true })
    assert.equal((await request(port, { path: '/health' })).statusCode, 200)
  } finally { await app.close() }
})

test('a stream that fails mid-way ends the response (no hang); one that fails before its first byte gives 500 JSON', async () => {
  const app = buildFaulty()
  const { port } = await listen(app)
  try {
    await assert.rejects(request(port, { path: '/stream-error' }), /aborted|socket hang up|ECONNRESET/)
    const early = await request(port, { path: '/stream-error-first' })
    assert.equal(early.statusCode, 500)
    JSON.parse(early.body)
    assert.equal((await request(port, { path: '/health' })).statusCode, 200)
  } finally { await app.close() }
})

test('hooks that never call done: the connection timeout runs onTimeout hooks and frees the socket; other clients are served meanwhile', async () => {
  const app = trellis({ connectionTimeout: 400 })
  const timedOut: string[] = []
  app.addHook('onTimeout', async (req) => { timedOut.push(req.url) })
  app.get('/health', async () => ({ ok: true }))
  app.get('/stuck', { onRequest: (_req, _reply, _done) => { /* never calls done */ } }, async () => 'never')
  app.get('/stuck-async', { preHandler: () => new Promise(() => {}) }, async () => 'never')
  const { port } = await listen(app)
  try {
    let stuckSettledAt = 0
    const stuck = Promise.allSettled([request(port, { path: '/stuck' }), request(port, { path: '/stuck-async' })])
      .then((outcomes) => { stuckSettledAt = Date.now(); return outcomes })
    const health = await request(port, { path: '/health' })
    const healthAt = Date.now()
    assert.equal(health.statusCode, 200)
    const outcomes = await stuck
    assert.ok(healthAt < stuckSettledAt, 'another client is served while the stuck requests wait')
    assert.ok(outcomes.every((o) => o.status === 'rejected'), 'the stuck requests are cut off, not left hanging')
    await delay(20)
    assert.deepEqual(timedOut.sort(), ['/stuck', '/stuck-async'])
    assert.equal(await openConnections(app.server), 0)
  } finally { await app.close() }
})

test('clients that abort mid-body and mid-response, under repetition: no crash, no leaked sockets or listeners, other clients keep fast answers', async () => {
  const app = buildFaulty()
  const { port } = await listen(app)
  const serverListeners = listenerCounts(app.server)
  const processListeners = listenerCounts(process)
  try {
    const abortMidBody = (): Promise<void> => new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":"' + 'x'.repeat(1000))
        setTimeout(() => { socket.destroy(); resolve() }, 5)
      })
      socket.on('error', () => resolve())
    })
    const abortMidResponse = (): Promise<void> => new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /endless HTTP/1.1\r\nHost: x\r\n\r\n'))
      let bytes = 0
      socket.on('data', (c: Buffer) => { bytes += c.length; if (bytes > 200) { socket.destroy(); resolve() } })
      socket.on('error', () => resolve())
    })
    let worst = 0
    const faults = (async () => {
      for (let round = 0; round < 20; round++) await Promise.all([abortMidBody(), abortMidBody(), abortMidResponse(), abortMidResponse()])
    })()
    let done = false
    faults.then(() => { done = true }, () => { done = true })
    while (!done) {
      const started = Date.now()
      assert.equal((await request(port, { path: '/health' })).statusCode, 200)
      worst = Math.max(worst, Date.now() - started)
    }
    await faults
    await delay(50)
    assert.ok(worst < 1000, `another client waited ${worst} ms`)
    assert.equal(await openConnections(app.server), 0, 'every aborted socket was released')
    assert.deepEqual(listenerCounts(app.server), serverListeners)
    assert.deepEqual(listenerCounts(process), processListeners)
  } finally { await app.close() }
})
