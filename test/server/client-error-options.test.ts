import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import trellis from '../../src/index'
import { listen, rawRequest } from '../helpers'

test('malformed HTTP gets the 400 JSON answer and the connection is closed', async () => {
  const app = trellis()
  const { port } = await listen(app)
  try {
    const body = JSON.stringify({ error: 'Bad Request', message: 'Client Error', statusCode: 400 })
    const raw = await rawRequest(port, 'oooops!\r\n\r\n')
    assert.equal(raw, `HTTP/1.1 400 Bad Request\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n${body}`)
  } finally { await app.close() }
})

test('clientErrorHandler option replaces the answer to malformed HTTP; this is the instance', async () => {
  let self: unknown
  const app = trellis({
    clientErrorHandler (this: unknown, _err: Error, socket) { self = this; socket.end('HTTP/1.1 418 I\'m a Teapot\r\nContent-Length: 0\r\n\r\n') }
  })
  const { port } = await listen(app)
  try {
    const raw = await rawRequest(port, 'oooops!\r\n\r\n')
    assert.match(raw, /^HTTP\/1.1 418/)
    assert.equal(self, app)
  } finally { await app.close() }
})

test('malformed HTTP after a first request on a keep-alive connection still gets the 400 answer', async () => {
  const app = trellis()
  app.get('/', async () => 'OK\n')
  const { port } = await listen(app)
  try {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1')
      let text = ''
      socket.on('data', (chunk: Buffer) => {
        const first = text === ''
        text += chunk.toString('latin1')
        // the second (malformed) request only once the first response arrived
        if (first) socket.write('GET /?a b HTTP/1.1\r\nHost: x\r\n\r\n')
      })
      socket.on('close', () => resolve(text))
      socket.on('error', reject)
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n')
    })
    assert.match(raw, /^HTTP\/1.1 200 OK.*HTTP\/1.1 400 Bad Request/s)
  } finally { await app.close() }
})

test('malformed HTTP pipelined right behind a good request: the 200 is sent whole, then the 400 (Fastify 4.29)', async () => {
  const app = trellis({ keepAliveTimeout: 100 })
  app.get('/', async () => 'OK\n')
  const { port } = await listen(app)
  try {
    const raw = await rawRequest(port, 'GET / HTTP/1.1\r\nHost: example.com\r\n\r\n\r\nGET /?a b HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n\r\n')
    assert.match(raw, /^HTTP\/1.1 200 OK.*\r\n\r\nOK\n.*HTTP\/1.1 400 Bad Request/s)
  } finally { await app.close() }
})

test('client errors on a reset or destroyed socket are left alone', () => {
  const app = trellis()
  const calls: string[] = []
  const socket = { destroyed: true, writable: false, write () { calls.push('write') }, end () { calls.push('end') }, destroy () { calls.push('destroy') } }
  app.server.emit('clientError', new Error('late'), socket)
  app.server.emit('clientError', Object.assign(new Error('reset'), { code: 'ECONNRESET' }), { ...socket, destroyed: false, writable: true })
  assert.deepEqual(calls, [])
})
