/**
 * @fastify/response-validation 2 (`fastify: '4.x'`) on trellis: payloads are checked against the
 * route's response schema (by status code) before they are sent; a payload that does not match
 * is a 500 naming the problem; matching payloads pass unchanged.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'

test('a valid payload is sent; an invalid one becomes a 500 with the validation message', async () => {
  const app: any = trellis()
  await app.register(plugin('@fastify/response-validation'))
  app.get('/item', {
    schema: { response: { '2xx': { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } } } } }
  }, async (req: any) => req.query.bad ? { name: 'no id' } : { id: 1, name: 'ok' })
  const ok = await app.inject({ url: '/item' })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { id: 1, name: 'ok' })
  const bad = await app.inject({ url: '/item?bad=1' })
  assert.equal(bad.statusCode, 500)
  assert.match(bad.json().message, /response must have required property 'id'/)
  await app.close()
})
