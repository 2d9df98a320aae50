/**
 * Serializers are generated at ready() (an invalid response schema fails there) and turned into a
 * function on their first use; the result is the same either way.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

test('an invalid response schema still fails at ready(), not at the first request', async () => {
  for (const bad of [
    { type: 'object', properties: { a: { $ref: 'missing#' } } },
    { type: 'object', patternProperties: { '(': { type: 'string' } } },
    { type: 'strange' }
  ]) {
    const app = trellis()
    app.get('/', { schema: { response: { 200: bad } } }, async () => ({ a: 1 }))
    await assert.rejects(app.ready(), (err: Error & { code?: string }) => err.code === 'FST_ERR_SCH_SERIALIZATION_BUILD', JSON.stringify(bad))
  }
})

test('statuses that are declared but not yet answered do not stop the answered ones; each serializes by its schema', async () => {
  const app = trellis()
  app.get('/', {
    schema: {
      response: {
        200: { type: 'object', properties: { a: { type: 'integer' } } },
        404: { type: 'object', properties: { b: { type: 'string' } } }
      }
    }
  }, async (req, reply) => {
    if ((req.query as { missing?: string }).missing !== undefined) return reply.code(404).send({ b: 5, c: 1 })
    return { a: 1.9, x: 'dropped' }
  })
  await app.ready()
  assert.equal((await app.inject('/')).body, '{"a":1}')
  assert.equal((await app.inject('/')).body, '{"a":1}')
  assert.equal((await app.inject('/?missing=1')).body, '{"b":"5"}')
  await app.close()
})
