/**
 * @fastify/rate-limit 9 (`fastify: '4.x'`) on trellis: the x-ratelimit-* headers counting down, the
 * 429 with retry-after and a JSON body, a route's own limit, an allow-listed client, a route that
 * opts out, and the limit over a real socket (keyed by the socket's address).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/rate-limit'), { max: 3, timeWindow: 60000, allowList: ['10.0.0.9'] })
  app.get('/a', async () => ({ a: true }))
  app.get('/strict', { config: { rateLimit: { max: 1, timeWindow: 60000 } } }, async () => ({ strict: true }))
  app.get('/free', { config: { rateLimit: false } }, async () => ({ free: true }))
  return app
}

test('headers count down, then 429 with retry-after and a JSON error body', async () => {
  const app = await build()
  const remaining: string[] = []
  for (let i = 0; i < 3; i++) {
    const res = await app.inject({ url: '/a' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-ratelimit-limit'], '3')
    remaining.push(String(res.headers['x-ratelimit-remaining']))
    assert.ok(Number(res.headers['x-ratelimit-reset']) > 0)
  }
  assert.deepEqual(remaining, ['2', '1', '0'])
  const limited = await app.inject({ url: '/a' })
  assert.equal(limited.statusCode, 429)
  assert.equal(limited.headers['x-ratelimit-remaining'], '0')
  assert.ok(Number(limited.headers['retry-after']) > 0)
  assert.match(String(limited.headers['content-type']), /^application\/json/)
  assert.deepEqual(Object.keys(limited.json()).sort(), ['error', 'message', 'statusCode'])
  assert.equal(limited.json().statusCode, 429)
  assert.equal(limited.json().error, 'Too Many Requests')
  await app.close()
})

test('a route limit, an allow-listed address and an opted-out route', async () => {
  const app = await build()
  assert.equal((await app.inject({ url: '/strict' })).statusCode, 200)
  assert.equal((await app.inject({ url: '/strict' })).statusCode, 429)
  for (let i = 0; i < 5; i++) {
    const res = await app.inject({ url: '/a', remoteAddress: '10.0.0.9' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-ratelimit-limit'], undefined)
  }
  for (let i = 0; i < 5; i++) assert.equal((await app.inject({ url: '/free' })).statusCode, 200)
  await app.close()
})

test('over a real socket the limit applies per client address', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const codes: number[] = []
  for (let i = 0; i < 4; i++) codes.push((await request(port, { path: '/a' })).statusCode)
  assert.deepEqual(codes, [200, 200, 200, 429])
  assert.equal((await app.inject({ url: '/a', remoteAddress: '10.0.0.1' })).statusCode, 200)
})

test('keyGenerator, errorResponseBuilder, onExceeded and the preHandler hook option', async () => {
  const app: any = trellis()
  const exceeded: string[] = []
  await app.register(plugin('@fastify/rate-limit'), {
    max: 1,
    timeWindow: 60000,
    hook: 'preHandler',
    keyGenerator: (req: any) => req.headers['x-api-key'] ?? req.ip,
    onExceeded: (req: any, key: string) => { exceeded.push(key) },
    errorResponseBuilder: (_req: any, context: any) => ({ statusCode: 429, code: 'SLOW_DOWN', message: `limit ${context.max as number}, retry in ${context.after as string}` })
  })
  app.post('/k', async (req: any) => req.body)
  const a1 = await app.inject({ method: 'POST', url: '/k', headers: { 'x-api-key': 'A' }, payload: { n: 1 } })
  assert.deepEqual(a1.json(), { n: 1 })
  const b1 = await app.inject({ method: 'POST', url: '/k', headers: { 'x-api-key': 'B' }, payload: { n: 2 } })
  assert.equal(b1.statusCode, 200)
  const a2 = await app.inject({ method: 'POST', url: '/k', headers: { 'x-api-key': 'A' }, payload: { n: 3 } })
  assert.equal(a2.statusCode, 429)
  assert.equal(a2.json().code, 'SLOW_DOWN')
  assert.match(a2.json().message, /^limit 1, retry in 1 minute$/)
  assert.deepEqual(exceeded, ['A'])
  await app.close()
})
