import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import trellis from '../../src/index'
import { listen } from '../helpers'

// Responses carry no 'finish' listener of their own (src/lifecycle/handle-request.ts): while the
// server closes, src/server/closing.ts closes each connection a finished response leaves idle.
// Here close() begins in the handler, right after send(); test/server/lifecycle.test.ts covers a
// request still in flight when close() begins.

for (const withHook of [false, true]) {
  test(`close() called right after send does not wait for the keep-alive timeout${withHook ? ' (route with onResponse hook)' : ''}`, async () => {
    const app = trellis()
    let closing: Promise<void> | undefined
    let t0 = 0
    if (withHook) app.addHook('onResponse', (_req, _reply, done) => { done() })
    app.get('/', function (_req, reply) {
      reply.send('bye')
      t0 = Date.now()
      closing = app.close()
    })
    const { port } = await listen(app)
    const agent = new http.Agent({ keepAlive: true })
    const body = await new Promise<string>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
        let b = ''
        res.on('data', (c) => { b += c })
        res.on('end', () => resolve(b))
      }).on('error', reject)
    })
    assert.equal(body, 'bye')
    await closing
    const elapsed = Date.now() - t0
    agent.destroy()
    assert.ok(elapsed < 2000, `close took ${elapsed} ms`)
  })
}

test('close() right after sending a large body to a slow reader: the whole body arrives (node would count the connection idle once the response ended)', async () => {
  const app = trellis()
  const big = Buffer.alloc(8 * 1024 * 1024, 97)
  let closing: Promise<void> | undefined
  app.get('/', function (_req, reply) {
    reply.send(big)
    closing = app.close()
  })
  const { port } = await listen(app)
  const agent = new http.Agent({ keepAlive: true })
  const received = await new Promise<number>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      let n = 0
      // the client reads nothing for a while: the body waits in the server's socket
      res.pause()
      setTimeout(() => res.resume(), 600)
      res.on('data', (c: Buffer) => { n += c.length })
      res.on('end', () => resolve(n))
      res.on('error', reject)
      res.on('aborted', () => reject(new Error(`response cut after ${n} bytes`)))
    }).on('error', reject)
  })
  assert.equal(received, big.length)
  await closing
  agent.destroy()
})
