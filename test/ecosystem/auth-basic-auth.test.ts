/**
 * @fastify/basic-auth 5 and @fastify/auth 4 (`fastify: '4.x'`) on trellis: a 401 with
 * WWW-Authenticate for missing or wrong credentials, access with the right ones; @fastify/auth
 * composing strategies with OR (either passes) and AND (all must pass) in an onRequest hook.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

const basic = (u: string, p: string): string => 'Basic ' + Buffer.from(`${u}:${p}`).toString('base64')

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/basic-auth'), {
    authenticate: { realm: 'shop' },
    validate: async (user: string, pass: string) => { if (user !== 'ann' || pass !== 'pw') throw new Error('bad credentials') }
  })
  await app.register(plugin('@fastify/auth'))
  app.decorate('hasKey', async (req: any) => { if (req.headers['x-key'] !== 'k') throw new Error('no key') })
  app.get('/basic', { onRequest: app.basicAuth }, async () => ({ ok: 'basic' }))
  app.get('/either', { onRequest: app.auth([app.hasKey, app.basicAuth]) }, async () => ({ ok: 'either' }))
  app.get('/both', { onRequest: app.auth([app.hasKey, app.basicAuth], { relation: 'and' }) }, async () => ({ ok: 'both' }))
  return app
}

test('basic-auth: 401 with WWW-Authenticate, then 200 with the right credentials', async () => {
  const app = await build()
  const none = await app.inject({ url: '/basic' })
  assert.equal(none.statusCode, 401)
  assert.equal(none.headers['www-authenticate'], 'Basic realm="shop", charset="UTF-8"')
  const wrong = await app.inject({ url: '/basic', headers: { authorization: basic('ann', 'nope') } })
  assert.equal(wrong.statusCode, 401)
  const ok = await app.inject({ url: '/basic', headers: { authorization: basic('ann', 'pw') } })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { ok: 'basic' })
  await app.close()
})

test('auth: OR passes with either strategy, AND needs both', async () => {
  const app = await build()
  assert.equal((await app.inject({ url: '/either', headers: { 'x-key': 'k' } })).statusCode, 200)
  assert.equal((await app.inject({ url: '/either', headers: { authorization: basic('ann', 'pw') } })).statusCode, 200)
  assert.equal((await app.inject({ url: '/either' })).statusCode, 401)
  assert.equal((await app.inject({ url: '/both', headers: { 'x-key': 'k' } })).statusCode, 401)
  const both = await app.inject({ url: '/both', headers: { 'x-key': 'k', authorization: basic('ann', 'pw') } })
  assert.equal(both.statusCode, 200)
  assert.deepEqual(both.json(), { ok: 'both' })
  await app.close()
})

test('over a real socket', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const denied = await request(port, { path: '/basic' })
  assert.equal(denied.statusCode, 401)
  assert.equal(denied.headers['www-authenticate'], 'Basic realm="shop", charset="UTF-8"')
  assert.equal(JSON.parse(denied.body).statusCode, 401)
  const ok = await request(port, { path: '/basic', headers: { authorization: basic('ann', 'pw') } })
  assert.equal(ok.statusCode, 200)
})
