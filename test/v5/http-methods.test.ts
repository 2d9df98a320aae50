import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: the standard methods and QUERY; WebDAV methods are refused until added`, async () => {
    const app = factory()
    assert.deepEqual([...app.supportedMethods].sort(), ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'QUERY', 'TRACE'])
    assert.throws(() => app.route({ method: 'PROPFIND', url: '/', handler: () => 'x' }), { code: 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED' })
    assert.throws(() => app.addHttpMethod('NOT-A-METHOD'), { code: 'FST_ERR_ROUTE_METHOD_INVALID' })
    app.addHttpMethod('PROPFIND', { hasBody: true })
    app.addHttpMethod('MKCOL')
    assert.equal(typeof app.propfind, 'function')
    app.propfind('/dav', async (req: any) => ({ body: req.body ?? null }))
    app.mkcol('/dav', async (req: any) => ({ body: req.body ?? null }))
    const withBody = await app.inject({ method: 'PROPFIND', url: '/dav', payload: { depth: 1 } })
    assert.deepEqual(withBody.json(), { body: { depth: 1 } })
    // a method added without a body never has one parsed
    const bodyless = await app.inject({ method: 'MKCOL', url: '/dav', payload: { ignored: true } })
    assert.deepEqual(bodyless.json(), { body: null })
    assert.ok(app.supportedMethods.includes('PROPFIND'))
    await app.close()
  })

  test(`${name}: QUERY parses its body and requires a Content-Type`, async () => {
    const app = factory()
    app.query('/search', async (req: any) => ({ body: req.body }))
    const ok = await app.inject({ method: 'QUERY', url: '/search', payload: { q: 'x' } })
    assert.deepEqual(ok.json(), { body: { q: 'x' } })
    const missing = await app.inject({ method: 'QUERY', url: '/search', payload: 'q=x', headers: { 'content-type': undefined } })
    assert.equal(missing.statusCode, 400)
    assert.equal(missing.json().code, 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE')
    await app.close()
  })

  test(`${name}: DELETE with a JSON Content-Type and an empty body is a 400`, async () => {
    const app = factory()
    app.delete('/item', async () => ({ deleted: true }))
    const res = await app.inject({ method: 'DELETE', url: '/item', headers: { 'content-type': 'application/json' } })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().code, 'FST_ERR_CTP_EMPTY_JSON_BODY')
    assert.equal((await app.inject({ method: 'DELETE', url: '/item' })).statusCode, 200)
    await app.close()
  })

  test(`${name}: hasRoute matches a route as it was defined, not a URL it would serve`, async () => {
    const app = factory()
    app.get('/example/:file(^\\d+).png', () => 'x')
    await app.ready()
    assert.equal(app.hasRoute({ method: 'GET', url: '/example/:file(^\\d+).png' }), true)
    assert.equal(app.hasRoute({ method: 'GET', url: '/example/12345.png' }), false)
    await app.close()
  })
}

test('trellis (v4 line): WebDAV methods are built in; DELETE with an empty JSON body is accepted; hasRoute matches URLs', async () => {
  const app = v4()
  assert.equal(app.supportedMethods, undefined)
  assert.equal(app.addHttpMethod, undefined)
  app.route({ method: 'PROPFIND', url: '/dav', handler: async () => ({ ok: true }) })
  app.delete('/item', async () => ({ deleted: true }))
  app.get('/example/:file(^\\d+).png', () => 'x')
  assert.equal((await app.inject({ method: 'PROPFIND', url: '/dav' })).statusCode, 200)
  assert.equal((await app.inject({ method: 'DELETE', url: '/item', headers: { 'content-type': 'application/json' } })).statusCode, 200)
  assert.equal(app.hasRoute({ method: 'GET', url: '/example/12345.png' }), true)
})
