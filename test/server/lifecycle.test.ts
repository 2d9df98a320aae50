import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import trellis from '../../src/index'
import { listen, request, delay, rawRequest, parseRaw, slowRequestInFlight } from '../helpers'

test('listen({ port, host }) resolves with the address; addresses() and server reflect it', async () => {
  const app = trellis()
  app.get('/', async () => 'up')
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const list = app.addresses()
    assert.equal(list.length, 1)
    assert.equal(list[0].address, '127.0.0.1')
    assert.equal(address, `http://127.0.0.1:${list[0].port}`)
    assert.ok(app.server instanceof http.Server)
    assert.equal(app.server.listening, true)
    assert.equal((await request(list[0].port)).body, 'up')
  } finally { await app.close() }
  assert.equal(app.server.listening, false)
})

test('legacy listen(port, host, cb) and listen(port, cb) signatures', async () => {
  const app = trellis()
  app.get('/', async () => 'legacy')
  const address: string = await new Promise((resolve, reject) => {
    app.listen(0, '127.0.0.1', (err: Error | null, addr?: string) => err ? reject(err) : resolve(addr as string))
  })
  try {
    assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/)
    assert.equal((await request(app.addresses()[0].port)).body, 'legacy')
  } finally { await app.close() }

  const app2 = trellis()
  const address2: string = await new Promise((resolve, reject) => {
    app2.listen({ port: 0, host: '127.0.0.1' }, (err: Error | null, addr?: string) => err ? reject(err) : resolve(addr as string))
  })
  assert.match(address2, /^http:\/\/127\.0\.0\.1:\d+$/)
  await app2.close()
})

test('listen twice fails with FST_ERR_REOPENED_SERVER; listen after close with FST_ERR_REOPENED_CLOSE_SERVER', async () => {
  const app = trellis()
  await listen(app)
  await assert.rejects(app.listen({ port: 0, host: '127.0.0.1' }), { code: 'FST_ERR_REOPENED_SERVER' })
  await app.close()
  await assert.rejects(app.listen({ port: 0, host: '127.0.0.1' }), { code: 'FST_ERR_REOPENED_CLOSE_SERVER' })
})

test('listen on a port in use rejects with EADDRINUSE', async () => {
  const a = trellis()
  const { port } = await listen(a)
  const b = trellis()
  try {
    await assert.rejects(b.listen({ port, host: '127.0.0.1' }), { code: 'EADDRINUSE' })
  } finally {
    await a.close()
    await b.close()
  }
})

test('an invalid port is refused', async () => {
  const app = trellis()
  await assert.rejects(app.listen({ port: 70000, host: '127.0.0.1' }), (err: any) => err instanceof RangeError && (err as any).code === 'ERR_SOCKET_BAD_PORT')
  await assert.rejects(app.listen({ port: -1, host: '127.0.0.1' }), { code: 'ERR_SOCKET_BAD_PORT' })
  await assert.rejects(app.listen({ port: '3x' as never, host: '127.0.0.1' }), { code: 'ERR_SOCKET_BAD_PORT' })
  // a failed listen does not leave the instance marked as listening
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/)
  await app.close()
})

test('ready() resolves with the instance, runs once, and supports a callback', async () => {
  const app = trellis()
  let loads = 0
  app.register(async () => { loads++ })
  assert.equal(await app.ready(), app)
  await app.ready()
  assert.equal(loads, 1)
  await new Promise<void>((resolve, reject) => app.ready((err: Error | null) => err ? reject(err) : resolve()))
  await app.close()
})

test('close() runs onClose hooks, resolves, and supports a callback', async () => {
  const app = trellis()
  const closed: string[] = []
  app.addHook('onClose', async () => { closed.push('root') })
  app.register(async (child) => { child.addHook('onClose', async () => { closed.push('child') }) })
  await app.ready()
  await new Promise<void>((resolve, reject) => app.close((err) => err ? reject(err) : resolve()))
  assert.deepEqual(closed.sort(), ['child', 'root'])
})

test('close lets in-flight requests finish and answers 503 to new requests while closing', async () => {
  const app = trellis()
  let release!: () => void
  const gate = new Promise<void>((resolve) => { release = resolve })
  let started!: () => void
  const handlerStarted = new Promise<void>((resolve) => { started = resolve })
  app.get('/slow', async () => { started(); await gate; return { slow: 'done' } })
  app.get('/fast', async () => 'fast')
  const { port } = await listen(app)

  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  // open a keep-alive socket before closing, so a second request can still reach the server
  const warm = await new Promise<string>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/fast', agent }, (res) => {
      let b = ''
      res.on('data', (c) => { b += c })
      res.on('end', () => resolve(b))
    }).on('error', reject)
  })
  assert.equal(warm, 'fast')

  const slow = request(port, { path: '/slow' })
  await handlerStarted
  const closing = app.close()
  await delay(20)
  // a request on a connection that was already open before close
  const late = await new Promise<{ status: number, body: string }>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/fast', agent }, (res) => {
      let b = ''
      res.on('data', (c) => { b += c })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: b }))
    }).on('error', reject)
  }).catch((err: NodeJS.ErrnoException) => ({ status: -1, body: String(err.code) }))
  release()
  const slowRes = await slow
  await closing
  agent.destroy()
  assert.equal(slowRes.statusCode, 200)
  assert.deepEqual(JSON.parse(slowRes.body), { slow: 'done' })
  // the idle keep-alive socket is either closed by the server (ECONNRESET) or answered 503
  if (late.status !== -1) {
    assert.equal(late.status, 503)
    assert.equal(JSON.parse(late.body).statusCode, 503)
  }
})

