import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

test('a web ReadableStream payload is streamed (Fastify 4.29)', async () => {
  const app: any = trellis()
  app.get('/', (_req: unknown, reply: any) => {
    const stream = new ReadableStream({ start (c) { c.enqueue(new TextEncoder().encode('hello ')); c.enqueue(new TextEncoder().encode('world')); c.close() } })
    reply.type('text/plain').send(stream)
  })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 200)
  assert.equal(res.payload, 'hello world')
})

test('a fetch Response payload gives its status, headers and body; a consumed body is a 500', async () => {
  const app: any = trellis()
  app.get('/', async () => new Response('created', { status: 201, headers: { 'x-from': 'response', 'content-type': 'text/plain' } }))
  app.get('/empty', async () => new Response(null, { status: 204 }))
  app.get('/used', async () => { const r = new Response('x'); await r.text(); return r })
  app.get('/hook', async () => 'original')
  app.addHook('onSend', async (req: any, _reply: unknown, payload: unknown) => req.url === '/hook' ? new Response('replaced by onSend', { status: 202 }) : payload)
  const res = await app.inject('/')
  assert.equal(res.statusCode, 201)
  assert.equal(res.headers['x-from'], 'response')
  assert.equal(res.payload, 'created')
  const empty = await app.inject('/empty')
  assert.equal(empty.statusCode, 204)
  assert.equal(empty.payload, '')
  const used = await app.inject('/used')
  assert.equal(used.statusCode, 500)
  assert.equal(used.json().code, 'FST_ERR_REP_RESPONSE_BODY_CONSUMED')
  const hook = await app.inject('/hook')
  assert.equal(hook.statusCode, 202)
  assert.equal(hook.payload, 'replaced by onSend')
})
