/**
 * @fastify/redis 6 (`fastify: '4.x'`) on trellis against a real redis-server (Debian's, started
 * here on a loopback port as test/production does; skipped with a message when it is not
 * installed): the shared and namespaced clients answer commands from routes, and app.close()
 * quits the connections the plugin opened (the process is not held open).
 */
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { findBinary, freePort } from '../production/helpers'
import { startRedis, type RedisServer } from '../production/redis'

const REDIS = findBinary('redis-server')
const skip = REDIS === undefined ? 'redis-server is not installed (Debian package: redis-server); this test starts its own on a loopback port' : false

describe('@fastify/redis against a real redis-server', { skip }, () => {
  let server: RedisServer | undefined
  before(async () => { server = await startRedis(REDIS as string, await freePort()) })
  after(async () => { await server?.stop() })

  test('routes use the shared and a namespaced client; close() quits both', async () => {
    const app: any = trellis()
    const url = `redis://127.0.0.1:${server?.port ?? 0}`
    await app.register(plugin('@fastify/redis'), { url })
    await app.register(plugin('@fastify/redis'), { url, namespace: 'cache', keyPrefix: 'c:' })
    app.put('/kv/:k', async (req: any) => { await app.redis.set(req.params.k, req.body.v); return { ok: true } })
    app.get('/kv/:k', async (req: any) => ({ v: await app.redis.get(req.params.k) }))
    app.post('/count', async () => ({ n: await app.redis.cache.incr('hits') }))
    const put = await app.inject({ method: 'PUT', url: '/kv/a', payload: { v: 'one' } })
    assert.equal(put.statusCode, 200)
    assert.deepEqual((await app.inject({ url: '/kv/a' })).json(), { v: 'one' })
    assert.deepEqual((await app.inject({ url: '/kv/b' })).json(), { v: null })
    assert.deepEqual((await app.inject({ method: 'POST', url: '/count' })).json(), { n: 1 })
    assert.deepEqual((await app.inject({ method: 'POST', url: '/count' })).json(), { n: 2 })
    assert.equal(await app.redis.get('c:hits'), '2') // the namespaced client prefixed its keys
    // each client emits 'end' once its connection is gone; 2 s is far more than a loopback QUIT needs
    const ended = [app.redis, app.redis.cache].map((c: any) => new Promise<string>((resolve) => {
      c.once('end', () => resolve('end'))
      setTimeout(() => resolve(`still ${c.status as string}`), 2000).unref()
    }))
    await app.close()
    assert.deepEqual(await Promise.all(ended), ['end', 'end'])
  })
})
