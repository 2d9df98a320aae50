/**
 * The Fastify 4 bridge's warnings on the v5 line: TRLBRG002 names the plugins that used an accessor
 * (each once per accessor), not every bridged plugin, and says Fastify 5's way; code outside the
 * bridged plugins is named by file and line; Fastify 4's deprecation texts ("will be removed in
 * `fastify@5`", FSTDEP005-021) are never emitted on the v5 line.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { v4, v5 } from './lines'

const routeMetrics = require('./fixtures/bridge-users/route-metrics.cjs')
const quietLegacy = require('./fixtures/bridge-users/quiet-legacy.cjs')
const timing = require('./fixtures/bridge-users/timing.cjs')
const sensible = require('@fastify/sensible') // 5: declares fastify '4.x'

function collectWarnings (): { warnings: Array<{ code: string, message: string }>, stop: () => void } {
  const warnings: Array<{ code: string, message: string }> = []
  const listener = (w: Error & { code?: string }): void => { warnings.push({ code: String(w.code), message: w.message }) }
  process.on('warning', listener)
  return { warnings, stop: () => { process.off('warning', listener) } }
}

const settle = async (): Promise<void> => { await new Promise((resolve) => setImmediate(resolve)) }

test('TRLBRG002 names only the bridged plugins that used the accessor, each once, with Fastify 5\'s way', async () => {
  const { warnings, stop } = collectWarnings()
  const app = v5()
  try {
    app.register(sensible)
    app.register(quietLegacy)
    app.register(routeMetrics)
    app.register(timing)
    app.get('/items/:id', async () => ({ ok: true }))
    for (let i = 0; i < 3; i++) {
      const res = await app.inject(`/items/${i}`)
      assert.equal(res.headers['x-timing'], '/items/:id number')
      assert.equal(res.headers['x-quiet'], 'yes')
    }
    assert.deepEqual(app.seenRoutes, ['/items/:id', '/items/:id', '/items/:id'])
    await settle()
    const named = warnings.filter((w) => w.code === 'TRLBRG002').map((w) => w.message).sort()
    assert.deepEqual(named, [
      'reply.getResponseTime() is Fastify 4 only: answered by the Fastify 4 bridge for timing (Fastify 5: reply.elapsedTime)',
      'request.routerPath is Fastify 4 only: answered by the Fastify 4 bridge for route-metrics (Fastify 5: request.routeOptions.url)',
      'request.routerPath is Fastify 4 only: answered by the Fastify 4 bridge for timing (Fastify 5: request.routeOptions.url)'
    ])
    assert.deepEqual(warnings.filter((w) => w.code === 'TRLBRG001').length, 4)
    assert.deepEqual(warnings.filter((w) => w.code.startsWith('FSTDEP')), [])
  } finally {
    stop()
    await app.close()
  }
})

test('the application\'s own use of an accessor the bridge lends is named by file and line', async () => {
  const { warnings, stop } = collectWarnings()
  const app = v5()
  try {
    app.register(quietLegacy)
    app.get('/', async (request: any, reply: any) => ({ path: request.routerPath, redirect: typeof reply.redirect }))
    assert.deepEqual((await app.inject('/')).json(), { path: '/', redirect: 'function' })
    await settle()
    const named = warnings.filter((w) => w.code === 'TRLBRG002').map((w) => w.message)
    assert.equal(named.length, 1)
    assert.match(named[0], /^request\.routerPath is Fastify 4 only: answered by the Fastify 4 bridge for code outside the bridged plugins \((.+):(\d+)\) \(Fastify 5: request\.routeOptions\.url\)$/)
    assert.ok(named[0].includes(join('test', 'v5', 'bridge-warnings.test.ts')), named[0])
  } finally {
    stop()
    await app.close()
  }
})

test('every Fastify 4 accessor the bridge lends answers with no Fastify 4 deprecation on the v5 line', async () => {
  const { warnings, stop } = collectWarnings()
  const app = v5()
  try {
    app.register(quietLegacy)
    app.get('/r', async (request: any, reply: any) => {
      const seen = {
        routerPath: request.routerPath,
        routerMethod: request.routerMethod,
        routeConfig: request.routeConfig.url,
        routeSchema: request.routeSchema === undefined || typeof request.routeSchema === 'object',
        context: request.context.config.url,
        connection: request.connection === request.raw.socket,
        replyContext: reply.context.config.url,
        responseTime: typeof reply.getResponseTime()
      }
      reply.header('x-seen', JSON.stringify(seen))
      return reply.redirect(301, '/elsewhere')
    })
    const res = await app.inject('/r')
    assert.equal(res.statusCode, 301)
    assert.equal(res.headers.location, '/elsewhere')
    assert.deepEqual(JSON.parse(String(res.headers['x-seen'])), {
      routerPath: '/r', routerMethod: 'GET', routeConfig: '/r', routeSchema: true, context: '/r', connection: true, replyContext: '/r', responseTime: 'number'
    })
    await settle()
    assert.deepEqual(warnings.filter((w) => w.code !== 'TRLBRG001' && w.code !== 'TRLBRG002'), [])
    assert.equal(warnings.filter((w) => w.code === 'TRLBRG002').length, 9)
    assert.ok(warnings.every((w) => !w.message.includes('fastify@5')), JSON.stringify(warnings))
  } finally {
    stop()
    await app.close()
  }
})

test('the v4 line keeps Fastify 4.29\'s deprecations for the same accessors', async () => {
  const { warnings, stop } = collectWarnings()
  const app = v4()
  try {
    app.register(timing)
    app.get('/t', async () => 'ok')
    assert.equal((await app.inject('/t')).headers['x-timing'], '/t number')
    await settle()
    assert.equal(warnings.some((w) => w.code.startsWith('TRLBRG')), false)
    // once per process: the v5 tests above emitted neither
    assert.ok(warnings.some((w) => w.code === 'FSTDEP017' && w.message.includes('will be removed in `fastify@5`')), JSON.stringify(warnings))
    assert.ok(warnings.some((w) => w.code === 'FSTDEP020'), JSON.stringify(warnings))
  } finally {
    stop()
    await app.close()
  }
})