/**
 * On one raw keep-alive socket: GET /slow starts, close() begins, GET /fast is pipelined while the
 * server is closing, then /slow is released. Returns everything the socket received.
 */
async function pipelineDuringClose (options: Parameters<typeof trellis>[0]): Promise<string> {
  const app = trellis(options)
  const { socket, release, ended, received } = await slowRequestInFlight(app, (a) => a.get('/fast', async () => 'fast'))
  const closing = app.close()
  await delay(20)
  socket.write('GET /fast HTTP/1.1\r\nHost: x\r\n\r\n')
  await delay(20)
  release()
  await Promise.race([ended, delay(1000)])
  socket.destroy()
  await closing
  return received()
}

test('503 while closing over a pipelined raw socket', async () => {
  const text = await pipelineDuringClose({})
  assert.match(text, /HTTP\/1\.1 200 OK[\s\S]*slow done/)
  assert.match(text, /HTTP\/1\.1 503 Service Unavailable/)
})

test('return503OnClosing: false lets requests through while closing', async () => {
  const text = await pipelineDuringClose({ return503OnClosing: false })
  assert.doesNotMatch(text, /503/)
  assert.match(text, /fast/)
})

test('app.log is the logger; request.log is a child carrying the request id', async () => {
  const { logCollector } = await import('../helpers')
  const { stream, lines } = logCollector()
  const app = trellis({ logger: { stream } })
  app.get('/', async (req) => { req.log.info('inside'); return 'x' })
  app.log.info('outside')
  const { port } = await listen(app)
  try {
    await request(port, { headers: { 'request-id': 'socket-req' } })
  } finally { await app.close() }
  const outside = lines.find((l) => l.msg === 'outside')
  assert.ok(outside)
  assert.equal(outside.reqId, undefined)
  const inside = lines.find((l) => l.msg === 'inside')
  assert.ok(inside)
  assert.equal(inside.reqId, 'socket-req')
  assert.ok(lines.some((l) => /Server listening at http:\/\/127\.0\.0\.1:\d+/.test(String(l.msg))))
})

test('keepAliveTimeout closes idle connections', async () => {
  const app = trellis({ keepAliveTimeout: 50 })
  app.get('/', async () => 'x')
  const { port } = await listen(app)
  try {
    const text = await rawRequest(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', 2000)
    assert.equal(parseRaw(text).statusCode, 200)
  } finally { await app.close() }
})

test('connectionTimeout destroys a silent socket', async () => {
  const app = trellis({ connectionTimeout: 100 })
  app.get('/', async () => 'x')
  const { port } = await listen(app)
  try {
    const started = Date.now()
    await rawRequest(port, 'GET / HTTP/1.1\r\nHost: x\r\n', 3000)
    assert.ok(Date.now() - started < 2500)
  } finally { await app.close() }
})

test('a request timeout (ERR_HTTP_REQUEST_TIMEOUT from node) is answered 408 JSON', async () => {
  // node checks requestTimeout every connectionsCheckingInterval (30 s): emit its error directly
  const app = trellis({ requestTimeout: 200 })
  app.get('/', async () => 'x')
  const serverSocket = new Promise<import('node:net').Socket>((resolve) => app.server.once('connection', resolve))
  const { port } = await listen(app)
  try {
    const net = await import('node:net')
    const client = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    client.on('data', (c: Buffer) => chunks.push(c))
    const closed = new Promise<void>((resolve) => client.on('close', () => resolve()))
    client.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc')
    const socket = await serverSocket
    app.server.emit('clientError', Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket)
    await closed
    const res = parseRaw(Buffer.concat(chunks).toString())
    assert.equal(res.statusCode, 408)
    assert.deepEqual(JSON.parse(res.body), { error: 'Request Timeout', message: 'Client Timeout', statusCode: 408 })
  } finally { await app.close() }
})

test('close() does not wait for the keep-alive timeout of a connection whose request was in flight', async () => {
  const app = trellis()
  let started!: () => void
  const handlerStarted = new Promise<void>((resolve) => { started = resolve })
  app.get('/slow', async () => { started(); await delay(100); return 'slow' })
  const { port } = await listen(app)
  const agent = new http.Agent({ keepAlive: true })
  const response = new Promise<{ status: number, body: string }>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/slow', agent }, (res) => {
      let b = ''
      res.on('data', (c) => { b += c })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: b }))
    }).on('error', reject)
  })
  await handlerStarted
  const t0 = Date.now()
  await app.close()
  const elapsed = Date.now() - t0
  const res = await response
  agent.destroy()
  assert.ok(elapsed < 2000, `close took ${elapsed} ms`)
  assert.deepEqual(res, { status: 200, body: 'slow' })
})
