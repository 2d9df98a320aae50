/**
 * What trellis/openapi serves and decorates: /json and /yaml (the same object), the docs page with
 * its local assets, the options that skip them, @fastify/swagger's option names, and clear errors.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { parse as parseYaml } from 'yaml'
import trellis from '../../src/index'
import openapi, { openapiErrors, type OpenApiOptions } from '../../src/openapi'

function app (options: OpenApiOptions = {}) {
  const a = trellis()
  a.register(openapi, options)
  a.get('/users/:id', { schema: { tags: ['users'], params: { type: 'object', properties: { id: { type: 'integer' } } } } }, async () => ({}))
  a.get('/untagged', async () => ({}))
  return a
}

describe('served document', () => {
  it('GET <prefix>/json and <prefix>/yaml are the same object as app.openapi(); the routes are not documented', async () => {
    const a = app({ routePrefix: '/docs' })
    const json = await a.inject({ url: '/docs/json' })
    assert.equal(json.statusCode, 200)
    assert.match(String(json.headers['content-type']), /^application\/json/)
    const yaml = await a.inject({ url: '/docs/yaml' })
    assert.equal(yaml.statusCode, 200)
    assert.match(String(yaml.headers['content-type']), /^application\/yaml/)
    assert.deepEqual(parseYaml(yaml.body), json.json())
    assert.deepEqual(a.openapi(), json.json())
    assert.equal(a.openapi({ yaml: true }), yaml.body)
    assert.equal(a.swagger(), a.openapi(), 'swagger() is an alias')
    assert.deepEqual(Object.keys(json.json().paths), ['/untagged', '/users/{id}'])
    await a.close()
  })

  it('the docs page: HTML with a CSP and no inline script, assets from the local package, unknown assets 404', async () => {
    const a = app()
    const page = await a.inject({ url: '/documentation' })
    assert.equal(page.statusCode, 200)
    assert.match(String(page.headers['content-type']), /^text\/html/)
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/)
    assert.ok(!/<script>/.test(page.body), 'no inline script')
    assert.ok(!/https?:\/\//.test(page.body), 'nothing from a CDN')
    for (const [file, type] of [['swagger-ui-bundle.js', /javascript/], ['swagger-ui.css', /text\/css/], ['init.js', /javascript/]] as const) {
      const res = await a.inject({ url: `/documentation/static/${file}` })
      assert.equal(res.statusCode, 200, file)
      assert.match(String(res.headers['content-type']), type)
    }
    const slash = await a.inject({ url: '/documentation/' })
    assert.equal(slash.statusCode, 302)
    assert.equal(slash.headers.location, '/documentation')
    const init = await a.inject({ url: '/documentation/static/init.js' })
    assert.match(init.body, /"url":"\/documentation\/json"/)
    for (const url of ['/documentation/static/package.json', '/documentation/static/..%2F..%2Fpackage.json', '/documentation/static/%2e%2e%2fpackage.json']) {
      const res = await a.inject({ url })
      assert.equal(res.statusCode, 404, url)
      assert.equal(res.json().statusCode, 404)
    }
    await a.close()
  })

  it('ui: false and exposeRoute: false skip the page and the document routes (app.openapi() still works)', async () => {
    const a = app({ ui: false, exposeRoute: false })
    assert.equal((await a.inject({ url: '/documentation' })).statusCode, 404)
    assert.equal((await a.inject({ url: '/documentation/json' })).statusCode, 404)
    assert.equal((await a.inject({ url: '/documentation/static/swagger-ui-bundle.js' })).statusCode, 404)
    assert.deepEqual(Object.keys(a.openapi().paths), ['/untagged', '/users/{id}'])
    await a.close()
  })

  it('registered inside a prefixed plugin, it serves under the prefix and still documents every route', async () => {
    const a = trellis()
    a.get('/root', async () => ({}))
    a.register(async (child) => { child.register(openapi, { routePrefix: '/docs' }) }, { prefix: '/api' })
    await a.ready()
    const init = await a.inject({ url: '/api/docs/static/init.js' })
    assert.match(init.body, /"url":"\/api\/docs\/json"/)
    assert.deepEqual(Object.keys((await a.inject({ url: '/api/docs/json' })).json().paths), ['/root'])
    await a.close()
  })
})

describe('options and errors', () => {
  it('app.openapi() before ready() is a clear error', async () => {
    const a = trellis()
    await a.register(openapi, { ui: false })
    assert.throws(() => a.openapi(), (err: Error & { code?: string }) => err instanceof openapiErrors.TRELLIS_OPENAPI_NOT_READY && /after ready\(\)/.test(err.message))
  })

  it('invalid options fail ready() with TRELLIS_OPENAPI_INVALID_OPTIONS', async () => {
    for (const options of [{ transform: 1 }, { openapi: { openapi: '2.0' } }, { routePrefix: 'docs' }]) {
      const a = trellis()
      a.register(openapi, options as never)
      await assert.rejects(a.ready(), (err: Error & { code?: string }) => err.code === 'TRELLIS_OPENAPI_INVALID_OPTIONS', JSON.stringify(options))
    }
  })

  it('routes registered before the plugin are documented too (no onRoute hook involved)', async () => {
    const a = trellis()
    a.get('/early', async () => ({}))
    a.register(openapi, { ui: false })
    a.get('/late', async () => ({}))
    await a.ready()
    assert.deepEqual(Object.keys(a.openapi().paths), ['/early', '/late'])
  })

  it('hideUntagged, hiddenTag, hide, exposeHeadRoutes (global and per route)', async () => {
    const a = app({ hideUntagged: true, ui: false })
    a.get('/x', { schema: { tags: ['X-HIDDEN'] } }, async () => ({}))
    a.get('/y', { schema: { tags: ['t'], hide: true } }, async () => ({}))
    a.get('/head-too', { schema: { tags: ['t'] }, config: { swagger: { exposeHeadRoute: true } } }, async () => ({}))
    await a.ready()
    const doc = a.openapi()
    assert.deepEqual(Object.keys(doc.paths), ['/head-too', '/users/{id}'])
    assert.deepEqual(Object.keys(doc.paths['/head-too'] as object), ['get', 'head'])
    assert.deepEqual(Object.keys(doc.paths['/users/{id}'] as object), ['get'])
    const b = app({ exposeHeadRoutes: true, ui: false })
    await b.ready()
    assert.deepEqual(Object.keys(b.openapi().paths['/users/{id}'] as object), ['get', 'head'])
  })

  it('with ignoreTrailingSlash the page answers both spellings itself', async () => {
    const a = trellis({ ignoreTrailingSlash: true })
    a.register(openapi)
    assert.equal((await a.inject({ url: '/documentation/' })).statusCode, 200)
    assert.equal((await a.inject({ url: '/documentation' })).statusCode, 200)
    await a.close()
  })

  it('two routes with the same method and path (other constraints) give one operation, whatever their order', async () => {
    const docs = []
    for (const order of [0, 1]) {
      const a = trellis()
      a.register(openapi, { ui: false })
      const routes = [
        () => a.get('/v', { constraints: { version: '1.0.0' }, schema: { summary: 'one' } }, async () => ({})),
        () => a.get('/v', { constraints: { version: '2.0.0' }, schema: { summary: 'two' } }, async () => ({}))
      ]
      if (order === 1) routes.reverse()
      for (const add of routes) add()
      await a.ready()
      docs.push(JSON.stringify(a.openapi()))
      await a.close()
    }
    assert.equal(docs[0], docs[1])
    assert.deepEqual(Object.keys(JSON.parse(docs[0]).paths['/v']), ['get'])
  })

  it('transform (global, per-route override, per-route false) and transformObject', async () => {
    const a = app({
      ui: false,
      transform: ({ schema, url }) => ({ schema: { ...schema, summary: `global ${url}` }, url: url.replace('/users', '/people') }),
      transformObject: ({ openapiObject }) => ({ ...openapiObject, info: { ...(openapiObject.info as object), title: 'Transformed' } })
    })
    a.get('/own', { config: { swaggerTransform: ({ schema, url }: any) => ({ schema: { ...schema, summary: 'own' }, url }) } }, async () => ({}))
    a.get('/none', { config: { swaggerTransform: false } }, async () => ({}))
    await a.ready()
    const doc = a.openapi() as any
    assert.equal(doc.info.title, 'Transformed')
    assert.equal(doc.paths['/people/{id}'].get.summary, 'global /users/:id')
    assert.equal(doc.paths['/own'].get.summary, 'own')
    assert.equal(doc.paths['/none'].get.summary, undefined)
  })
})
