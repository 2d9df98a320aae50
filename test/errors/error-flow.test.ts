import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

test('the default error payload goes through the route context onSend hooks', async () => {
  const app = trellis()
  let calls = 0
  app.register(async (child) => {
    child.addHook('onSend', async (_req, _reply, payload) => { calls++; return payload })
    child.get('/', async () => { throw Object.assign(new Error('gone'), { statusCode: 404 }) })
  })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 404)
  assert.equal(calls, 1)
  assert.deepEqual(res.json(), { statusCode: 404, error: 'Not Found', message: 'gone' })
  await app.close()
})

test('a custom error handler receives the rejected value as is (null, undefined, primitives)', async () => {
  for (const value of [null, undefined, 0, 'abc']) {
    const app = trellis()
    let seen: unknown = Symbol('unset')
    app.get('/', () => Promise.reject(value))
    app.setErrorHandler((err, _req, reply) => { seen = err; reply.code(500).send('error') })
    const res = await app.inject('/')
    assert.equal(seen, value)
    assert.equal(res.statusCode, 500)
    assert.equal(res.body, 'error')
    await app.close()
  }
})

test('the default error handler answers a rejected null with a JSON 500', async () => {
  const app = trellis()
  app.get('/', () => Promise.reject(null)) // eslint-disable-line prefer-promise-reject-errors
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().code, 'FST_ERR_SEND_UNDEFINED_ERR')
  await app.close()
})
