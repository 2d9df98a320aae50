/**
 * Schemas equal in content compile once with the default compilers (each route's
 * `{ $ref: 'body#' }` is a new object), while custom compilers are still called per route and
 * per part, as Fastify 4.3 calls them.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

const BODY = { $id: 'body', type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }
const REPLY = { $id: 'reply', type: 'object', properties: { n: { type: 'integer' }, ok: { type: 'boolean' } } }

/** An Ajv plugin (public `ajv.plugins` option) that counts the compilations of the instance. */
function countingPlugin (counter: { compiles: number }) {
  return function countCompiles (ajv: { compile: (s: unknown) => unknown }): void {
    const compile = ajv.compile.bind(ajv)
    ajv.compile = (schema: unknown) => { counter.compiles++; return compile(schema) }
  }
}

test('100 routes with { $ref: "body#" } each: the default validator compiles once, every route validates', async () => {
  const counter = { compiles: 0 }
  const app = trellis({ ajv: { plugins: [countingPlugin(counter)] } })
  app.addSchema({ ...BODY })
  app.addSchema({ ...REPLY })
  for (let i = 0; i < 100; i++) {
    app.post('/r' + String(i), { schema: { body: { $ref: 'body#' }, response: { 200: { $ref: 'reply#' } } } },
      async (req) => ({ n: (req.body as { n: number }).n, ok: true, extra: 'dropped' }))
  }
  await app.ready()
  assert.equal(counter.compiles, 1)
  for (const i of [0, 50, 99]) {
    const ok = await app.inject({ method: 'POST', url: '/r' + String(i), payload: { n: '7' } })
    assert.equal(ok.statusCode, 200)
    assert.equal(ok.body, '{"n":7,"ok":true}')
    const bad = await app.inject({ method: 'POST', url: '/r' + String(i), payload: { n: 'x' } })
    assert.equal(bad.statusCode, 400)
    assert.match(bad.json().message, /body\/n must be integer/)
  }
  await app.close()
})

test('schemas equal in content but written separately per route compile once; different content compiles again', async () => {
  const counter = { compiles: 0 }
  const app = trellis({ ajv: { plugins: [countingPlugin(counter)] } })
  for (let i = 0; i < 20; i++) {
    app.post('/same' + String(i), { schema: { body: { type: 'object', properties: { a: { type: 'string', maxLength: 3 } } } } }, async () => 'ok')
  }
  app.post('/other', { schema: { body: { type: 'object', properties: { a: { type: 'string', maxLength: 4 } } } } }, async () => 'ok')
  await app.ready()
  assert.equal(counter.compiles, 2)
  assert.equal((await app.inject({ method: 'POST', url: '/same3', payload: { a: 'abcd' } })).statusCode, 400)
  assert.equal((await app.inject({ method: 'POST', url: '/other', payload: { a: 'abcd' } })).statusCode, 200)
  await app.close()
})

test('the same content under other shared schemas is a different schema', async () => {
  const app = trellis()
  app.addSchema({ $id: 'v', type: 'integer' })
  app.post('/root', { schema: { body: { type: 'object', properties: { x: { $ref: 'v#' } } } } }, async (req) => req.body)
  await app.register(async (child) => {
    child.addSchema({ $id: 'w', type: 'string' })
    child.post('/child', { schema: { body: { type: 'object', properties: { x: { $ref: 'v#' } } } } }, async (req) => req.body)
  })
  await app.ready()
  // both see v = integer; the child's set differs (it adds w), which must not break anything
  assert.equal((await app.inject({ method: 'POST', url: '/root', payload: { x: 'a' } })).statusCode, 400)
  assert.equal((await app.inject({ method: 'POST', url: '/child', payload: { x: 'a' } })).statusCode, 400)
  assert.equal((await app.inject({ method: 'POST', url: '/child', payload: { x: 3 } })).statusCode, 200)
  await app.close()
})

test('custom validator and serializer compilers are still called once per route and part', async () => {
  const app = trellis()
  let validatorCalls = 0
  let serializerCalls = 0
  app.setValidatorCompiler(() => { validatorCalls++; return () => true })
  app.setSerializerCompiler(() => { serializerCalls++; return (data: unknown) => JSON.stringify(data) })
  for (let i = 0; i < 10; i++) {
    app.post('/c' + String(i), { schema: { body: { type: 'object' }, querystring: { type: 'object' }, response: { 200: { type: 'object' } } } }, async () => ({}))
  }
  await app.ready()
  assert.equal(validatorCalls, 20)
  assert.equal(serializerCalls, 10)
  await app.close()
})
