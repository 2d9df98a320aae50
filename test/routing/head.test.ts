import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import trellis from '../../src/index'

test('a GET route gets an automatic HEAD route with the same headers and no body', async () => {
  const app = trellis()
  app.get('/', async (_req, reply) => { reply.header('x-custom', 'v'); return { hello: 'world' } })
  const get = await app.inject('/')
  const head = await app.inject({ method: 'HEAD', url: '/' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.body, '')
  assert.equal(head.headers['x-custom'], 'v')
  assert.equal(head.headers['content-type'], get.headers['content-type'])
  assert.equal(head.headers['content-length'], get.headers['content-length'])
  await app.close()
})

test('automatic HEAD for a stream body sends no body', async () => {
  const app = trellis()
  app.get('/s', async (_req, reply) => { reply.type('text/plain'); return Readable.from(['abc', 'def']) })
  const head = await app.inject({ method: 'HEAD', url: '/s' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.body, '')
  await app.close()
})

test('an explicit HEAD route replaces the automatic one (declared before or after GET)', async () => {
  const after = trellis()
  after.get('/', async () => 'get body')
  after.head('/', async (_req, reply) => { reply.header('x-from', 'head'); return '' })
  const r1 = await after.inject({ method: 'HEAD', url: '/' })
  assert.equal(r1.headers['x-from'], 'head')
  await after.close()

  const before = trellis()
  before.head('/', async (_req, reply) => { reply.header('x-from', 'head'); return '' })
  before.get('/', async () => 'get body')
  const r2 = await before.inject({ method: 'HEAD', url: '/' })
  assert.equal(r2.headers['x-from'], 'head')
  assert.equal((await before.inject('/')).body, 'get body')
  await before.close()
})

test('exposeHeadRoute: false on a route disables its HEAD route', async () => {
  const app = trellis()
  app.get('/no', { exposeHeadRoute: false }, async () => 'x')
  app.get('/yes', async () => 'x')
  assert.equal((await app.inject({ method: 'HEAD', url: '/no' })).statusCode, 404)
  assert.equal((await app.inject({ method: 'HEAD', url: '/yes' })).statusCode, 200)
  await app.close()
})

test('exposeHeadRoute: true on a route overrides exposeHeadRoutes: false', async () => {
  const app = trellis({ exposeHeadRoutes: false })
  app.get('/yes', { exposeHeadRoute: true }, async () => 'x')
  assert.equal((await app.inject({ method: 'HEAD', url: '/yes' })).statusCode, 200)
  await app.close()
})

test('an unconstrained HEAD route answers HEAD for a constrained GET route declared after it (no automatic HEAD)', async () => {
  const app = trellis()
  app.route({ method: 'HEAD', url: '/', handler: (_req, reply) => { reply.header('x-from', 'head').type('text/plain').send('custom') } })
  app.route({ method: 'GET', url: '/', constraints: { host: 'fastify.io' }, handler: async () => ({ hello: 'world' }) })
  const head = await app.inject({ method: 'HEAD', url: '/', headers: { host: 'fastify.io' } })
  assert.equal(head.statusCode, 200)
  assert.equal(head.headers['x-from'], 'head')
  assert.equal(head.headers['content-type'], 'text/plain')
  await app.close()
})

test('exposeHeadRoute: true on a GET route whose HEAD route the application already declared warns FSTDEP007', async () => {
  const codes: string[] = []
  const listener = (w: Error & { code?: string }): void => { if (w.name === 'DeprecationWarning' && w.code !== undefined) codes.push(w.code) }
  process.on('warning', listener)
  try {
    const app = trellis()
    app.head('/', async (_req, reply) => { reply.header('x-from', 'head'); return '' })
    app.get('/', { exposeHeadRoute: true }, async () => 'get')
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(codes, ['FSTDEP007'])
    assert.equal((await app.inject({ method: 'HEAD', url: '/' })).headers['x-from'], 'head')
    await app.close()
  } finally {
    process.off('warning', listener)
  }
})

test('the automatic HEAD route is built from the options as given, not as onRoute hooks changed them for GET (Fastify 4.29)', async () => {
  const app: any = trellis()
  const lengths: Array<[string, number]> = []
  app.addHook('onRoute', (opts: any) => {
    if (Array.isArray(opts.onRequest)) opts.onRequest.push(async () => {})
    else opts.onRequest = [async (_req: any, reply: any) => { reply.header('x-on-request', 'yes') }]
  })
  app.addHook('onRoute', (opts: any) => { lengths.push([opts.method, opts.onRequest.length]) })
  app.get('/coffee', async () => 'hello world')
  assert.deepEqual(lengths, [['GET', 1], ['HEAD', 1]])
  const head = await app.inject({ method: 'HEAD', url: '/coffee' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.headers['x-on-request'], 'yes')
  assert.equal(head.headers['content-length'], '11')
})
