/**
 * Real ecosystem plugins written for Fastify 4 (fastify-plugin + the Fastify 4.3 interface) run on
 * trellis unchanged: CORS, cookies, form bodies, helmet headers, sensible errors, rate limiting.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

async function build () {
  const app = trellis()
  await app.register(require('@fastify/cors'), { origin: 'https://a.example' })
  await app.register(require('@fastify/cookie'), { secret: 's3cret' })
  await app.register(require('@fastify/formbody'))
  await app.register(require('@fastify/helmet'))
  await app.register(require('@fastify/sensible'))
  await app.register(require('@fastify/rate-limit'), { max: 3, timeWindow: 60000 })
  app.get('/c', async (request: any, reply: any) => {
    reply.setCookie('session', 'abc', { signed: true })
    return { cookies: request.cookies }
  })
  app.post('/f', async (request) => request.body)
  app.get('/e', async () => { throw (app as any).httpErrors.notFound('nope') })
  await app.ready()
  return app
}

test('@fastify/cors, @fastify/cookie and @fastify/helmet decorate and answer as on Fastify', async () => {
  const app = await build()
  const res = await app.inject({ url: '/c', headers: { origin: 'https://a.example', cookie: 'x=1' } })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['access-control-allow-origin'], 'https://a.example')
  assert.match(String(res.headers['set-cookie']), /^session=abc\.[^;]+/)
  assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN')
  assert.deepEqual(res.json(), { cookies: { x: '1' } })
  const signed = String(res.headers['set-cookie']).split(';')[0].slice('session='.length)
  assert.deepEqual((app as any).unsignCookie(decodeURIComponent(signed)), { valid: true, renew: false, value: 'abc' })
  await app.close()
})

test('@fastify/cors answers a preflight request', async () => {
  const app = await build()
  const res = await app.inject({ method: 'OPTIONS', url: '/c', headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' } })
  assert.equal(res.statusCode, 204)
  assert.match(String(res.headers['access-control-allow-methods']), /GET/)
  await app.close()
})

test('@fastify/formbody parses application/x-www-form-urlencoded bodies', async () => {
  const app = await build()
  const res = await app.inject({ method: 'POST', url: '/f', payload: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { a: '1', b: '2' })
  await app.close()
})

test('@fastify/sensible http errors go through the default error handler', async () => {
  const app = await build()
  const res = await app.inject({ url: '/e' })
  assert.equal(res.statusCode, 404)
  assert.deepEqual(res.json(), { statusCode: 404, error: 'Not Found', message: 'nope' })
  await app.close()
})

test('@fastify/rate-limit answers 429 with a JSON body past the limit', async () => {
  const app = await build()
  const codes: number[] = []
  for (let i = 0; i < 4; i++) codes.push((await app.inject({ url: '/c' })).statusCode)
  assert.deepEqual(codes, [200, 200, 200, 429])
  const res = await app.inject({ url: '/c' })
  assert.equal(res.statusCode, 429)
  assert.equal(res.json().error, 'Too Many Requests')
  await app.close()
})
