/**
 * Small Fastify-4 utility plugins on trellis (each `fastify: '4.x'`): @fastify/routes 5 (the
 * route table as a Map, filled by the onRoute hook), @fastify/url-data 5 (the parsed request
 * URL), @fastify/circuit-breaker 3 (a failing route opens the circuit: 503 until reset).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'

test('@fastify/routes lists every route with its options, encapsulated prefixes included', async () => {
  const app: any = trellis()
  await app.register(plugin('@fastify/routes'))
  app.get('/a', { config: { tag: 'x' } }, async () => 'a')
  await app.register(async (child: any) => { child.post('/b', async () => 'b') }, { prefix: '/child' })
  await app.ready()
  assert.ok(app.routes instanceof Map)
  assert.deepEqual([...app.routes.keys()].sort(), ['/a', '/child/b'])
  const [a] = app.routes.get('/a')
  assert.equal(a.method, 'GET')
  assert.deepEqual(a.config, { tag: 'x' })
  assert.equal(app.routes.get('/child/b')[0].method, 'POST')
  await app.close()
})

test('@fastify/url-data parses the request URL', async () => {
  const app: any = trellis()
  await app.register(plugin('@fastify/url-data'))
  app.get('/p/:x', async (req: any) => {
    const u = req.urlData()
    return { path: u.path, query: u.query, host: u.host, port: u.port, only: req.urlData('path') }
  })
  const res = await app.inject({ url: '/p/1?q=2', headers: { host: 'example.test:8080' } })
  assert.deepEqual(res.json(), { path: '/p/1', query: 'q=2', host: 'example.test', port: 8080, only: '/p/1' })
  await app.close()
})

test('@fastify/circuit-breaker opens on failures and half-opens after resetTimeout', async () => {
  const app: any = trellis()
  await app.register(plugin('@fastify/circuit-breaker'), { threshold: 2, timeout: 1000, resetTimeout: 100 })
  app.register(async (scope: any) => {
    scope.get('/flaky', { preHandler: scope.circuitBreaker() }, async (req: any) => {
      if (req.query.fail === '1') throw new Error('kaboom')
      return { ok: true }
    })
  })
  const codes: number[] = []
  for (let i = 0; i < 3; i++) codes.push((await app.inject({ url: '/flaky?fail=1' })).statusCode)
  // threshold 2 opens after the first failing request: the same sequence fastify@4.3.0 gives for this script
  assert.deepEqual(codes, [500, 503, 503])
  const open = await app.inject({ url: '/flaky' })
  assert.equal(open.statusCode, 503)
  assert.equal(open.json().code, 'FST_ERR_CIRCUIT_BREAKER_OPEN')
  await new Promise((resolve) => setTimeout(resolve, 150))
  const after = await app.inject({ url: '/flaky' })
  assert.equal(after.statusCode, 200)
  assert.deepEqual(after.json(), { ok: true })
  await app.close()
})
