import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compileResponseSerializers, createDefaultSerializerCompiler, normalizeResponseSchema } from '../../src/schema/serialization/index'

const compiler = createDefaultSerializerCompiler({})

test('exact -> class -> default', () => {
  const r = compileResponseSerializers({
    method: 'GET',
    url: '/x',
    compiler,
    responseSchemas: {
      200: { type: 'object', properties: { a: { type: 'string' } } },
      '2XX': { type: 'object', properties: { b: { type: 'string' } } },
      default: { type: 'object', properties: { c: { type: 'string' } } }
    }
  })
  const v = { a: 'a', b: 'b', c: 'c' }
  assert.equal(r.forStatus(200)?.(v), '{"a":"a"}')
  assert.equal(r.forStatus(201)?.(v), '{"b":"b"}')
  assert.equal(r.forStatus(404)?.(v), '{"c":"c"}')
  const none = compileResponseSerializers({ method: 'GET', url: '/', compiler, responseSchemas: { '4xx': { type: 'string' } } })
  assert.equal(none.forStatus(200), undefined)
  assert.equal(none.forStatus(418)?.(1), '"1"')
})

test('shorthand properties at top level', () => {
  assert.deepEqual(normalizeResponseSchema({ a: { type: 'string' } }), { type: 'object', properties: { a: { type: 'string' } } })
  const full = { $ref: 'x#' }
  assert.equal(normalizeResponseSchema(full), full)
  const r = compileResponseSerializers({ method: 'GET', url: '/', compiler, responseSchemas: { 200: { hello: { type: 'string' } } } })
  assert.equal(r.forStatus(200)?.({ hello: 'w', no: 1 }), '{"hello":"w"}')
})

test('build failures are FST_ERR_SCH_SERIALIZATION_BUILD naming the route', () => {
  assert.throws(() => compileResponseSerializers({ method: 'POST', url: '/u', compiler, responseSchemas: { 200: { $ref: 'nope#' } } }),
    (err: Error & { code?: string }) => err.code === 'FST_ERR_SCH_SERIALIZATION_BUILD' && /POST/.test(err.message) && /\/u/.test(err.message) && /nope#/.test(err.message))
})

test('the serializerOpts server option sets the default compiler\'s integer rounding', async () => {
  const { default: trellis } = await import('../../src/index')
  const app = trellis({ serializerOpts: { rounding: 'ceil' } })
  app.get('/', { schema: { response: { '2xx': { type: 'integer' } } } }, (_req: unknown, reply: any) => { reply.send(4.2) })
  assert.equal((await app.inject('/')).body, '5')
  const plain = trellis()
  plain.get('/', { schema: { response: { '2xx': { type: 'integer' } } } }, (_req: unknown, reply: any) => { reply.send(4.2) })
  assert.equal((await plain.inject('/')).body, '4')
})
