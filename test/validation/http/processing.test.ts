/**
 * Request processing rules over inject: content types, which methods carry a validated body,
 * hook order around validation (preValidation before, preHandler after, with coerced values),
 * and the handler running with coerced data.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { trellis, echo } from './helpers'

const bodySchema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }

describe('content type governs body validation', () => {
  it('an application/json body is parsed, validated and coerced', async () => {
    const app = trellis()
    app.post('/', { schema: { body: bodySchema } }, echo)
    const ok = await app.inject({ method: 'POST', url: '/', payload: '{"n":"5"}', headers: { 'content-type': 'application/json; charset=utf-8' } })
    assert.equal(ok.statusCode, 200)
    assert.deepEqual(ok.json().body, { n: 5 })
    const bad = await app.inject({ method: 'POST', url: '/', payload: '{"n":"five"}', headers: { 'content-type': 'application/json' } })
    assert.deepEqual(bad.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body/n must be integer' })
  })

  it('an unsupported content type is refused by the parser (415) and the validator never runs', async () => {
    const app = trellis()
    let calls = 0
    app.post('/', {
      schema: { body: bodySchema },
      validatorCompiler: () => () => { calls++; return true }
    }, echo)
    const res = await app.inject({ method: 'POST', url: '/', payload: '<n>5</n>', headers: { 'content-type': 'application/xml' } })
    assert.equal(res.statusCode, 415)
    assert.equal(calls, 0)
  })

  it('a text/plain body reaches validation as a string (the parser decides what is validated)', async () => {
    const app = trellis()
    app.post('/obj', { schema: { body: bodySchema } }, echo)
    app.post('/str', { schema: { body: { type: 'string', maxLength: 3 } } }, echo)
    const obj = await app.inject({ method: 'POST', url: '/obj', payload: '{"n":1}', headers: { 'content-type': 'text/plain' } })
    assert.deepEqual(obj.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body must be object' })
    const str = await app.inject({ method: 'POST', url: '/str', payload: 'abcd', headers: { 'content-type': 'text/plain' } })
    assert.deepEqual(str.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body must NOT have more than 3 characters' })
    const strOk = await app.inject({ method: 'POST', url: '/str', payload: 'abc', headers: { 'content-type': 'text/plain' } })
    assert.equal(strOk.json().body, 'abc')
  })

  it('malformed JSON is a parser error (400), not a validation error, and the server keeps answering', async () => {
    const app = trellis()
    let validated = 0
    app.post('/', { schema: { body: bodySchema }, validatorCompiler: () => () => { validated++; return true } }, echo)
    const res = await app.inject({ method: 'POST', url: '/', payload: '{"n":', headers: { 'content-type': 'application/json' } })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().statusCode, 400)
    assert.match(res.json().message, /JSON/)
    assert.equal(validated, 0)
    const ok = await app.inject({ method: 'POST', url: '/', payload: { n: 1 } })
    assert.equal(ok.statusCode, 200)
  })
})

describe('which requests carry a validated body', () => {
  for (const method of ['POST', 'PUT', 'PATCH'] as const) {
    it(`${method}: body validated and coerced`, async () => {
      const app = trellis()
      app.route({ method, url: '/', schema: { body: bodySchema }, handler: echo })
      assert.equal((await app.inject({ method, url: '/', payload: { n: 'x' } })).statusCode, 400)
      assert.deepEqual((await app.inject({ method, url: '/', payload: { n: '2' } })).json().body, { n: 2 })
    })
  }

  for (const method of ['DELETE', 'OPTIONS'] as const) {
    it(`${method} with a JSON body: the parsed body is validated and coerced`, async () => {
      const app = trellis()
      app.route({ method, url: '/', schema: { body: bodySchema }, handler: echo })
      const bad = await app.inject({ method, url: '/', payload: { n: 'x' } })
      assert.deepEqual(bad.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body/n must be integer' })
      assert.deepEqual((await app.inject({ method, url: '/', payload: { n: '2' } })).json().body, { n: 2 })
    })
    it(`${method} without a body schema and without a body: no body validation, handler runs`, async () => {
      const app = trellis()
      app.route({ method, url: '/', schema: { querystring: { q: { type: 'integer' } } }, handler: echo })
      const res = await app.inject({ method, url: '/?q=3' })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json().query, { q: 3 })
      assert.equal(res.json().body, null)
    })
  }

  it('GET: a request body is neither parsed nor validated; querystring still is', async () => {
    const app = trellis()
    app.get('/', { schema: { querystring: { n: { type: 'integer' } } } }, echo)
    const res = await app.inject({ method: 'GET', url: '/?n=1', payload: { n: 'not validated' } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.json().body, null)
    assert.deepEqual(res.json().query, { n: 1 })
  })

  it('a body schema on a GET or HEAD route is refused when the route is declared', () => {
    const app = trellis()
    assert.throws(() => app.get('/', { schema: { body: bodySchema } } as never, echo), /Body validation schema for GET:\/ route is not supported!/)
    assert.throws(() => app.head('/h', { schema: { body: bodySchema } } as never, echo), /Body validation schema for HEAD:\/h route is not supported!/)
  })

  it('querystring, params and headers are validated for every method of the route', async () => {
    const app = trellis()
    app.route({
      method: ['GET', 'POST', 'DELETE', 'HEAD'],
      url: '/:id',
      schema: { params: { id: { type: 'integer' } }, querystring: { q: { type: 'integer' } }, headers: { 'x-h': { type: 'integer' } } },
      handler: echo
    })
    for (const method of ['GET', 'POST', 'DELETE', 'HEAD'] as const) {
      assert.equal((await app.inject({ method, url: '/x' })).statusCode, 400, `${method} params`)
      assert.equal((await app.inject({ method, url: '/1?q=x' })).statusCode, 400, `${method} querystring`)
      assert.equal((await app.inject({ method, url: '/1', headers: { 'x-h': 'x' } })).statusCode, 400, `${method} headers`)
      assert.equal((await app.inject({ method, url: '/1?q=2', headers: { 'x-h': '3' } })).statusCode, 200, `${method} valid`)
    }
  })
})

describe('hook order around validation', () => {
  function build () {
    const app = trellis()
    const seen: Array<[string, unknown]> = []
    app.addHook('preValidation', async (req: any) => { seen.push(['preValidation', JSON.parse(JSON.stringify({ body: req.body, query: req.query }))]) })
    app.addHook('preHandler', async (req: any) => { seen.push(['preHandler', JSON.parse(JSON.stringify({ body: req.body, query: req.query }))]) })
    app.post('/', { schema: { body: bodySchema, querystring: { q: { type: 'integer' } } } }, async (req: any) => {
      seen.push(['handler', JSON.parse(JSON.stringify({ body: req.body, query: req.query }))])
      return { ok: true }
    })
    return { app, seen }
  }

  it('preValidation sees raw values, preHandler and the handler see coerced values', async () => {
    const { app, seen } = build()
    const res = await app.inject({ method: 'POST', url: '/?q=7', payload: { n: '3' } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(seen, [
      ['preValidation', { body: { n: '3' }, query: { q: '7' } }],
      ['preHandler', { body: { n: 3 }, query: { q: 7 } }],
      ['handler', { body: { n: 3 }, query: { q: 7 } }]
    ])
  })

  it('on a validation failure, preValidation ran, preHandler and the handler did not', async () => {
    const { app, seen } = build()
    const res = await app.inject({ method: 'POST', url: '/', payload: {} })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(seen.map((s) => s[0]), ['preValidation'])
  })

  it('a preValidation hook may fix the data before it is validated', async () => {
    const app = trellis()
    app.addHook('preValidation', async (req: any) => { if (req.body.n === undefined) req.body.n = '10' })
    app.post('/', { schema: { body: bodySchema } }, echo)
    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: {} })).json().body, { n: 10 })
  })

  it('async work in preHandler uses the validated data', async () => {
    const app = trellis()
    const users: Record<number, string> = { 3: 'ann' }
    app.decorateRequest('user', null)
    app.addHook('preHandler', async (req: any) => {
      await new Promise((resolve) => setImmediate(resolve))
      req.user = users[req.params.id] // params.id is a number here
    })
    app.get('/users/:id', { schema: { params: { id: { type: 'integer' } } } }, async (req: any) => ({ user: req.user, type: typeof req.params.id }))
    assert.deepEqual((await app.inject({ url: '/users/3' })).json(), { user: 'ann', type: 'number' })
  })
})

describe('response schema by status code', () => {
  it('the payload is serialized by the schema of its status: exact code, class, default', async () => {
    const app = trellis()
    app.get('/:code', {
      schema: {
        params: { code: { type: 'integer' } },
        response: {
          200: { type: 'object', properties: { a: { type: 'string' } } },
          '2xx': { b: { type: 'string' } }, // shorthand
          default: { type: 'object', properties: { c: { type: 'integer' } } }
        }
      }
    }, async (req: any, reply: any) => {
      reply.code(req.params.code)
      return { a: 1, b: 2, c: '3', secret: 'x' }
    })
    assert.deepEqual((await app.inject({ url: '/200' })).json(), { a: '1' })
    assert.deepEqual((await app.inject({ url: '/201' })).json(), { b: '2' })
    assert.deepEqual((await app.inject({ url: '/404' })).json(), { c: 3 })
  })
})
