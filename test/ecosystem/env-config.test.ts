/**
 * @fastify/env 4 (`fastify: '4.x'`) on trellis: configuration validated (and coerced, with
 * defaults) by a JSON schema into app.config; a missing required variable fails registration
 * with a clear message.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'

const schema = {
  type: 'object',
  required: ['DB_URL'],
  properties: { DB_URL: { type: 'string' }, PORT: { type: 'integer', default: 3000 }, DEBUG: { type: 'boolean', default: false } }
}

test('app.config holds the validated, coerced values', async () => {
  const app: any = trellis()
  await app.register(plugin('@fastify/env'), { schema, data: { DB_URL: 'postgres://x', DEBUG: 'true' } })
  await app.ready()
  assert.deepEqual(app.config, { DB_URL: 'postgres://x', PORT: 3000, DEBUG: true })
  await app.close()
})

test('a missing required variable fails ready() with the validation message', async () => {
  const app: any = trellis()
  app.register(plugin('@fastify/env'), { schema, data: { PORT: '80' } })
  await assert.rejects(app.ready(), /must have required property 'DB_URL'/)
})
