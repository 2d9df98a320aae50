import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, rawRequest, parseRaw, request } from '../helpers'

test('default 404 payload', async () => {
  const app = trellis()
  app.get('/exists', async () => 'x')
  const res = await app.inject('/x')
  assert.equal(res.statusCode, 404)
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.deepEqual(res.json(), { message: 'Route GET:/x not found', error: 'Not Found', statusCode: 404 })
  const post = await app.inject({ method: 'POST', url: '/exists?a=1' })
  assert.deepEqual(post.json(), { message: 'Route POST:/exists?a=1 not found', error: 'Not Found', statusCode: 404 })
  await app.close()
})

test('setNotFoundHandler replaces the 404 answer and gets hooks of its context', async () => {
  const app = trellis()
  const hooks: string[] = []
  app.addHook('onRequest', async () => { hooks.push('onRequest') })
  app.setNotFoundHandler((req, reply) => { reply.code(404).send({ custom: true, url: req.url }) })
  const res = await app.inject('/nowhere?q=1')
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { custom: true, url: '/nowhere?q=1' })
  assert.deepEqual(hooks, ['onRequest'])
  await app.close()
})

test('setNotFoundHandler with preValidation/preHandler options', async () => {
  const app = trellis()
  const order: string[] = []
  app.setNotFoundHandler({
    preValidation: async () => { order.push('preValidation') },
    preHandler: async () => { order.push('preHandler') }
  }, async (_req, reply) => { order.push('handler'); reply.code(404); return 'nope' })
  const res = await app.inject('/missing')
  assert.equal(res.body, 'nope')
  assert.deepEqual(order, ['preValidation', 'preHandler', 'handler'])
  await app.close()
})

test('404 handlers are encapsulated by prefix', async () => {
  const app = trellis()
  app.setNotFoundHandler((_req, reply) => { reply.code(404).send('root 404') })
  app.register(async (api) => {
    api.setNotFoundHandler((_req, reply) => { reply.code(404).send('api 404') })
    api.get('/ok', async () => 'ok')
  }, { prefix: '/api' })
  app.register(async (web) => { web.get('/ok', async () => 'ok') }, { prefix: '/web' })
  assert.equal((await app.inject('/api/missing')).body, 'api 404')
  assert.equal((await app.inject('/api')).body, 'api 404')
  assert.equal((await app.inject('/web/missing')).body, 'root 404')
  assert.equal((await app.inject('/other')).body, 'root 404')
  assert.equal((await app.inject('/apix')).body, 'root 404')
  await app.close()
})

test('a second 404 handler for the same prefix is refused', () => {
  const app = trellis()
  app.setNotFoundHandler((_req, reply) => { reply.code(404).send('a') })
  assert.throws(() => app.setNotFoundHandler((_req, reply) => { reply.code(404).send('b') }), /already set/)
})

test('an error in the 404 handler goes to the error handler', async () => {
  const app = trellis()
  app.setNotFoundHandler(async () => { throw Object.assign(new Error('404 broke'), { statusCode: 400 }) })
  app.setErrorHandler((error, _r, reply) => { reply.code(400).send({ caught: error.message }) })
  const res = await app.inject('/missing')
  assert.equal(res.statusCode, 400)
  assert.deepEqual(res.json(), { caught: '404 broke' })
  await app.close()
})

test('bad URL encoding in a path gives 400 with a JSON body (inject)', async () => {
  const app = trellis()
  app.get('/:id', async (req) => req.params)
  app.get('/static/%zz', async () => 'literal')
  const res = await app.inject('/%zz')
  assert.equal(res.statusCode, 400)
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  const body = res.json()
  assert.equal(body.statusCode, 400)
  assert.equal(body.error, 'Bad Request')
  assert.equal(body.message, "'/%zz' is not a valid url component")
  assert.equal(body.code, 'FST_ERR_BAD_URL')
  await app.close()
})

test('a request no route matches is a 404 whatever its content type (Fastify 4.29: no 415), on inject and a real socket', async () => {
  const app = trellis()
  app.post('/known', async () => 'x')
  const res = await app.inject({ method: 'POST', url: '/unknown', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--' })
  assert.equal(res.statusCode, 404)
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(res.json().message, 'Route POST:/unknown not found')
  // a known route still refuses the media type
  assert.equal((await app.inject({ method: 'POST', url: '/known', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--' })).statusCode, 415)
  const { port } = await listen(app)
  try {
    const raw = await rawRequest(port, 'POST /unknown HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-unknown\r\nContent-Length: 5\r\n\r\nhello' +
      'GET /unknown2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    const answers = raw.split(/(?=HTTP\/1\.1 )/)
    assert.equal(answers.length, 2, raw)
    assert.match(answers[0], /^HTTP\/1\.1 404 /)
    assert.match(answers[1], /^HTTP\/1\.1 404 /)
    assert.match(answers[1], /Route GET:\/unknown2 not found/)
  } finally {
    await app.close()
  }
})

test('bad URL encoding over a real socket gives 400 JSON and the server keeps serving', async () => {
  const app = trellis()
  app.get('/:id', async (req) => req.params)
  const { port } = await listen(app)
  try {
    const raw = parseRaw(await rawRequest(port, 'GET /%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'))
    assert.equal(raw.statusCode, 400)
    assert.match(raw.headers['content-type'], /^application\/json/)
    const body = JSON.parse(raw.body)
    assert.equal(body.statusCode, 400)
    assert.equal(body.error, 'Bad Request')
    const ok = await request(port, { path: '/abc' })
    assert.deepEqual(JSON.parse(ok.body), { id: 'abc' })
  } finally { await app.close() }
})

test('a bad URL containing quotes and backslashes still gives valid JSON', async () => {
  const app = trellis()
  app.get('/:id', async (req) => req.params)
  for (const url of ['/%zz"}', '/%E0%A4%A"\\', '/%']) {
    const res = await app.inject(url)
    assert.equal(res.statusCode, 400, url)
    const body = JSON.parse(res.body)
    assert.equal(body.statusCode, 400)
    assert.equal(body.error, 'Bad Request')
  }
  await app.close()
})

test('setNotFoundHandler({ errorHandler }) gives the 404 route its own error handler, before the instance\'s (Fastify 4.29)', async () => {
  const app = trellis()
  const seen: string[] = []
  app.setErrorHandler((err, _req, reply) => { seen.push('instance:' + err.message); reply.code(500).send({ from: 'instance' }) })
  app.setNotFoundHandler({
    errorHandler (this: unknown, err: Error, _req: unknown, reply: any) { seen.push('404:' + err.message + ':' + String(this === app)); return reply.code(401).send({ error: 'Unauthorized' }) }
  } as never, async () => { throw new Error('not reached') })
  app.addHook('preValidation', async () => { throw new Error('kaboom') })
  app.get('/known', async () => 'x')
  const res = await app.inject('/missing')
  assert.equal(res.statusCode, 401)
  assert.deepEqual(res.json(), { error: 'Unauthorized' })
  // a route's errors still go to the instance's handler
  assert.equal((await app.inject('/known')).statusCode, 500)
  assert.deepEqual(seen, ['404:kaboom:true', 'instance:kaboom'])
})
