import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

test('route-level hooks run after the context hooks, only for that route', async () => {
  const app = trellis()
  const order: string[] = []
  app.addHook('onRequest', async () => { order.push('ctx:onRequest') })
  app.get('/hooked', {
    onRequest: async () => { order.push('route:onRequest') },
    preValidation: [async () => { order.push('route:preValidation1') }, async () => { order.push('route:preValidation2') }],
    preHandler: (_req: unknown, _reply: unknown, done: () => void) => { order.push('route:preHandler'); done() },
    preSerialization: async (_req: unknown, _reply: unknown, payload: any) => { order.push('route:preSerialization'); return { ...payload, ser: true } },
    onSend: async (_req: unknown, _reply: unknown, payload: any) => { order.push('route:onSend'); return payload },
    onResponse: async () => { order.push('route:onResponse') }
  } as never, async () => { order.push('handler'); return { ok: true } })
  app.get('/plain', async () => { order.push('plain'); return 'x' })
  const res = await app.inject('/hooked')
  assert.deepEqual(res.json(), { ok: true, ser: true })
  await new Promise((resolve) => setImmediate(resolve))
  assert.deepEqual(order, ['ctx:onRequest', 'route:onRequest', 'route:preValidation1', 'route:preValidation2', 'route:preHandler', 'handler', 'route:preSerialization', 'route:onSend', 'route:onResponse'])
  order.length = 0
  await app.inject('/plain')
  assert.deepEqual(order, ['ctx:onRequest', 'plain'])
  await app.close()
})

test('a route hook can answer early', async () => {
  const app = trellis()
  let handlerRan = false
  app.get('/', { preHandler: async (_req: unknown, reply: any) => { reply.code(401).send({ denied: true }) } } as never, async () => { handlerRan = true; return 'x' })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 401)
  assert.deepEqual(res.json(), { denied: true })
  assert.equal(handlerRan, false)
  await app.close()
})

test('a non-function route hook is refused', () => {
  const app = trellis()
  assert.throws(() => app.get('/', { preHandler: 'nope' } as never, async () => 'x'), /preHandler hook should be a function/)
})

test('config is exposed as request.routeConfig (with url and method) and is per route', async () => {
  const app = trellis()
  app.get('/a', { config: { name: 'a' } }, async (req) => req.routeConfig)
  app.get('/b', async (req) => req.routeConfig)
  assert.deepEqual((await app.inject('/a')).json(), { name: 'a', url: '/a', method: 'GET' })
  assert.deepEqual((await app.inject('/b')).json(), { url: '/b', method: 'GET' })
  await app.close()
})

test('config is also visible to hooks through request.routeConfig', async () => {
  const app = trellis()
  app.addHook('preHandler', async (req: any, reply: any) => {
    if (req.routeConfig.private === true) reply.code(403).send('forbidden')
  })
  app.get('/private', { config: { private: true } }, async () => 'secret')
  app.get('/public', async () => 'open')
  assert.equal((await app.inject('/private')).statusCode, 403)
  assert.equal((await app.inject('/public')).body, 'open')
  await app.close()
})

test('version constraint through Accept-Version (semver ranges)', async () => {
  const app = trellis()
  app.get('/', { constraints: { version: '1.2.0' } }, async () => 'v1.2')
  app.get('/', { constraints: { version: '2.0.0' } }, async () => 'v2')
  assert.equal((await app.inject({ url: '/', headers: { 'accept-version': '1.x' } })).body, 'v1.2')
  assert.equal((await app.inject({ url: '/', headers: { 'accept-version': '2.0.0' } })).body, 'v2')
  assert.equal((await app.inject({ url: '/', headers: { 'accept-version': '*' } })).body, 'v2')
  assert.equal((await app.inject({ url: '/', headers: { 'accept-version': '3.x' } })).statusCode, 404)
  await app.close()
})

test('a versioned route does not answer requests without Accept-Version when an unversioned one exists', async () => {
  const app = trellis()
  app.get('/', async () => 'plain')
  app.get('/', { constraints: { version: '1.0.0' } }, async () => 'versioned')
  assert.equal((await app.inject('/')).body, 'plain')
  assert.equal((await app.inject({ url: '/', headers: { 'accept-version': '1.0.0' } })).body, 'versioned')
  await app.close()
})

test('host constraint (string and RegExp)', async () => {
  const app = trellis()
  app.get('/', { constraints: { host: 'api.example.com' } }, async () => 'api')
  app.get('/', { constraints: { host: /^.*\.example\.org$/ } }, async () => 'org')
  app.get('/', async () => 'default')
  assert.equal((await app.inject({ url: '/', headers: { host: 'api.example.com' } })).body, 'api')
  assert.equal((await app.inject({ url: '/', headers: { host: 'www.example.org' } })).body, 'org')
  assert.equal((await app.inject({ url: '/', headers: { host: 'other.com' } })).body, 'default')
  await app.close()
})

test('route errorHandler handles errors of that route only', async () => {
  const app = trellis()
  app.get('/own', { errorHandler: (err: Error, _req: unknown, reply: any) => { reply.code(418).send({ own: err.message }) } }, async () => { throw new Error('x') })
  app.get('/other', async () => { throw new Error('y') })
  const own = await app.inject('/own')
  assert.equal(own.statusCode, 418)
  assert.deepEqual(own.json(), { own: 'x' })
  assert.equal((await app.inject('/other')).statusCode, 500)
  await app.close()
})

test('route logLevel applies to request.log', async () => {
  const app = trellis({ logger: { level: 'info', stream: { write () {} } } })
  app.get('/quiet', { logLevel: 'error' }, async (req) => req.log.level)
  app.get('/normal', async (req) => req.log.level)
  assert.equal((await app.inject('/quiet')).body, 'error')
  assert.equal((await app.inject('/normal')).body, 'info')
  await app.close()
})

test('onRoute hook sees the final route options and may change them', async () => {
  const app = trellis()
  const seen: Array<Record<string, unknown>> = []
  app.addHook('onRoute', (opts: any) => { seen.push({ method: opts.method, url: opts.url }); opts.config = { ...(opts.config ?? {}), added: true } })
  app.register(async (p) => { p.get('/x', async (req) => req.routeConfig) }, { prefix: '/p' })
  const res = await app.inject('/p/x')
  assert.equal(res.json().added, true)
  // like Fastify 4.3, the automatic HEAD route is a route of its own that onRoute hooks see
  assert.deepEqual(seen, [{ method: 'GET', url: '/p/x' }, { method: 'HEAD', url: '/p/x' }])
  await app.close()
})
