/**
 * @fastify/sensible 5 (`fastify: '4.x'`) on trellis: httpErrors thrown or sent through reply
 * helpers answer with Fastify's default error body, `assert` and `to`, and the reply helpers
 * vary / cacheControl / preventCache.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/sensible'))
  app.get('/thrown', async () => { throw app.httpErrors.notFound('no such item') })
  app.get('/reply', (_req: any, reply: any) => { reply.badRequest('bad input') })
  app.get('/teapot', async (_req: any, reply: any) => reply.imateapot())
  app.get('/assert', async (req: any) => { app.assert(req.query.n === '1', 403, 'n must be 1'); return { ok: true } })
  app.get('/to', async () => {
    const [err, value] = await app.to(Promise.reject(new Error('x')))
    const [err2, value2] = await app.to(Promise.resolve(42))
    return { err: err.message, value: value ?? null, err2, value2 }
  })
  app.get('/headers', async (_req: any, reply: any) => {
    reply.vary('Accept') // returns nothing in sensible 5, so no chaining
    reply.cacheControl('public').cacheControl('max-age', 60)
    return { ok: true }
  })
  app.get('/nocache', async (_req: any, reply: any) => { reply.preventCache(); return { ok: true } })
  return app
}

test('httpErrors thrown from a handler and sent by reply helpers', async () => {
  const app = await build()
  const thrown = await app.inject({ url: '/thrown' })
  assert.equal(thrown.statusCode, 404)
  assert.deepEqual(thrown.json(), { statusCode: 404, error: 'Not Found', message: 'no such item' })
  const sent = await app.inject({ url: '/reply' })
  assert.equal(sent.statusCode, 400)
  assert.deepEqual(sent.json(), { statusCode: 400, error: 'Bad Request', message: 'bad input' })
  const teapot = await app.inject({ url: '/teapot' })
  assert.equal(teapot.statusCode, 418)
  await app.close()
})

test('assert and to', async () => {
  const app = await build()
  assert.equal((await app.inject({ url: '/assert?n=1' })).statusCode, 200)
  const denied = await app.inject({ url: '/assert?n=2' })
  assert.equal(denied.statusCode, 403)
  assert.equal(denied.json().message, 'n must be 1')
  assert.deepEqual((await app.inject({ url: '/to' })).json(), { err: 'x', value: null, err2: null, value2: 42 })
  await app.close()
})

test('reply.vary, cacheControl and preventCache set the headers', async () => {
  const app = await build()
  const res = await app.inject({ url: '/headers' })
  assert.equal(res.headers.vary, 'Accept')
  assert.equal(res.headers['cache-control'], 'public, max-age=60')
  const nc = await app.inject({ url: '/nocache' })
  assert.equal(nc.headers['cache-control'], 'no-store, max-age=0, private')
  assert.equal(nc.headers.pragma, 'no-cache')
  assert.equal(nc.headers.expires, '0')
  await app.close()
})
