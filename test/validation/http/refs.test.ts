/**
 * $ref resolution through the server: every form of the spec's table, in request parts (one
 * route using all of them at once) and in response schemas, where the serializer must resolve the
 * same references (and drop undeclared properties).
 */
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { trellis } from './helpers'

const user = {
  $id: 'http://example.com/user.json',
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer' } },
  required: ['name'],
  definitions: { id: { type: 'integer', minimum: 1 }, tag: { $id: '#tag', type: 'string' } }
}
const address = { $id: 'address', type: 'object', properties: { city: { $id: '#city', type: 'string' }, zip: { type: 'integer' } } }

describe('$ref in request parts: all forms in one route', () => {
  const app = trellis()
  app.addSchema(user)
  app.addSchema(address)
  app.post('/refs/:id', {
    schema: {
      body: {
        type: 'object',
        definitions: { tag: { $id: '#tag', type: 'string', maxLength: 4 }, n: { type: 'integer' } },
        properties: {
          user: { $ref: 'http://example.com/user.json#' },
          age: { $ref: 'http://example.com/user.json#/properties/age' },
          city: { $ref: 'address#city' },
          tag: { $ref: '#tag' },
          n: { $ref: '#/definitions/n' },
          remoteTag: { $ref: 'http://example.com/user.json#tag' }
        }
      },
      params: { type: 'object', properties: { id: { $ref: 'http://example.com/user.json#/definitions/id' } } },
      querystring: { type: 'object', properties: { addr: { $ref: 'address#/properties/zip' } } },
      headers: { type: 'object', properties: { 'x-age': { $ref: 'http://example.com/user.json#/properties/age' } } }
    }
  }, async (req: any) => ({ body: req.body, id: req.params.id, zip: req.query.addr, age: req.headers['x-age'] }))
  after(() => app.close())

  it('valid input is coerced through every reference', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/refs/4?addr=1234',
      headers: { 'x-age': '40' },
      payload: { user: { name: 'ann', age: '3' }, age: '5', city: 'Oslo', tag: 'ab', n: '6', remoteTag: 'long tag is fine' }
    })
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(res.json(), {
      body: { user: { name: 'ann', age: 3 }, age: 5, city: 'Oslo', tag: 'ab', n: 6, remoteTag: 'long tag is fine' },
      id: 4,
      zip: 1234,
      age: 40
    })
  })

  const failures: Array<[string, Record<string, unknown>, string]> = [
    ['uri# (whole shared schema)', { payload: { user: {} } }, "body/user must have required property 'name'"],
    ['uri#/properties/x', { payload: { age: 'x' } }, 'body/age must be integer'],
    ['uri#name', { payload: { city: {} } }, 'body/city must be string'],
    ['#name (local, not the shared #tag)', { payload: { tag: 'abcde' } }, 'body/tag must NOT have more than 4 characters'],
    ['#/definitions/x', { payload: { n: 'x' } }, 'body/n must be integer'],
    ['uri#/definitions/x in params', { url: '/refs/0' }, 'params/id must be >= 1'],
    ['uri#/properties/x in querystring', { url: '/refs/1?addr=z' }, 'querystring/addr must be integer'],
    ['uri#/properties/x in headers', { headers: { 'x-age': 'old' } }, 'headers/x-age must be integer']
  ]
  for (const [form, req, message] of failures) {
    it(`failure through ${form}`, async () => {
      const res = await app.inject({ method: 'POST', url: '/refs/1', payload: {}, ...req } as never)
      assert.deepEqual(res.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message })
    })
  }
})

describe('$ref in response schemas: the serializer resolves the same references', () => {
  const app = trellis()
  app.addSchema(user)
  app.addSchema(address)
  const payload = { name: 'ann', age: '41', city: 77, zip: '123', tag: 5, n: '9', secret: 'leak', extra: true }
  const routes: Array<[string, Record<string, unknown>, unknown]> = [
    ['uri# (whole shared schema)', { $ref: 'http://example.com/user.json#' }, { name: 'ann', age: 41 }],
    ['uri#/definitions/x', { type: 'object', properties: { n: { $ref: 'http://example.com/user.json#/definitions/id' } } }, { n: 9 }],
    ['uri#/properties/x', { type: 'object', properties: { age: { $ref: 'http://example.com/user.json#/properties/age' }, zip: { $ref: 'address#/properties/zip' } } }, { age: 41, zip: 123 }],
    ['uri#name', { type: 'object', properties: { city: { $ref: 'address#city' }, tag: { $ref: 'http://example.com/user.json#tag' } } }, { city: '77', tag: '5' }],
    ['#name (local)', { type: 'object', definitions: { num: { $id: '#num', type: 'integer' } }, properties: { n: { $ref: '#num' } } }, { n: 9 }],
    ['#/definitions/x (local)', { type: 'object', definitions: { s: { type: 'string' } }, properties: { name: { $ref: '#/definitions/s' }, age: { $ref: '#/definitions/s' } } }, { name: 'ann', age: '41' }],
    ['shorthand response with a shared $ref property', { name: { type: 'string' }, who: { $ref: 'http://example.com/user.json#' } }, { name: 'ann' }]
  ]
  routes.forEach(([, schema], i) => {
    app.get(`/r${i}`, { schema: { response: { 200: schema } } }, async () => payload)
  })
  app.get('/nested', {
    schema: { response: { 200: { type: 'object', properties: { list: { type: 'array', items: { $ref: 'http://example.com/user.json#' } }, home: { $ref: 'address#' } } } } }
  }, async () => ({ list: [{ name: 'a', age: '1', pw: 'x' }, { name: 'b', pw: 'y' }], home: { city: 'Rome', zip: '1', pw: 'z' }, pw: 'top' }))
  before(() => app.ready())
  after(() => app.close())

  routes.forEach(([form, , expected], i) => {
    it(form, async () => {
      const res = await app.inject({ url: `/r${i}` })
      assert.equal(res.statusCode, 200, res.body)
      assert.match(String(res.headers['content-type']), /^application\/json/)
      assert.deepEqual(res.json(), expected)
      assert.doesNotMatch(res.body, /leak|extra/)
    })
  })

  it('references inside arrays and nested objects; undeclared properties never leak', async () => {
    const res = await app.inject({ url: '/nested' })
    assert.deepEqual(res.json(), { list: [{ name: 'a', age: 1 }, { name: 'b' }], home: { city: 'Rome', zip: 1 } })
    assert.doesNotMatch(res.body, /pw/)
  })

  it('a child context serializes with its own and its ancestors\' shared schemas', async () => {
    const app2 = trellis()
    app2.addSchema(user)
    app2.register(async (child) => {
      child.addSchema({ $id: 'wrapper', type: 'object', properties: { u: { $ref: 'http://example.com/user.json#' } } })
      child.get('/w', { schema: { response: { 200: { $ref: 'wrapper#' } } } }, async () => ({ u: { name: 'x', age: '2', pw: 1 }, pw: 2 }))
    })
    assert.deepEqual((await app2.inject({ url: '/w' })).json(), { u: { name: 'x', age: 2 } })
    await app2.close()
  })
})
