/**
 * @fastify/autoload 5 (its Fastify 4 line; it is not wrapped by fastify-plugin, so it declares no
 * range of its own) on trellis with a fixtures directory: shared plugins registered first with the
 * options given, routes prefixed by their directory, `autoPrefix`, `autohooks` scoped to their
 * directory, and an ignore pattern.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import trellis, { plugin } from './target'

async function build (): Promise<any> {
  const app: any = trellis()
  const autoload = plugin('@fastify/autoload')
  const base = join(__dirname, 'fixtures', 'autoload')
  await app.register(autoload, { dir: join(base, 'plugins'), options: { label: 'from options' } })
  await app.register(autoload, { dir: join(base, 'routes'), autoHooks: true, ignorePattern: /\.helper\.js$/ })
  await app.ready()
  return app
}

test('plugins, directory-prefixed routes, autoPrefix, scoped autohooks and an ignore pattern', async () => {
  const app = await build()
  const users = await app.inject({ url: '/users' })
  assert.equal(users.statusCode, 200)
  assert.deepEqual(users.json(), { users: ['ann', 'bob'], label: 'from options' })
  assert.equal(users.headers['x-users-hook'], '1')
  const one = await app.inject({ url: '/users/7' })
  assert.deepEqual(one.json(), { id: '7' })
  const health = await app.inject({ url: '/meta/health' })
  assert.deepEqual(health.json(), { ok: true })
  assert.equal(health.headers['x-users-hook'], undefined)
  assert.equal((await app.inject({ url: '/health' })).statusCode, 404)
  assert.equal((await app.inject({ url: '/ignored' })).statusCode, 404)
  assert.equal(app.hasRoute({ method: 'GET', url: '/users/:id' }), true)
  await app.close()
})
