import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

test('inject returns a promise (and boots the app)', async () => {
  const app = trellis()
  app.get('/', async () => ({ hello: 'world' }))
  const res = await app.inject({ method: 'GET', url: '/' })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { hello: 'world' })
  await app.close()
})

test('inject with a callback', async () => {
  const app = trellis()
  app.get('/', async () => 'cb')
  const res: any = await new Promise((resolve, reject) => {
    const r = app.inject({ url: '/' }, (err: Error | null | undefined, response?: unknown) => err !== null ? reject(err) : resolve(response))
    assert.equal(r, undefined)
  })
  assert.equal(res.body, 'cb')
  await app.close()
})

test('inject chain style', async () => {
  const app = trellis()
  app.post('/', async (req) => ({ got: req.body, h: req.headers['x-h'], q: req.query }))
  const res = await app.inject().post('/').query({ a: '1' }).headers({ 'x-h': 'v' }).payload({ p: true })
  assert.deepEqual(res.json(), { got: { p: true }, h: 'v', q: { a: '1' } })
  const res2: any = await new Promise((resolve) => app.inject().get('/nope').end((_err: unknown, r: unknown) => resolve(r)))
  assert.equal(res2.statusCode, 404)
  await app.close()
})

test('inject with a URL string', async () => {
  const app = trellis()
  app.get('/s', async () => 's')
  assert.equal((await app.inject('/s')).body, 's')
  await app.close()
})

test('inject surfaces boot errors', async () => {
  const app = trellis()
  app.register(async () => { throw new Error('plugin failed') })
  await assert.rejects(app.inject('/'), /plugin failed/)
  await new Promise<void>((resolve) => {
    const app2 = trellis()
    app2.register(async () => { throw new Error('plugin failed 2') })
    app2.inject('/', (err) => { assert.match(String(err), /plugin failed 2/); resolve() })
  })
})

test('inject after close fails with FST_ERR_REOPENED_CLOSE_SERVER', async () => {
  const app = trellis()
  app.get('/', async () => 'x')
  await app.ready()
  await app.close()
  await assert.rejects(app.inject('/'), { code: 'FST_ERR_REOPENED_CLOSE_SERVER' })
})

test('inject while the instance is closing is refused at once with "Server is closed"', async () => {
  const app: any = trellis()
  let finishClose: () => void = () => {}
  app.addHook('onClose', (_i: unknown, done: () => void) => { finishClose = done })
  app.get('/', async () => 'x')
  assert.equal((await app.inject('/')).statusCode, 200)
  const closing = app.close()
  await new Promise((resolve) => setImmediate(resolve))
  await assert.rejects(app.inject('/'), { code: 'FST_ERR_REOPENED_CLOSE_SERVER', message: 'Server is closed' })
  const viaCallback = await new Promise<Error | null>((resolve) => app.inject('/', (err: Error | null) => resolve(err)))
  assert.equal(viaCallback?.message, 'Server is closed')
  finishClose()
  await closing
})

test('an array header value reaches the handler joined with a bare comma, as in Fastify 4 (light-my-request 5)', async () => {
  const app = trellis()
  app.get('/', async (req) => ({ x: req.headers.x, raw: req.raw.rawHeaders.slice(0, 2) }))
  const res = await app.inject({ url: '/', headers: { x: ['a', 'b'] } })
  assert.deepEqual(res.json(), { x: 'a,b', raw: ['x', 'a,b'] })
  await app.close()
})

test('inject cookies option becomes one cookie header', async () => {
  const app = trellis()
  app.get('/', async (req) => ({ cookie: req.headers.cookie }))
  const res = await app.inject({ url: '/', cookies: { a: '1', b: 'x y' }, headers: { cookie: 'z=0' } })
  assert.deepEqual(res.json(), { cookie: 'z=0; a=1; b=x%20y' })
  await app.close()
})
