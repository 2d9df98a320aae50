/**
 * @fastify/cors 9 (its Fastify 4 line, `fastify: '4.x'`) on trellis: the preflight answer its users
 * rely on (204, allowed methods/headers, max-age, Vary), the actual request's headers, an origin
 * refused by a function, and the same over a real socket.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/cors'), {
    origin: (origin: string | undefined, cb: (err: Error | null, allow: boolean) => void) => cb(null, origin === 'https://a.example'),
    credentials: true,
    allowedHeaders: ['content-type', 'x-token'],
    exposedHeaders: ['x-request-id'],
    maxAge: 600
  })
  app.get('/items', async (_req: any, reply: any) => { reply.header('x-request-id', 'r1'); return { ok: true } })
  app.post('/items', async (req: any) => req.body)
  return app
}

test('preflight: 204 with the allowed origin, methods, headers, max-age and credentials', async () => {
  const app = await build()
  const res = await app.inject({
    method: 'OPTIONS',
    url: '/items',
    headers: { origin: 'https://a.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }
  })
  assert.equal(res.statusCode, 204)
  assert.equal(res.headers['access-control-allow-origin'], 'https://a.example')
  assert.equal(res.headers['access-control-allow-credentials'], 'true')
  assert.match(String(res.headers['access-control-allow-methods']), /POST/)
  assert.equal(res.headers['access-control-allow-headers'], 'content-type, x-token')
  assert.equal(res.headers['access-control-max-age'], '600')
  assert.match(String(res.headers.vary), /Origin/)
  assert.equal(res.body, '')
  await app.close()
})

test('actual request: allowed origin echoed with exposed headers; other origins get no CORS headers', async () => {
  const app = await build()
  const ok = await app.inject({ url: '/items', headers: { origin: 'https://a.example' } })
  assert.equal(ok.statusCode, 200)
  assert.equal(ok.headers['access-control-allow-origin'], 'https://a.example')
  assert.equal(ok.headers['access-control-expose-headers'], 'x-request-id')
  assert.deepEqual(ok.json(), { ok: true })
  const other = await app.inject({ url: '/items', headers: { origin: 'https://evil.example' } })
  assert.equal(other.statusCode, 200)
  assert.equal(other.headers['access-control-allow-origin'], undefined)
  await app.close()
})

test('over a real socket: preflight then the cross-origin POST with a JSON body', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const pre = await request(port, {
    method: 'OPTIONS',
    path: '/items',
    headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' }
  })
  assert.equal(pre.statusCode, 204)
  assert.equal(pre.headers['access-control-allow-origin'], 'https://a.example')
  assert.equal(pre.headers['content-length'], '0')
  const post = await request(port, {
    method: 'POST',
    path: '/items',
    body: '{"n":1}',
    headers: { origin: 'https://a.example', 'content-type': 'application/json' }
  })
  assert.equal(post.statusCode, 200)
  assert.equal(post.headers['access-control-allow-origin'], 'https://a.example')
  assert.deepEqual(JSON.parse(post.body), { n: 1 })
})

test('strictPreflight: an OPTIONS without Origin or request method is a 400', async () => {
  const app: any = trellis()
  await app.register(plugin('@fastify/cors'), { origin: true, strictPreflight: true })
  app.get('/x', async () => ({ x: 1 }))
  await app.ready()
  const bad = await app.inject({ method: 'OPTIONS', url: '/x', headers: { origin: 'https://b.example' } })
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.body, 'Invalid Preflight Request')
  const good = await app.inject({ method: 'OPTIONS', url: '/x', headers: { origin: 'https://b.example', 'access-control-request-method': 'GET' } })
  assert.equal(good.statusCode, 204)
  assert.equal(good.headers['access-control-allow-origin'], 'https://b.example')
  assert.equal(app.printRoutes({ commonPrefix: false }), '├── /x (GET, HEAD)\n└── * (OPTIONS)\n') // as on Fastify 4
  await app.close()
})
