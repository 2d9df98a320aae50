import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { errorCodes } from '../../src/index'

test('sibling plugins of the same prefix level cannot both set a 404 handler', async () => {
  const app = trellis()
  let thrown: Error | undefined
  app.register(async (level) => {
    level.register(async (a) => { a.setNotFoundHandler((_req, reply) => { reply.code(404).send('a') }) })
    level.register(async (b) => {
      try { b.setNotFoundHandler((_req, reply) => { reply.code(404).send('b') }) } catch (err) { thrown = err as Error }
    })
  }, { prefix: '/prefix' })
  app.setNotFoundHandler((_req, reply) => { reply.code(404).send('root') })
  await app.ready()
  assert.equal(thrown?.message, "Not found handler already set for Fastify instance with prefix: '/prefix'")
  assert.equal((await app.inject('/prefix/nope')).body, 'a')
  assert.equal((await app.inject('/nope')).body, 'root')
  await app.close()
})

test('setNotFoundHandler without a handler (hooks only) does not take the level', async () => {
  const app = trellis()
  app.setNotFoundHandler({ preHandler: (_req, _reply, done) => { done() } })
  assert.doesNotThrow(() => app.setNotFoundHandler((_req, reply) => { reply.code(404).send('custom') }))
})

test('frameworkErrors receives FST_ERR_BAD_URL and may answer with callNotFound', async () => {
  let seen: Error | undefined
  const app = trellis({
    frameworkErrors: (error, _req, reply) => { seen = error; return reply.callNotFound() }
  })
  app.get('/hello/:id', async () => 'unreachable')
  const res = await app.inject('/hello/%world')
  assert.ok(seen instanceof errorCodes.FST_ERR_BAD_URL)
  assert.equal(seen?.message, "'/hello/%world' is not a valid url component")
  assert.equal(res.statusCode, 404)
  assert.equal(res.body, '404 Not Found')
  await app.close()
})

test('inject after ready throws synchronously on invalid options', async () => {
  const app = trellis()
  app.get('/', async () => 'ok')
  await app.ready()
  // light-my-request 5 (Fastify 4's) types the method as one of HTTPMethods
  assert.throws(() => app.inject({ method: 'UNKNWON_METHOD' as 'GET', url: '/' }, () => {}), Error)
  await app.close()
})
