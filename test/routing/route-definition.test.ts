import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { errorCodes } from '../../src/index'
import { listen, request } from '../helpers'

test('route(options) with one method and with several methods', async () => {
  const app = trellis()
  app.route({ method: 'GET', url: '/one', handler: async () => 'one' })
  app.route({ method: ['POST', 'PUT'], url: '/many', handler: async (req) => req.method })
  assert.equal((await app.inject('/one')).body, 'one')
  assert.equal((await app.inject({ method: 'POST', url: '/many' })).body, 'POST')
  assert.equal((await app.inject({ method: 'PUT', url: '/many' })).body, 'PUT')
  assert.equal((await app.inject({ method: 'GET', url: '/many' })).statusCode, 404)
  await app.close()
})

test('route accepts a lowercase method and `path` instead of `url`', async () => {
  const app = trellis()
  app.route({ method: 'get', path: '/p', handler: async () => 'p' } as never)
  assert.equal((await app.inject('/p')).body, 'p')
  await app.close()
})

test('shorthands: get, head, post, put, delete, options, patch with (path, handler) and (path, options, handler)', async () => {
  const app = trellis()
  const methods = ['get', 'post', 'put', 'delete', 'options', 'patch'] as const
  for (const m of methods) {
    app[m]('/short', async (req) => `${req.method}`)
    app[m]('/with-opts', { config: { m } }, async (req) => `${req.method}:${String(req.routeConfig.m)}`)
  }
  app.head('/head-only', async (_req, reply) => { reply.header('x-head', '1'); return '' })
  for (const m of methods) {
    const method = m.toUpperCase() as 'GET'
    assert.equal((await app.inject({ method, url: '/short' })).body, method)
    assert.equal((await app.inject({ method, url: '/with-opts' })).body, `${method}:${m}`)
  }
  const head = await app.inject({ method: 'HEAD', url: '/head-only' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.headers['x-head'], '1')
  await app.close()
})

test('handler in the options object of a shorthand', async () => {
  const app = trellis()
  app.get('/h', { handler: async () => 'from options' } as never)
  assert.equal((await app.inject('/h')).body, 'from options')
  await app.close()
})

test('a handler both in options and as argument is refused', () => {
  const app = trellis()
  assert.throws(() => app.get('/x', { handler: async () => 'a' } as never, async () => 'b'), /Duplicate handler/)
})

test('all() answers every supported method', async () => {
  const app = trellis()
  app.all('/any', async (req) => req.method)
  for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    assert.equal((await app.inject({ method: method as 'GET', url: '/any' })).body, method)
  }
  const head = await app.inject({ method: 'HEAD', url: '/any' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.body, '')
  await app.close()
})

test('missing handler and unsupported method are refused with codes', () => {
  const app = trellis()
  assert.throws(() => app.route({ method: 'GET', url: '/' } as never), (err: any) => err instanceof errorCodes.FST_ERR_ROUTE_MISSING_HANDLER)
  assert.throws(() => app.route({ method: 'BREW' as never, url: '/', handler: async () => 'x' }), (err: any) => err instanceof errorCodes.FST_ERR_ROUTE_METHOD_NOT_SUPPORTED && err.code === 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED')
  assert.throws(() => app.route({ method: 'GET', url: 42 as never, handler: async () => 'x' }), { code: 'FST_ERR_INVALID_URL' })
})

test('duplicate route fails with FST_ERR_DUPLICATED_ROUTE', async () => {
  const app = trellis()
  app.get('/dup', async () => 'a')
  assert.throws(() => app.get('/dup', async () => 'b'), (err: any) => {
    assert.ok(err instanceof errorCodes.FST_ERR_DUPLICATED_ROUTE)
    assert.equal(err.code, 'FST_ERR_DUPLICATED_ROUTE')
    assert.match(err.message, /GET/)
    assert.match(err.message, /\/dup/)
    return true
  })
  await app.close()
})

test('duplicate route in a plugin fails ready()', async () => {
  const app = trellis()
  app.get('/dup', async () => 'a')
  app.register(async (child) => { child.get('/dup', async () => 'b') })
  await assert.rejects(app.ready(), { code: 'FST_ERR_DUPLICATED_ROUTE' })
})

test('body schema on GET (and HEAD) is refused with FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED (Fastify 4.29)', () => {
  const app = trellis()
  const schema = { body: { type: 'object' } }
  assert.throws(() => app.get('/', { schema }, async () => 'x'), (err: any) => err instanceof errorCodes.FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED)
  assert.throws(() => app.route({ method: 'HEAD', url: '/', schema, handler: async () => 'x' }), { code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED' })
})

test('adding a route after the server started fails with FST_ERR_INSTANCE_ALREADY_LISTENING (Fastify 4.29)', async () => {
  const app = trellis()
  await app.ready()
  assert.throws(() => app.get('/late', async () => 'x'), (err: any) => {
    assert.ok(err instanceof errorCodes.FST_ERR_INSTANCE_ALREADY_LISTENING)
    assert.equal(err.message, 'Fastify instance is already listening. Cannot add route!')
    return true
  })
  await app.close()
})

test('adding a route after listen fails too', async () => {
  const app = trellis()
  app.get('/', async () => 'x')
  const { port } = await listen(app)
  try {
    assert.throws(() => app.post('/late', async () => 'x'), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING' })
    assert.equal((await request(port)).body, 'x')
  } finally { await app.close() }
})

test('hasRoute', async () => {
  const app = trellis()
  app.get('/users/:id', async () => 'x')
  app.get('/v', { constraints: { version: '1.0.0' } }, async () => 'x')
  assert.equal(app.hasRoute({ method: 'GET', url: '/users/:id' }), true)
  assert.equal(app.hasRoute({ method: 'get', url: '/users/:id' }), true)
  assert.equal(app.hasRoute({ method: 'POST', url: '/users/:id' }), false)
  assert.equal(app.hasRoute({ method: 'GET', url: '/users' }), false)
  assert.equal(app.hasRoute({ method: 'GET', url: '/v', constraints: { version: '1.0.0' } }), true)
  assert.equal(app.hasRoute({ method: 'GET', url: '/v', constraints: { version: '2.0.0' } }), false)
  await app.close()
})

test('printRoutes prints the radix tree (commonPrefix: false prints by route)', async () => {
  const app = trellis()
  app.get('/test', async () => 'x')
  app.get('/test/hello', async () => 'x')
  app.post('/other', async () => 'x')
  app.get('/hello/world', async () => 'x')
  await app.ready()
  assert.equal(app.printRoutes(), [
    '└── /',
    '    ├── test (GET, HEAD)',
    '    │   └── /hello (GET, HEAD)',
    '    ├── other (POST)',
    '    └── hello/world (GET, HEAD)',
    ''
  ].join('\n'))
  assert.equal(app.printRoutes({ commonPrefix: false }), [
    '├── /test (GET, HEAD)',
    '│   └── /hello (GET, HEAD)',
    '├── /other (POST)',
    '└── /hello/world (GET, HEAD)',
    ''
  ].join('\n'))
  await app.close()
})

test('routes are chainable', async () => {
  const app = trellis()
  const r = app.get('/a', async () => 'a').post('/b', async () => 'b')
  assert.equal(r, app)
  await app.close()
})

test('hasRoute answers as findRoute does (Fastify 4.29): a URL that a parametric or regexp route matches counts', () => {
  const app = trellis()
  app.get('/example/:file(^\\d+).png', async () => 'x')
  assert.equal(app.hasRoute({ method: 'GET', url: '/example/12345.png' }), true)
  assert.equal(app.hasRoute({ method: 'GET', url: '/example/abc.png' }), false)
  assert.equal(app.hasRoute({ method: 'get', url: '/example/1.png' }), true)
  assert.equal(app.hasRoute({} as never), false)
  assert.equal(app.hasRoute({ method: 'GET' } as never), false)
})

test('ready(cb) and ready().then() called in turn settle in call order', async () => {
  const app = trellis()
  const order: number[] = []
  for (const n of [1, 2, 3, 4, 5, 6]) {
    if (n % 2 === 1) app.ready(() => { order.push(n) })
    else void app.ready().then(() => { order.push(n) })
  }
  await app.ready()
  assert.deepEqual(order, [1, 2, 3, 4, 5, 6])
})

test('errorHandler and childLoggerFactory are read-only accessors of the instance itself', () => {
  const app: any = trellis()
  for (const name of ['errorHandler', 'childLoggerFactory']) {
    const descriptor = Object.getOwnPropertyDescriptor(app, name)
    assert.equal(typeof descriptor?.get, 'function', name)
    assert.equal(descriptor?.set, undefined, name)
    assert.equal(typeof app[name], 'function', name)
  }
})
