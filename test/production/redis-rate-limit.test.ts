/**
 * Shared state in Redis (Debian's redis-server, started here on a loopback port; skipped with a
 * message when it is not installed): @fastify/rate-limit with its Redis store enforces one limit
 * across two trellis processes, and when Redis goes away the app keeps answering (skipOnError)
 * and logs it.
 */
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { runTrellis, stop, request, tempApp, freePort, findBinary, listeningLine, portOf, type Running } from './helpers'
import { startRedis, type RedisServer } from './redis'

const REDIS = findBinary('redis-server')
const skip = REDIS === undefined ? 'redis-server is not installed (Debian package: redis-server); these tests start their own on a loopback port' : false

// the recipe docs/deployment.md shows: fail fast while Redis is away, log it, keep answering
const APP = `
const Redis = require(${JSON.stringify(require.resolve('ioredis'))})
const rateLimit = require(${JSON.stringify(require.resolve('@fastify/rate-limit'))})
module.exports = async function (app) {
  const redis = new Redis({
    host: '127.0.0.1', port: Number(process.env.REDIS_PORT),
    enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000)
  })
  redis.on('error', (err) => app.log.error({ redisError: err.message }, 'redis unavailable: rate limits are not enforced'))
  await new Promise((resolve, reject) => { redis.once('ready', resolve); setTimeout(() => reject(new Error('redis not ready in 5 s')), 5000).unref() })
  app.addHook('onClose', async () => { redis.disconnect() })
  await app.register(rateLimit, { max: 5, timeWindow: 60000, redis, skipOnError: true, nameSpace: 'trellis-test:' })
  app.get('/limited', async () => ({ pid: process.pid }))
}
`

describe('rate limits shared in Redis', { skip, concurrency: false }, () => {
  let redis: RedisServer | undefined
  const apps: Running[] = []
  const appPorts: number[] = []

  before(async () => {
    redis = await startRedis(REDIS as string, await freePort())
    const dir = tempApp({ 'app.cjs': APP })
    for (let i = 0; i < 2; i++) apps.push(runTrellis(['start', '-a', '127.0.0.1', '-p', '0', 'app.cjs'], { cwd: dir, env: { REDIS_PORT: String(redis.port) } }))
    for (const run of apps) appPorts.push(portOf(await run.waitFor(listeningLine)))
  })
  after(async () => {
    for (const run of apps) await stop(run)
    await redis?.stop()
  })

  test('one limit across two processes: the 6th request is refused whichever process gets it', async () => {
    const order = [0, 1, 0, 1, 0]
    const remaining: string[] = []
    const pids = new Set<number>()
    for (const i of order) {
      const answer = await request(appPorts[i], '/limited')
      assert.equal(answer.status, 200)
      remaining.push(String(answer.headers['x-ratelimit-remaining']))
      pids.add(JSON.parse(answer.body).pid)
    }
    assert.equal(pids.size, 2, 'two processes answered')
    assert.deepEqual(remaining, ['4', '3', '2', '1', '0'], 'one counter, shared')
    for (const i of [1, 0]) {
      const refused = await request(appPorts[i], '/limited')
      assert.equal(refused.status, 429)
      assert.equal(JSON.parse(refused.body).statusCode, 429)
    }
  })

  test('Redis goes away: both processes keep answering (skipOnError) and log it', async () => {
    await (redis as RedisServer).stop('SIGKILL')
    for (const [i, port] of appPorts.entries()) {
      await apps[i].waitFor((l) => l.msg === 'redis unavailable: rate limits are not enforced', 5000)
      for (let n = 0; n < 3; n++) {
        const started = Date.now()
        const answer = await request(port, '/limited')
        assert.equal(answer.status, 200, 'answered without the limit instead of failing')
        assert.ok(Date.now() - started < 3000, 'without waiting for Redis to come back')
      }
    }
  })
})
