/**
 * @fastify/request-context 5 (`fastify: '4.x'`) on trellis: values set in an onRequest hook are
 * visible in later hooks, the handler and functions it awaits (AsyncLocalStorage across trellis's
 * hook chain and body parsing), defaults from a factory, and no leak between concurrent requests.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen } from '../helpers'

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

async function build (): Promise<any> {
  const app: any = trellis()
  const { fastifyRequestContext, requestContext } = plugin('@fastify/request-context')
  await app.register(fastifyRequestContext, { defaultStoreValues: (req: any) => ({ path: req.url }) })
  app.addHook('onRequest', async (req: any) => { req.requestContext.set('user', req.headers['x-user']) })
  app.addHook('preHandler', async (req: any) => { req.requestContext.set('seenInPreHandler', requestContext.get('user')) })
  const deep = async (): Promise<string> => { await tick(Math.random() * 20); return requestContext.get('user') }
  app.post('/who', async (req: any) => ({
    user: await deep(),
    pre: requestContext.get('seenInPreHandler'),
    path: requestContext.get('path'),
    body: req.body.n
  }))
  return app
}

test('values flow from onRequest through body parsing to the handler and what it awaits', async () => {
  const app = await build()
  const res = await app.inject({ method: 'POST', url: '/who', headers: { 'x-user': 'ann' }, payload: { n: 1 } })
  assert.deepEqual(res.json(), { user: 'ann', pre: 'ann', path: '/who', body: 1 })
  await app.close()
})

test('concurrent requests over a real socket each see their own values', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { url } = await listen(app)
  const users = Array.from({ length: 20 }, (_, i) => `u${i}`)
  const answers = await Promise.all(users.map(async (u, i) => {
    const res = await fetch(`${url}/who`, { method: 'POST', headers: { 'x-user': u, 'content-type': 'application/json' }, body: JSON.stringify({ n: i }) })
    return res.json()
  }))
  assert.deepEqual(answers, users.map((u, i) => ({ user: u, pre: u, path: '/who', body: i })))
})
