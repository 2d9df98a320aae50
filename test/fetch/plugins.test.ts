// Ecosystem plugins through app.fetch, with a Request made in-process: plugins that compress the
// reply stream (@fastify/compress), answer preflights (@fastify/cors), parse and set cookies
// (@fastify/cookie), parse multipart bodies from the raw stream (@fastify/multipart), serve files
// as streams (@fastify/static) and set many headers (@fastify/helmet).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { gunzipSync } from 'node:zlib'
import { join } from 'node:path'
import trellisV4 from '../../src/index'

const trellis = trellisV4 as unknown as (opts?: object) => any

test('@fastify/compress gzips a reply', async () => {
  const app = trellis()
  await app.register(require('@fastify/compress'), { threshold: 0 })
  app.get('/json', async () => ({ text: 'x'.repeat(2000) }))
  const res = await app.fetch(new Request('http://localhost/json', { headers: { 'accept-encoding': 'gzip' } }))
  assert.equal(res.status, 200)
  assert.equal(res.headers.get('content-encoding'), 'gzip')
  const body = gunzipSync(Buffer.from(await res.arrayBuffer())).toString()
  assert.deepEqual(JSON.parse(body), { text: 'x'.repeat(2000) })
  await app.close()
})

test('@fastify/cors answers a preflight and decorates replies', async () => {
  const app = trellis()
  await app.register(require('@fastify/cors'), { origin: 'https://a.test' })
  app.get('/', async () => 'ok')
  const pre = await app.fetch(new Request('http://localhost/', { method: 'OPTIONS', headers: { origin: 'https://a.test', 'access-control-request-method': 'GET' } }))
  assert.equal(pre.status, 204)
  assert.equal(pre.headers.get('access-control-allow-origin'), 'https://a.test')
  const res = await app.fetch(new Request('http://localhost/', { headers: { origin: 'https://a.test' } }))
  assert.equal(res.headers.get('access-control-allow-origin'), 'https://a.test')
  assert.equal(await res.text(), 'ok')
  await app.close()
})

test('@fastify/cookie reads request cookies and sets several', async () => {
  const app = trellis()
  await app.register(require('@fastify/cookie'), { secret: 's3cret-s3cret-s3cret' })
  app.get('/', (req: any, reply: any) => {
    reply.setCookie('a', '1', { path: '/' }).setCookie('b', 'two', { httpOnly: true, signed: true }).send({ seen: req.cookies.in })
  })
  const res = await app.fetch(new Request('http://localhost/', { headers: { cookie: 'in=hello' } }))
  assert.deepEqual(await res.json(), { seen: 'hello' })
  const cookies = res.headers.getSetCookie()
  assert.equal(cookies.length, 2)
  assert.match(cookies[0], /^a=1; Path=\//)
  assert.match(cookies[1], /^b=two\.[^;]+; .*HttpOnly/)
  await app.close()
})

test('@fastify/multipart parses a FormData body streamed from the Request', async () => {
  const app = trellis()
  await app.register(require('@fastify/multipart'))
  app.post('/upload', async (req: any) => {
    const file = await req.file()
    const content = await file.toBuffer()
    return { field: file.fieldname, name: file.filename, size: content.length, note: file.fields.note?.value }
  })
  const form = new FormData()
  form.append('note', 'hi')
  form.append('doc', new Blob([Buffer.alloc(200 * 1024, 65)]), 'big.txt')
  const res = await app.fetch(new Request('http://localhost/upload', { method: 'POST', body: form }))
  assert.equal(res.status, 200)
  assert.deepEqual(await res.json(), { field: 'doc', name: 'big.txt', size: 200 * 1024, note: 'hi' })
  await app.close()
})

test('@fastify/static streams a file with its headers; HEAD has none of its body', async () => {
  const app = trellis()
  await app.register(require('@fastify/static'), { root: join(__dirname) })
  const res = await app.fetch(new Request('http://localhost/plugins.test.ts'))
  assert.equal(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /typescript|video\/mp2t|text/)
  assert.match(await res.text(), /Ecosystem plugins through app\.fetch/)
  const head = await app.fetch(new Request('http://localhost/plugins.test.ts', { method: 'HEAD' }))
  assert.equal(head.status, 200)
  assert.equal(await head.text(), '')
  await app.close()
})

test('@fastify/helmet sets its headers', async () => {
  const app = trellis()
  await app.register(require('@fastify/helmet'))
  app.get('/', async () => 'ok')
  const res = await app.fetch(new Request('http://localhost/'))
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
  assert.ok(res.headers.get('content-security-policy') !== null)
  await app.close()
})
