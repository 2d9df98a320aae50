/**
 * A typical Fastify-4 application stack on one trellis instance, over a real socket: the plugins'
 * hooks compose (helmet and CORS headers on 200s, 404s and rate-limit 429s; compress over
 * @fastify/static's file streams and over swagger's JSON; jwt-protected routes behind the rate
 * limit, keyed by the verified user).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import zlib from 'node:zlib'
import { join } from 'node:path'
import trellis, { plugin } from './target'
import { listen } from '../helpers'

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/helmet'), { contentSecurityPolicy: false })
  await app.register(plugin('@fastify/cors'), { origin: 'https://a.example' })
  await app.register(plugin('@fastify/compress'), { threshold: 0 })
  await app.register(plugin('@fastify/sensible'))
  await app.register(plugin('@fastify/jwt'), { secret: 'a-long-enough-test-secret' })
  await app.register(plugin('@fastify/swagger'), { openapi: { info: { title: 'stack', version: '1' } } })
  await app.register(plugin('@fastify/rate-limit'), {
    max: 2,
    timeWindow: 60000,
    keyGenerator: (req: any) => { try { return app.jwt.decode(String(req.headers.authorization).slice(7)).sub } catch { return req.ip } }
  })
  await app.register(plugin('@fastify/static'), { root: join(__dirname, 'fixtures', 'static'), prefix: '/assets/' })
  app.get('/me', { onRequest: async (req: any) => { await req.jwtVerify() } }, async (req: any) => ({ me: req.user.sub }))
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  return app
}

function get (port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; raw: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }))
    }).on('error', reject)
  })
}

test('helmet, cors, compress, static, swagger, jwt and rate-limit together', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const origin = { origin: 'https://a.example' }
  const file = await get(port, '/assets/letters.txt', { 'accept-encoding': 'gzip', ...origin })
  assert.equal(file.status, 200)
  assert.equal(file.headers['content-encoding'], 'gzip')
  assert.equal(zlib.gunzipSync(file.raw).toString(), '0123456789abcdefghijklmnopqrstuvwxyz\n')
  assert.equal(file.headers['x-content-type-options'], 'nosniff')
  assert.equal(file.headers['access-control-allow-origin'], 'https://a.example')
  const doc = await get(port, '/openapi.json', { 'accept-encoding': 'br' })
  assert.equal(doc.headers['content-encoding'], 'br')
  assert.deepEqual(Object.keys(JSON.parse(zlib.brotliDecompressSync(doc.raw).toString()).paths), ['/me'])
  const missing = await get(port, '/nowhere', origin)
  assert.equal(missing.status, 404)
  assert.equal(missing.headers['x-frame-options'], 'SAMEORIGIN')
  assert.equal(missing.headers['access-control-allow-origin'], 'https://a.example')
  const ann = { authorization: `Bearer ${app.jwt.sign({ sub: 'ann' }) as string}`, ...origin }
  const bob = { authorization: `Bearer ${app.jwt.sign({ sub: 'bob' }) as string}` }
  assert.equal((await get(port, '/me', ann)).status, 200)
  assert.equal((await get(port, '/me', ann)).status, 200)
  const limited = await get(port, '/me', ann)
  assert.equal(limited.status, 429)
  assert.equal(limited.headers['x-frame-options'], 'SAMEORIGIN')
  assert.equal(limited.headers['access-control-allow-origin'], 'https://a.example')
  assert.equal(JSON.parse(limited.raw.toString()).statusCode, 429)
  const other = await get(port, '/me', bob)
  assert.equal(other.status, 200)
  assert.deepEqual(JSON.parse(other.raw.toString()), { me: 'bob' })
  const noToken = await get(port, '/me')
  assert.equal(noToken.status, 401)
})
