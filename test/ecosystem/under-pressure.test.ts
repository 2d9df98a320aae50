/**
 * @fastify/under-pressure 8 (`fastify: '4.x'`) on trellis: the status route, a failing health check
 * turning every route into a 503 with Retry-After (and the status route with it), a route-level
 * pressure handler, and the decorators `memoryUsage` / `isUnderPressure`.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

async function build (healthy: { value: boolean }, extra: Record<string, unknown> = {}): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/under-pressure'), {
    healthCheck: async () => healthy.value,
    exposeStatusRoute: '/status',
    retryAfter: 7,
    ...extra
  })
  app.get('/work', async () => ({ done: true }))
  return app
}

test('healthy: the status route answers ok and routes run; decorators report', async () => {
  const app = await build({ value: true })
  const status = await app.inject({ url: '/status' })
  assert.equal(status.statusCode, 200)
  assert.deepEqual(status.json(), { status: 'ok' })
  assert.equal((await app.inject({ url: '/work' })).statusCode, 200)
  const mem = app.memoryUsage()
  assert.deepEqual(Object.keys(mem).sort(), ['eventLoopDelay', 'eventLoopUtilized', 'heapUsed', 'rssBytes'])
  assert.equal(app.isUnderPressure(), false)
  await app.close()
})

test('a failing health check: 503 with Retry-After on every route, until the periodic check passes (real socket)', async (t) => {
  const healthy = { value: false }
  const app = await build(healthy, { healthCheckInterval: 20 })
  t.after(() => app.close())
  const { port } = await listen(app)
  for (const path of ['/status', '/work']) {
    const res = await request(port, { path })
    assert.equal(res.statusCode, 503, path)
    assert.equal(res.headers['retry-after'], '7')
    assert.equal(JSON.parse(res.body).code, 'FST_UNDER_PRESSURE')
  }
  healthy.value = true
  const deadline = Date.now() + 3000
  let code = 0
  while (code !== 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    code = (await request(port, { path: '/work' })).statusCode
  }
  assert.equal(code, 200)
  assert.equal((await request(port, { path: '/status' })).statusCode, 200)
})

test('pressure (a 1-byte heap limit): routes answer 503 or go through a custom pressure handler', async () => {
  const app = await build({ value: true }, {
    maxHeapUsedBytes: 1,
    sampleInterval: 10,
    pressureHandler: (_req: any, reply: any, type: string) => { reply.code(503).send({ shed: type }) }
  })
  await app.ready()
  // the plugin samples memory on a timer (sampleInterval, 10 ms here): wait for the first sample
  const deadline = Date.now() + 3000
  while (!app.isUnderPressure() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  const res = await app.inject({ url: '/work' })
  assert.equal(res.statusCode, 503)
  assert.deepEqual(res.json(), { shed: 'heapUsedBytes' })
  await app.close()
})
