/**
 * Schemas compiled at request time (Fastify 4.3's public API): request.compileValidationSchema /
 * getValidationFunction / validateInput and reply.compileSerializationSchema /
 * getSerializationFunction / serializeInput.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../../src/index'
import { kRouteSerializeFns, kRouteValidateFns } from '../../../src/lifecycle/route-context'

const user = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }

describe('request-time validation schemas', () => {
  it('compileValidationSchema compiles once per route and schema object; getValidationFunction finds it', async () => {
    const app = trellis()
    const seen: unknown[] = []
    app.get('/', async (req: any) => {
      const before = req.routeContext[kRouteValidateFns]
      const fn = req.compileValidationSchema(user)
      seen.push(fn)
      return { before: before === null, ok: fn({ name: 'a' }), bad: fn({}), same: req.getValidationFunction(user) === fn }
    })
    const a = (await app.inject('/')).json()
    const b = (await app.inject('/')).json()
    assert.deepEqual(a, { before: true, ok: true, bad: false, same: true })
    assert.deepEqual(b, { before: false, ok: true, bad: false, same: true })
    assert.equal(seen[0], seen[1])
  })

  it('getValidationFunction(part) returns the route validator; unknown schemas give undefined and create no cache', async () => {
    const app = trellis()
    app.post('/', { schema: { body: user, querystring: { n: { type: 'integer' } } } }, async (req: any) => ({
      body: req.getValidationFunction('body')({ name: 'x' }),
      query: typeof req.getValidationFunction('query'),
      unknown: req.getValidationFunction({}) === undefined && req.getValidationFunction(42) === undefined,
      cache: req.routeContext[kRouteValidateFns]
    }))
    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { name: 'x' } })).json(), { body: true, query: 'function', unknown: true, cache: null })
  })

  it('validateInput uses the route part validator, else compiles the schema with the route compiler', async () => {
    const app = trellis()
    const calls: Array<{ httpPart: string, url: string, method: string }> = []
    const validatorCompiler = ({ httpPart, url, method }: any) => { calls.push({ httpPart, url, method }); return (d: any) => d.ok === true }
    app.get('/', { validatorCompiler }, async (req: any) => [
      req.validateInput({ ok: true }, user, 'querystring'),
      req.validateInput({ ok: false }, user)
    ])
    assert.deepEqual((await app.inject('/')).json(), [true, false])
    assert.deepEqual(calls, [{ httpPart: 'querystring', url: '/', method: 'GET' }])
  })

  it('validateInput without a part validator nor a schema throws FST_ERR_REQ_INVALID_VALIDATION_INVOCATION', async () => {
    const app = trellis()
    app.get('/', async (req: any) => {
      try { req.validateInput({}, 'body'); return 'no error' } catch (err: any) { return err.code }
    })
    assert.equal((await app.inject('/')).body, 'FST_ERR_REQ_INVALID_VALIDATION_INVOCATION')
  })
})

describe('request-time serialization schemas', () => {
  it('getSerializationFunction(key) returns the serializer declared under exactly that key', async () => {
    const app = trellis()
    const response = { 201: { type: 'object', properties: { a: { type: 'string' } } }, '4xx': { type: 'object', properties: { e: { type: 'string' } } } }
    app.get('/', { schema: { response } }, async (_req: any, reply: any) => {
      const s201 = reply.getSerializationFunction(201)
      const s4xx = reply.getSerializationFunction('4xx')
      // a string payload is not serialized again by the route's response schema
      return reply.type('application/json').send(JSON.stringify({ a: s201({ a: 'x', b: 1 }), e: s4xx({ e: 'y', f: 2 }), none: reply.getSerializationFunction(404) === undefined }))
    })
    assert.deepEqual((await app.inject('/')).json(), { a: '{"a":"x"}', e: '{"e":"y"}', none: true })
  })

  it('compileSerializationSchema caches per route; serializeInput uses a key or a schema', async () => {
    const app = trellis()
    app.get('/', { schema: { response: { 200: user } } }, async (_req: any, reply: any) => {
      const before = reply.routeContext[kRouteSerializeFns]
      const fn = reply.compileSerializationSchema(user)
      let missing = ''
      try { reply.serializeInput({}, 500) } catch (err: any) { missing = err.code }
      return reply.type('application/json').send(JSON.stringify({
        before,
        same: reply.compileSerializationSchema(user) === fn && reply.getSerializationFunction(user) === fn,
        bySchema: reply.serializeInput({ name: 'n', x: 1 }, user),
        byKey: reply.serializeInput({ name: 'k', x: 1 }, 200),
        missing
      }))
    })
    assert.deepEqual((await app.inject('/')).json(), { before: null, same: true, bySchema: '{"name":"n"}', byKey: '{"name":"k"}', missing: 'FST_ERR_MISSING_SERIALIZATION_FN' })
  })
})
