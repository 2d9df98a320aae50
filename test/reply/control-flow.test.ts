import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

test('hijack: the framework stops, the handler writes to reply.raw itself', async () => {
  const app = trellis()
  let onSendRan = false
  app.addHook('onSend', async (_req: unknown, _reply: unknown, payload: unknown) => { onSendRan = true; return payload })
  app.get('/', async (_req, reply) => {
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'text/plain' })
    reply.raw.end('manual')
    return 'ignored'
  })
  const res = await app.inject('/')
  assert.equal(res.body, 'manual')
  assert.equal(onSendRan, false)
  await app.close()
})

test('hijack in a hook skips the handler', async () => {
  const app = trellis()
  let handlerRan = false
  app.addHook('onRequest', (_req: unknown, reply: any, done: () => void) => {
    reply.hijack()
    reply.raw.end('from hook')
    done()
  })
  app.get('/', async () => { handlerRan = true; return 'x' })
  const res = await app.inject('/')
  assert.equal(res.body, 'from hook')
  assert.equal(handlerRan, false)
  await app.close()
})

test('callNotFound runs the 404 handler of the route context', async () => {
  const app = trellis()
  app.register(async (child) => {
    child.setNotFoundHandler((req, reply) => { reply.code(404).send({ custom: true, url: req.url }) })
    child.get('/maybe', (_req, reply) => { reply.callNotFound() })
  }, { prefix: '/p' })
  app.get('/root-maybe', (_req, reply) => { reply.callNotFound() })
  const custom = await app.inject('/p/maybe')
  assert.equal(custom.statusCode, 404)
  assert.deepEqual(custom.json(), { custom: true, url: '/p/maybe' })
  const basic = await app.inject('/root-maybe')
  assert.equal(basic.statusCode, 404)
  assert.deepEqual(basic.json(), { message: 'Route GET:/root-maybe not found', error: 'Not Found', statusCode: 404 })
  await app.close()
})

test('callNotFound inside a 404 handler sends a basic 404', async () => {
  const app = trellis()
  app.setNotFoundHandler((_req, reply) => { reply.callNotFound() })
  const res = await app.inject('/nothing')
  assert.equal(res.statusCode, 404)
  assert.equal(res.body, '404 Not Found')
  await app.close()
})

test('reply.sent = true hands the response to the handler (deprecated hijack form)', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.sent = true; reply.raw.end('manual') })
  const res = await app.inject('/')
  assert.equal(res.body, 'manual')
  await app.close()
})

test('an async handler that ends reply.raw itself and returns undefined does not send twice', async () => {
  const app = trellis()
  app.get('/', async (_req, reply) => { reply.raw.end('raw') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'raw')
  await app.close()
})

test('trailers are sent after a chunked body', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.trailer('x-digest', (_r: unknown, payload: unknown) => `len=${String(payload).length}`).send('body') })
  const res = await app.inject('/')
  assert.equal(res.body, 'body')
  assert.equal(res.headers['transfer-encoding'], 'chunked')
  assert.equal(res.headers.trailer, 'x-digest')
  assert.deepEqual(res.trailers, { 'x-digest': 'len=4' })
  await app.close()
})

test('trailer functions may answer with done(err, value) or a promise (Fastify 4.29); a failing one is left out', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => {
    reply.trailer('x-cb', (_r: unknown, payload: unknown, done: (e: null, v: string) => void) => { setTimeout(() => done(null, `cb:${String(payload)}`), 5) })
    reply.trailer('x-async', async (_r: unknown, payload: unknown) => `async:${String(payload).length}`)
    reply.trailer('x-fails', async () => { throw new Error('no digest') })
    reply.send('body')
  })
  const res = await app.inject('/')
  assert.equal(res.body, 'body')
  assert.equal(res.headers.trailer, 'x-cb x-async x-fails')
  assert.deepEqual(res.trailers, { 'x-cb': 'cb:body', 'x-async': 'async:4' })
  await app.close()
})

test('a trailer function returning its value directly still works, with the FSTDEP013 deprecation', async () => {
  const codes: string[] = []
  const onWarning = (w: any): void => { if (w.code === 'FSTDEP013') codes.push(w.name) }
  process.on('warning', onWarning)
  const { warnings } = await import('../../src/base/warnings')
  warnings.FSTDEP013.emitted = false
  try {
    const app = trellis()
    app.get('/', (_req, reply) => { reply.trailer('x-direct', () => 'v').send('x') })
    const res = await app.inject('/')
    assert.deepEqual(res.trailers, { 'x-direct': 'v' })
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(codes, ['DeprecationWarning'])
    await app.close()
  } finally {
    process.removeListener('warning', onWarning)
  }
})

test('reserved trailer names and non-function trailers are refused', async () => {
  const app = trellis()
  const errors: string[] = []
  app.get('/', (_req, reply) => {
    try { reply.trailer('content-length', () => '1') } catch (err: any) { errors.push(err.code) }
    try { reply.trailer('x-ok', 'nope' as never) } catch (err: any) { errors.push(err.code) }
    reply.send('x')
  })
  await app.inject('/')
  assert.deepEqual(errors, ['FST_ERR_BAD_TRAILER_NAME', 'FST_ERR_BAD_TRAILER_VALUE'])
  await app.close()
})
