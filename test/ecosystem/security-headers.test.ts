/**
 * @fastify/helmet 11 (`fastify: '4.x'`) on trellis: its default security headers on every reply
 * (errors and 404s too), CSP nonces for a route, a route that opts out, and the headers over a
 * real socket.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin, byLine } from './target'
import { listen, request } from '../helpers'

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/helmet'), { enableCSPNonces: true, global: true })
  app.get('/page', async (_req: any, reply: any) => ({ nonce: reply.cspNonce }))
  app.get('/bare', { helmet: false }, async () => ({ bare: true }))
  app.get('/boom', async () => { throw new Error('boom') })
  return app
}

function assertHelmetDefaults (headers: Record<string, unknown>): void {
  assert.equal(headers['x-frame-options'], 'SAMEORIGIN')
  assert.equal(headers['x-content-type-options'], 'nosniff')
  // @fastify/helmet 13 (helmet 8) raised the default HSTS max-age from 180 days to 365
  assert.equal(headers['strict-transport-security'], byLine('max-age=15552000; includeSubDomains', 'max-age=31536000; includeSubDomains'))
  assert.equal(headers['cross-origin-opener-policy'], 'same-origin')
  assert.equal(headers['referrer-policy'], 'no-referrer')
  assert.equal(headers['x-powered-by'], undefined)
  assert.match(String(headers['content-security-policy']), /default-src 'self'/)
}

test('default headers on a route, on a thrown error and on a 404', async () => {
  const app = await build()
  for (const url of ['/page', '/boom', '/nowhere']) {
    const res = await app.inject({ url })
    assertHelmetDefaults(res.headers)
  }
  assert.equal((await app.inject({ url: '/boom' })).statusCode, 500)
  assert.equal((await app.inject({ url: '/nowhere' })).statusCode, 404)
  await app.close()
})

test('CSP nonces: the reply carries fresh script/style nonces that appear in the header', async () => {
  const app = await build()
  const a = await app.inject({ url: '/page' })
  const b = await app.inject({ url: '/page' })
  const { nonce } = a.json()
  assert.match(nonce.script, /^[0-9a-f]{32}$/)
  assert.notEqual(nonce.script, b.json().nonce.script)
  assert.ok(String(a.headers['content-security-policy']).includes(`'nonce-${nonce.script}'`))
  assert.ok(String(a.headers['content-security-policy']).includes(`'nonce-${nonce.style}'`))
  await app.close()
})

test('a route with { helmet: false } gets none of the headers', async () => {
  const app = await build()
  const res = await app.inject({ url: '/bare' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['x-frame-options'], undefined)
  assert.equal(res.headers['content-security-policy'], undefined)
  await app.close()
})

test('over a real socket', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const res = await request(port, { path: '/page' })
  assert.equal(res.statusCode, 200)
  assertHelmetDefaults(res.headers)
})

test('a route-level helmet object overrides the global options for that route only', async () => {
  const app: any = trellis()
  await app.register(plugin('@fastify/helmet'))
  app.get('/framed', { helmet: { frameguard: { action: 'deny' }, contentSecurityPolicy: false } }, async () => ({ ok: true }))
  app.get('/plain', async () => ({ ok: true }))
  const framed = await app.inject({ url: '/framed' })
  assert.equal(framed.headers['x-frame-options'], 'DENY')
  assert.equal(framed.headers['content-security-policy'], undefined)
  assert.equal(framed.headers['x-content-type-options'], 'nosniff')
  const plain = await app.inject({ url: '/plain' })
  assert.equal(plain.headers['x-frame-options'], 'SAMEORIGIN')
  assert.ok(plain.headers['content-security-policy'])
  await app.close()
})
