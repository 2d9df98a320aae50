import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

test('request.routeOptions (Fastify 4.29): frozen, bodyLimit falls back to the server limit, config/schema are the route\'s', async () => {
  const app: any = trellis({ bodyLimit: 1000 })
  const schema = { querystring: { type: 'object' } }
  app.get('/a', { config: { x: 1 }, schema, exposeHeadRoute: false }, async (req: any) => {
    const o = req.routeOptions
    assert.equal(Object.isFrozen(o), true)
    assert.equal(Reflect.set(o, 'url', '/b'), false)
    assert.equal(o.config.x, 1)
    assert.equal(o.schema, schema)
    assert.equal(typeof o.handler, 'function')
    return { method: o.method, url: o.url, bodyLimit: o.bodyLimit, exposeHeadRoute: o.exposeHeadRoute, version: o.version ?? null }
  })
  app.post('/b', { bodyLimit: 10 }, async (req: any) => ({ bodyLimit: req.routeOptions.bodyLimit }))
  assert.deepEqual((await app.inject({ url: '/a', headers: { 'accept-version': '1.2.0' } })).json(), { method: 'GET', url: '/a', bodyLimit: 1000, exposeHeadRoute: false, version: '1.2.0' })
  assert.deepEqual((await app.inject({ method: 'POST', url: '/b', payload: {} })).json(), { bodyLimit: 10 })
})

test('request.routerPath / routerMethod / routeConfig / routeSchema / connection still work, with their FSTDEP deprecations', async () => {
  const codes = new Set<string>()
  const onWarning = (w: any): void => { if (w.name === 'DeprecationWarning' && typeof w.code === 'string') codes.add(w.code) }
  process.on('warning', onWarning)
  try {
    const app: any = trellis()
    app.get('/p', { config: { y: 2 } }, async (req: any) => [req.routerPath, req.routerMethod, req.routeConfig.y, req.routeSchema ?? null, req.connection === req.socket])
    assert.deepEqual((await app.inject('/p')).json(), ['/p', 'GET', 2, null, true])
    await new Promise((resolve) => setImmediate(resolve))
    for (const code of ['FSTDEP005', 'FSTDEP015', 'FSTDEP016', 'FSTDEP017', 'FSTDEP018']) assert.ok(codes.has(code), code)
  } finally {
    process.removeListener('warning', onWarning)
  }
})
