import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import trellis from '../../src/index'

test('send(object) serializes JSON with application/json; charset=utf-8', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.send({ a: 1, b: [true, null] }) })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(res.body, '{"a":1,"b":[true,null]}')
  assert.equal(res.headers['content-length'], String(res.body.length))
  await app.close()
})

test('send(string) is text/plain; charset=utf-8 with a byte-exact content-length', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.send('héllo') })
  const res = await app.inject('/')
  assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
  assert.equal(res.body, 'héllo')
  assert.equal(res.headers['content-length'], '6')
  await app.close()
})

test('send(string) with a JSON content type sends the string as is', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.type('application/json').send('{"pre":"serialized"}') })
  const res = await app.inject('/')
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(res.body, '{"pre":"serialized"}')
  await app.close()
})

test('send(Buffer) is application/octet-stream unless a type is set', async () => {
  const app = trellis()
  app.get('/raw', (_req, reply) => { reply.send(Buffer.from([1, 2, 3])) })
  app.get('/typed', (_req, reply) => { reply.type('image/png').send(Buffer.from('png')) })
  const raw = await app.inject('/raw')
  assert.equal(raw.headers['content-type'], 'application/octet-stream')
  assert.deepEqual([...raw.rawPayload], [1, 2, 3])
  assert.equal(raw.headers['content-length'], '3')
  const typed = await app.inject('/typed')
  assert.equal(typed.headers['content-type'], 'image/png')
  assert.equal(typed.body, 'png')
  await app.close()
})

test('send(stream) pipes the stream', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.type('text/plain').send(Readable.from(['a', 'b', 'c'])) })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'abc')
  assert.equal(res.headers['content-type'], 'text/plain')
  await app.close()
})

test('a stream that errors before sending headers goes to the error handler', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => {
    const s = new Readable({ read () { this.destroy(new Error('stream broke')) } })
    reply.send(s)
  })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().message, 'stream broke')
  await app.close()
})

test('send(null) sends "null" as JSON; send() / send(undefined) an empty body', async () => {
  const app = trellis()
  app.get('/null', (_req, reply) => { reply.send(null) })
  app.get('/empty', (_req, reply) => { reply.send() })
  const n = await app.inject('/null')
  assert.equal(n.statusCode, 200)
  assert.equal(n.body, 'null')
  assert.equal(n.headers['content-type'], 'application/json; charset=utf-8')
  const e = await app.inject('/empty')
  assert.equal(e.statusCode, 200)
  assert.equal(e.body, '')
  assert.equal(e.headers['content-length'], '0')
  await app.close()
})

test('send(Error) goes through the error handler', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.send(Object.assign(new Error('teapot'), { statusCode: 418 })) })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 418)
  assert.deepEqual(res.json(), { statusCode: 418, error: "I'm a Teapot", message: 'teapot' })
  await app.close()
})

test('send of a number or boolean is JSON', async () => {
  const app = trellis()
  app.get('/n', (_req, reply) => { reply.send(42) })
  app.get('/b', (_req, reply) => { reply.send(false) })
  assert.equal((await app.inject('/n')).body, '42')
  assert.equal((await app.inject('/b')).body, 'false')
  assert.equal((await app.inject('/b')).headers['content-type'], 'application/json; charset=utf-8')
  await app.close()
})

test('a second send is ignored (first response wins)', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.send('first'); reply.send('second') })
  const res = await app.inject('/')
  assert.equal(res.body, 'first')
  await app.close()
})

test('sync handler returning a value sends it', async () => {
  const app = trellis()
  app.get('/', () => ({ sync: true }))
  assert.deepEqual((await app.inject('/')).json(), { sync: true })
  await app.close()
})

