/**
 * A few validation rules over a real socket (listen on 127.0.0.1, port 0) with fetch.
 */
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { trellis } from './helpers'

describe('validation over a real socket', () => {
  const app = trellis()
  let base = ''
  app.addSchema({ $id: 'user', type: 'object', properties: { name: { type: 'string', maxLength: 10 }, age: { type: 'integer' } }, required: ['name'] })
  app.post('/users/:id', {
    schema: {
      params: { id: { type: 'integer' } },
      body: { $ref: 'user#' },
      querystring: { ids: { type: 'array', items: { type: 'string' } }, n: { type: 'integer', default: 1 } },
      headers: { type: 'object', properties: { 'X-Api-Version': { type: 'integer' } }, required: ['X-Api-Version'] },
      response: { 200: { type: 'object', properties: { id: { type: 'integer' }, user: { $ref: 'user#' }, ids: { type: 'array', items: { type: 'string' } }, n: { type: 'integer' }, v: { type: 'integer' } } } }
    }
  }, async (req: any) => ({ id: req.params.id, user: { ...req.body, password: 'x' }, ids: req.query.ids, n: req.query.n, v: req.headers['x-api-version'], secret: 'x' }))
  app.register(async (child) => {
    child.setErrorHandler((error: any, _req: unknown, reply: any) => {
      if (error.validation) return reply.code(422).send({ context: error.validationContext, keyword: error.validation[0].keyword })
      reply.send(error)
    })
    child.put('/strict', { schema: { body: { type: 'object', required: ['a'] } } }, async () => ({ ok: true }))
  })

  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address() as { port: number }
    base = `http://127.0.0.1:${address.port}`
  })
  after(() => app.close())

  const post = (path: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') =>
    fetch(base + path, { method, body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } })

  it('valid request: all parts coerced, response serialized by its schema', async () => {
    const res = await post('/users/7?ids=a', { name: 'ann', age: '30', extra: 1 }, { 'x-api-version': '2' })
    assert.equal(res.status, 200)
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/)
    assert.deepEqual(await res.json(), { id: 7, user: { name: 'ann', age: 30 }, ids: ['a'], n: 1, v: 2 })
  })

  it('each invalid part gets a 400 with the part-prefixed message', async () => {
    const h = { 'x-api-version': '1' }
    const cases: Array<[Promise<Response>, string]> = [
      [post('/users/x', { name: 'a' }, h), 'params/id must be integer'],
      [post('/users/1', { age: 1 }, h), "body must have required property 'name'"],
      [post('/users/1', { name: 'much too long name' }, h), 'body/name must NOT have more than 10 characters'],
      [post('/users/1?n=x', { name: 'a' }, h), 'querystring/n must be integer'],
      [post('/users/1', { name: 'a' }), "headers must have required property 'x-api-version'"],
      [post('/users/1', '[]', h), 'body must be object']
    ]
    for (const [pending, message] of cases) {
      const res = await pending
      assert.equal(res.status, 400)
      assert.deepEqual(await res.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message })
    }
  })

  it('a context error handler answers validation errors its own way', async () => {
    const res = await post('/strict', {}, {}, 'PUT')
    assert.equal(res.status, 422)
    assert.deepEqual(await res.json(), { context: 'body', keyword: 'required' })
  })

  it('the server keeps answering after a burst of bad requests', async () => {
    const bad = await Promise.all(Array.from({ length: 20 }, () => post('/users/1', { name: {} }, { 'x-api-version': '1' })))
    for (const r of bad) { assert.equal(r.status, 400); await r.arrayBuffer() }
    const ok = await post('/users/2', { name: 'b' }, { 'x-api-version': '3' })
    assert.equal(ok.status, 200)
    assert.equal(((await ok.json()) as { id: number }).id, 2)
  })
})
