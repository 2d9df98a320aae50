/**
 * @fastify/etag 5 and @fastify/caching 8 (`fastify: '4.x'`) on trellis: a strong ETag computed from
 * the payload and a 304 without a body for a matching If-None-Match; caching's Cache-Control
 * header, `reply.etag()` and its 304, and its `app.cache` store. Over inject and a real socket.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

async function etagApp (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/etag'))
  app.get('/data', async (req: any) => ({ v: req.query.v ?? 'a' }))
  return app
}

async function cachingApp (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/caching'), { privacy: 'private', expiresIn: 300 })
  app.get('/c', async (_req: any, reply: any) => { reply.etag('v1'); return { cached: true } })
  return app
}

test('etag: a payload ETag, then 304 with no body for If-None-Match; a changed payload gets a new tag', async () => {
  const app = await etagApp()
  const first = await app.inject({ url: '/data' })
  const tag = String(first.headers.etag)
  assert.match(tag, /^"[^"]+"$/)
  const again = await app.inject({ url: '/data', headers: { 'if-none-match': tag } })
  assert.equal(again.statusCode, 304)
  assert.equal(again.body, '')
  const other = await app.inject({ url: '/data?v=b', headers: { 'if-none-match': tag } })
  assert.equal(other.statusCode, 200)
  assert.notEqual(other.headers.etag, tag)
  await app.close()
})

test('etag over a real socket: the 304 has no body and no content-length mismatch', async (t) => {
  const app = await etagApp()
  t.after(() => app.close())
  const { port } = await listen(app)
  const first = await request(port, { path: '/data' })
  const res = await request(port, { path: '/data', headers: { 'if-none-match': String(first.headers.etag) } })
  assert.equal(res.statusCode, 304)
  assert.equal(res.body, '')
  assert.equal(res.headers.etag, first.headers.etag)
})

test('caching: Cache-Control from the options, reply.etag and its 304, the cache store', async () => {
  const app = await cachingApp()
  const res = await app.inject({ url: '/c' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['cache-control'], 'private, max-age=300')
  assert.equal(res.headers.etag, 'v1')
  const cond = await app.inject({ url: '/c', headers: { 'if-none-match': 'v1' } })
  assert.equal(cond.statusCode, 304)
  assert.equal(cond.body, '')
  await new Promise<void>((resolve, reject) => app.cache.set('k', { n: 1 }, 10000, (err: Error | null) => err ? reject(err) : resolve()))
  const got = await new Promise<any>((resolve, reject) => app.cache.get('k', (err: Error | null, v: any) => err ? reject(err) : resolve(v)))
  assert.deepEqual(got.item, { n: 1 })
  await app.close()
})
