import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { errorCodes } from '../../src/index'

test('send() throws FST_ERR_REP_INVALID_PAYLOAD_TYPE to its caller for an object with a non-JSON type', async () => {
  const app = trellis()
  let thrown: Error | undefined
  app.get('/', (_req, reply) => {
    reply.type('text/html')
    try { reply.send({}) } catch (err) { thrown = err as Error }
    reply.send('<p>recovered</p>')
  })
  const res = await app.inject('/')
  assert.ok(thrown instanceof TypeError)
  assert.ok(thrown instanceof errorCodes.FST_ERR_REP_INVALID_PAYLOAD_TYPE)
  assert.equal(thrown?.message, "Attempted to send payload of invalid type 'object'. Expected a string or Buffer.")
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '<p>recovered</p>')
  await app.close()
})

test('a custom serializer returning a non-string throws to the caller of send()', async () => {
  const app = trellis()
  let code: string | undefined
  app.get('/', (_req, reply) => {
    try { reply.type('text/html').serializer((p: unknown) => p as string).send({}) } catch (err) { code = (err as { code?: string }).code }
    reply.serializer((p: unknown) => JSON.stringify(p)).send({ ok: true })
  })
  const res = await app.inject('/')
  assert.equal(code, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE')
  assert.equal(res.body, '{"ok":true}')
  await app.close()
})

test('an unserializable value returned by a handler becomes a JSON 500, not a crash', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.type('text/html'); return {} as never })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().code, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE')
  await app.close()
})
