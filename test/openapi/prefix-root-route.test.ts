/**
 * A route `'/'` registered under a prefix answers both `/api/bookmarks` and `/api/bookmarks/`
 * (prefixTrailingSlash 'both', the default) but is one route: the document lists it once, under
 * the path @fastify/swagger 8 gives it (measured with fastify@4.29.1 + @fastify/swagger@8.15.0:
 * `prefix/` for 'both' and 'slash', `prefix` for 'no-slash' and for 'both' with
 * ignoreTrailingSlash).
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import openapi from '../../src/openapi'
import { schemaErrors } from './helpers'

async function pathsOf (factory: Record<string, unknown>, prefixTrailingSlash?: 'both' | 'slash' | 'no-slash', prefix = '/api/bookmarks'): Promise<{ doc: any, operations: string[], answers: Record<string, number> }> {
  const app = trellis(factory)
  app.register(openapi, { openapi: { info: { title: 'bookmarks', version: '1.0.0' } } })
  app.register(async (bookmarks) => {
    const opts = prefixTrailingSlash === undefined ? {} : { prefixTrailingSlash }
    bookmarks.get('/', { ...opts, schema: { response: { 200: { type: 'array', items: { type: 'string' } } } } }, async () => ['a'])
    bookmarks.post('/', { ...opts, schema: { body: { type: 'object', properties: { url: { type: 'string' } } } } }, async () => 'ok')
    bookmarks.get('/:id', async () => 'one')
  }, { prefix })
  await app.ready()
  const doc = app.openapi() as any
  const operations = Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
  const answers: Record<string, number> = {}
  for (const url of [prefix, prefix.endsWith('/') ? prefix.slice(0, -1) : prefix + '/']) {
    answers[url] = (await app.inject({ method: 'GET', url })).statusCode
  }
  await app.close()
  return { doc, operations, answers }
}

describe('a prefix\'s \'/\' route in the OpenAPI document', () => {
  it('default (both): listed once, under /api/bookmarks/, with get and post; both URLs still answer', async () => {
    const { doc, operations, answers } = await pathsOf({})
    assert.deepEqual(operations, ['GET /api/bookmarks/', 'POST /api/bookmarks/', 'GET /api/bookmarks/{id}'])
    assert.deepEqual(answers, { '/api/bookmarks': 200, '/api/bookmarks/': 200 })
    assert.equal(doc.paths['/api/bookmarks/'].get.responses['200'].content['application/json'].schema.type, 'array')
    assert.equal(await schemaErrors(doc), null)
  })

  it('prefixTrailingSlash \'both\' spelled out: the same', async () => {
    assert.deepEqual((await pathsOf({}, 'both')).operations, ['GET /api/bookmarks/', 'POST /api/bookmarks/', 'GET /api/bookmarks/{id}'])
  })

  it('ignoreTrailingSlash: listed once, under /api/bookmarks', async () => {
    const { operations, answers } = await pathsOf({ ignoreTrailingSlash: true })
    assert.deepEqual(operations, ['GET /api/bookmarks', 'POST /api/bookmarks', 'GET /api/bookmarks/{id}'])
    assert.deepEqual(answers, { '/api/bookmarks': 200, '/api/bookmarks/': 200 })
  })

  it('prefixTrailingSlash \'slash\' and \'no-slash\': the one URL each registers', async () => {
    const slash = await pathsOf({}, 'slash')
    assert.deepEqual(slash.operations, ['GET /api/bookmarks/', 'POST /api/bookmarks/', 'GET /api/bookmarks/{id}'])
    assert.deepEqual(slash.answers, { '/api/bookmarks': 404, '/api/bookmarks/': 200 })
    const noSlash = await pathsOf({}, 'no-slash')
    assert.deepEqual(noSlash.operations, ['GET /api/bookmarks', 'POST /api/bookmarks', 'GET /api/bookmarks/{id}'])
    assert.equal(noSlash.answers['/api/bookmarks'], 200) // ('/api/bookmarks/' is taken by '/:id' with an empty id)
  })

  it('exposeHeadRoutes: the HEAD operation is listed once too', async () => {
    const app = trellis()
    app.register(openapi, { exposeHeadRoutes: true })
    app.register(async (bookmarks) => { bookmarks.get('/', async () => ['a']) }, { prefix: '/api/bookmarks' })
    await app.ready()
    const doc = app.openapi() as any
    await app.close()
    assert.deepEqual(Object.keys(doc.paths), ['/api/bookmarks/'])
    assert.deepEqual(Object.keys(doc.paths['/api/bookmarks/']), ['get', 'head'])
  })
})
