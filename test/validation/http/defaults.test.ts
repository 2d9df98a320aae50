/**
 * Where a schema's `default` is filled in, over inject: the default compiler runs Ajv with
 * `useDefaults`, and the inferred request types (src/types/schema-to-type.ts, the 'request' mode)
 * make a property with a default required exactly where this holds. The reply side: the
 * serializer writes a missing property's default, even a required one (the 'reply' mode lets the
 * handler leave it out). test/types/inference/defaults.mts checks the types themselves.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { trellis } from './helpers'

describe('defaults fill every request part', () => {
  it('querystring, params, headers and body each get their missing properties', async () => {
    const app = trellis()
    app.post('/items/:id', {
      schema: {
        querystring: { type: 'object', properties: { page: { type: 'integer', default: 1 } } },
        params: { type: 'object', properties: { id: { type: 'string' }, extra: { type: 'string', default: 'E' } } },
        headers: { type: 'object', properties: { 'X-Mode': { type: 'string', default: 'fast' } } },
        body: { type: 'object', properties: { name: { type: 'string', default: 'anonymous' } } }
      }
    }, async (request) => ({ query: request.query, params: request.params, mode: request.headers['x-mode'], body: request.body }))
    const res = await app.inject({ method: 'POST', url: '/items/7', payload: {} })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { query: { page: 1 }, params: { id: '7', extra: 'E' }, mode: 'fast', body: { name: 'anonymous' } })
  })

  it('a sent value is kept, and a default is coerced like the rest of the part', async () => {
    const app = trellis()
    app.get('/', { schema: { querystring: { type: 'object', properties: { page: { type: 'integer', default: 1 } } } } },
      async (request) => request.query)
    assert.deepEqual((await app.inject({ url: '/?page=4' })).json(), { page: 4 })
    assert.deepEqual((await app.inject({ url: '/' })).json(), { page: 1 })
  })
})

describe('defaults inside a part: where Ajv assigns them', () => {
  const body = {
    type: 'object',
    properties: {
      nested: { type: 'object', properties: { b: { type: 'integer', default: 2 } } },
      absent: { type: 'object', properties: { g: { type: 'integer', default: 8 } } },
      withDefault: { type: 'object', default: {}, properties: { c: { type: 'integer', default: 3 } } },
      list: { type: 'array', items: { type: 'object', properties: { d: { type: 'integer', default: 4 } } } },
      all: { allOf: [{ type: 'object', properties: { f: { type: 'integer', default: 7 } } }] },
      shared: { $ref: 'defaults-shared#' },
      pointer: { $ref: 'defaults-shared#/properties/s' },
      local: { $ref: '#/definitions/loc' }
    },
    definitions: { loc: { type: 'object', properties: { l: { type: 'integer', default: 11 } } } }
  }

  it('nested objects that are present, array items, allOf members and $ref targets are filled', async () => {
    const app = trellis()
    app.addSchema({ $id: 'defaults-shared', type: 'object', properties: { s: { type: 'string', default: 'S' } } })
    app.post('/', { schema: { body } }, async (request) => request.body)
    const res = await app.inject({ method: 'POST', url: '/', payload: { nested: {}, list: [{}, { d: 0 }], all: {}, shared: {}, local: {} } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), {
      nested: { b: 2 },
      list: [{ d: 4 }, { d: 0 }],
      all: { f: 7 },
      shared: { s: 'S' },
      local: { l: 11 },
      // a property with a default object is filled, then its own defaults
      withDefault: { c: 3 }
      // `absent` stays absent (its own properties' defaults need the object),
      // `pointer` too: the default is on the $ref target, not on the property schema
    })
  })

  it('a default under anyOf or oneOf is refused when the route is built (Ajv strict mode): Ajv would never assign it', async () => {
    for (const keyword of ['anyOf', 'oneOf']) {
      const app = trellis()
      app.post('/', {
        schema: { body: { type: 'object', properties: { x: { [keyword]: [{ type: 'object', properties: { e: { type: 'integer', default: 6 } } }] } } } }
      }, async () => 'unreachable')
      await assert.rejects(app.ready(), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'FST_ERR_SCH_VALIDATION_BUILD')
        assert.match(err.message, /default is ignored/)
        return true
      })
    }
  })
})

describe('defaults in replies', () => {
  it('the serializer writes a missing property\'s default, a required one included', async () => {
    const app = trellis()
    app.get('/', {
      schema: {
        response: {
          200: { type: 'object', properties: { id: { type: 'integer' }, status: { type: 'string', default: 'active' } }, required: ['id', 'status'] }
        }
      }
    }, async () => ({ id: 1 }))
    const res = await app.inject({ url: '/' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { id: 1, status: 'active' })
  })
})