test('async handler may return a value or call reply.send (and return reply)', async () => {
  const app = trellis()
  app.get('/return', async () => ({ returned: true }))
  app.get('/send', async (_req, reply) => { reply.send({ sent: true }) })
  app.get('/send-return', async (_req, reply) => reply.send({ both: true }))
  app.get('/later', async (_req, reply) => { setTimeout(() => reply.send({ later: true }), 10); return reply })
  assert.deepEqual((await app.inject('/return')).json(), { returned: true })
  assert.deepEqual((await app.inject('/send')).json(), { sent: true })
  assert.deepEqual((await app.inject('/send-return')).json(), { both: true })
  assert.deepEqual((await app.inject('/later')).json(), { later: true })
  await app.close()
})

test('async handler returning undefined without sending gives an empty 200 (4.3: send(undefined))', async () => {
  const app = trellis()
  app.get('/', async () => { /* nothing */ })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, '')
  await app.close()
})

test('async handler rejecting goes to the error handler', async () => {
  const app = trellis()
  app.get('/', async () => { throw Object.assign(new Error('gone'), { statusCode: 410 }) })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 410)
  assert.equal(res.json().message, 'gone')
  await app.close()
})

test('reply.serializer sets a serializer for this reply only', async () => {
  const app = trellis()
  app.get('/custom', (_req, reply) => { reply.serializer((p: any) => `custom:${p.v}`).send({ v: 1 }) })
  app.get('/normal', (_req, reply) => { reply.send({ v: 1 }) })
  assert.equal((await app.inject('/custom')).body, 'custom:1')
  assert.equal((await app.inject('/normal')).body, '{"v":1}')
  await app.close()
})

test('setReplySerializer applies to the context and its children', async () => {
  const app = trellis()
  app.register(async (child) => {
    child.setReplySerializer((p: unknown) => `<${JSON.stringify(p)}>`)
    child.get('/in', async () => ({ a: 1 }))
  })
  app.get('/out', async () => ({ a: 1 }))
  assert.equal((await app.inject('/in')).body, '<{"a":1}>')
  assert.equal((await app.inject('/out')).body, '{"a":1}')
  await app.close()
})

test('setReplySerializer wins over the route response schema (Fastify 4.3 order)', async () => {
  const app = trellis()
  let schemaSerializerCalls = 0
  app.setReplySerializer((p: unknown, statusCode: number) => `${statusCode}:${JSON.stringify(p)}`)
  app.get('/', {
    schema: { response: { '2xx': { type: 'object', properties: { a: { type: 'integer' } } } } },
    serializerCompiler: () => () => { schemaSerializerCalls++; return 'schema' }
  }, async () => ({ a: 1, b: 2 }))
  assert.equal((await app.inject('/')).body, '200:{"a":1,"b":2}')
  assert.equal(schemaSerializerCalls, 0)
  await app.close()
})

test('an error serialized by a schema serializer that returns a non-string answers FST_ERR_REP_INVALID_PAYLOAD_TYPE', async () => {
  const app = trellis()
  app.setSerializerCompiler(() => () => ({ not: 'a string' }) as never)
  app.get('/', { schema: { response: { 500: { type: 'object' } } } }, async () => { throw new Error('ops') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.deepEqual(res.json(), {
    statusCode: 500,
    code: 'FST_ERR_REP_INVALID_PAYLOAD_TYPE',
    message: "Attempted to send payload of invalid type 'object'. Expected a string or Buffer."
  })
  await app.close()
})

test('a non-serializable payload for a non-JSON type fails with FST_ERR_REP_INVALID_PAYLOAD_TYPE', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.type('text/html').send({ not: 'a string' }) })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().code, 'FST_ERR_REP_INVALID_PAYLOAD_TYPE')
  await app.close()
})

test('204 and 304 send no body', async () => {
  const app = trellis()
  app.get('/204', (_req, reply) => { reply.code(204).send({ ignored: true }) })
  app.get('/304', (_req, reply) => { reply.code(304).send('ignored') })
  const a = await app.inject('/204')
  assert.equal(a.statusCode, 204)
  assert.equal(a.body, '')
  const b = await app.inject('/304')
  assert.equal(b.statusCode, 304)
  assert.equal(b.body, '')
  await app.close()
})
