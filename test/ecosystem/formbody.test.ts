/**
 * @fastify/formbody 7 (`fastify: '4.x'`) on trellis: urlencoded bodies parsed (repeated keys as
 * arrays), validated by the route's body schema, the body limit enforced, and a real-socket POST.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/formbody'), { bodyLimit: 100 })
  app.post('/f', async (req: any) => req.body)
  app.post('/typed', { schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } }, async (req: any) => req.body)
  return app
}

const form = { 'content-type': 'application/x-www-form-urlencoded' }

test('urlencoded bodies are parsed; repeated keys become arrays', async () => {
  const app = await build()
  const res = await app.inject({ method: 'POST', url: '/f', payload: 'a=1&b=x%20y&a=2', headers: form })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { a: ['1', '2'], b: 'x y' })
  await app.close()
})

test('the route schema validates (and coerces) the parsed body', async () => {
  const app = await build()
  assert.deepEqual((await app.inject({ method: 'POST', url: '/typed', payload: 'n=5', headers: form })).json(), { n: 5 })
  const bad = await app.inject({ method: 'POST', url: '/typed', payload: 'm=5', headers: form })
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().code, 'FST_ERR_VALIDATION')
  await app.close()
})

test('over the plugin bodyLimit: 413', async () => {
  const app = await build()
  const res = await app.inject({ method: 'POST', url: '/f', payload: 'a=' + 'x'.repeat(200), headers: form })
  assert.equal(res.statusCode, 413)
  assert.equal(res.json().code, 'FST_ERR_CTP_BODY_TOO_LARGE')
  await app.close()
})

test('over a real socket', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const res = await request(port, { method: 'POST', path: '/f', body: 'k=v', headers: form })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(JSON.parse(res.body), { k: 'v' })
})
