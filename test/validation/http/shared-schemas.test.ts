/**
 * Shared schema operations through the server: addSchema encapsulation, getSchemas() visibility,
 * getSchema(id), $id errors, and unresolvable references failing at ready() with the route named.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { trellis, echo, valueErrorCompiler } from './helpers'

const one = { $id: 'one', type: 'object', properties: { a: { type: 'integer' } } }
const two = { $id: 'two', type: 'object', properties: { b: { type: 'integer' } } }
const three = { $id: 'three', type: 'object', properties: { c: { type: 'integer' } } }

describe('getSchemas() / getSchema(id) visibility', () => {
  it('spec example: root sees one; child sees one, two; grandchild sees one, two, three', async () => {
    const app = trellis()
    const seen: Record<string, string[]> = {}
    app.addSchema(one)
    app.register(async (child) => {
      child.addSchema(two)
      child.register(async (grandchild) => {
        grandchild.addSchema(three)
        seen.grandchild = Object.keys(grandchild.getSchemas())
        assert.equal(grandchild.getSchema('one'), one)
        assert.equal(grandchild.getSchema('three'), three)
      })
      child.after(() => { seen.child = Object.keys(child.getSchemas()) })
    })
    await app.ready()
    seen.root = Object.keys(app.getSchemas())
    assert.deepEqual(seen, { grandchild: ['one', 'two', 'three'], child: ['one', 'two'], root: ['one'] })
    assert.deepEqual(app.getSchemas(), { one })
    assert.equal(app.getSchema('one'), one)
    assert.equal(app.getSchema('two'), undefined)
  })

  it('siblings do not see each other\'s schemas', async () => {
    const app = trellis()
    let siblingSees: unknown = 'unset'
    app.register(async (a) => { a.addSchema(two) })
    app.register(async (b) => { siblingSees = b.getSchema('two'); b.addSchema(three) })
    await app.ready()
    assert.equal(siblingSees, undefined)
  })

  it('a schema added in a plugin wrapped with trellis/plugin is visible to the parent', async () => {
    const fp = (await import('../../../src/plugin')).default as (fn: unknown) => any
    const app = trellis()
    app.register(fp(async (p: any) => { p.addSchema(two) }))
    app.register(async (sib) => {
      sib.post('/', { schema: { body: { $ref: 'two#' } } }, echo)
    })
    await app.ready()
    assert.deepEqual(Object.keys(app.getSchemas()), ['two'])
    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { b: '5' } })).json().body, { b: 5 })
  })

  it('getSchemas() still reports added schemas when a custom validator compiler is used', async () => {
    const app = trellis()
    app.setValidatorCompiler(valueErrorCompiler(undefined, [one]))
    app.addSchema(one)
    app.addSchema(two)
    app.post('/', { schema: { body: { $ref: 'one#' } } }, echo)
    await app.ready()
    assert.deepEqual(app.getSchemas(), { one, two })
    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { a: '1' } })).json().body, { a: 1 })
  })
})

describe('addSchema encapsulation for validation', () => {
  it('a route in the child resolves the child\'s and the root\'s schemas', async () => {
    const app = trellis()
    app.addSchema(one)
    app.register(async (child) => {
      child.addSchema(two)
      child.post('/c', { schema: { body: { type: 'object', properties: { x: { $ref: 'one#' }, y: { $ref: 'two#/properties/b' } } } } }, echo)
    })
    const res = await app.inject({ method: 'POST', url: '/c', payload: { x: { a: '1' }, y: '2' } })
    assert.deepEqual(res.json().body, { x: { a: 1 }, y: 2 })
  })

  it('a route in a sibling cannot reference the other sibling\'s schema: ready() fails', async () => {
    const app = trellis()
    app.register(async (a) => { a.addSchema(two) })
    app.register(async (b) => { b.post('/b', { schema: { body: { $ref: 'two#' } } }, echo) })
    await assert.rejects(app.ready(), (err: any) => {
      assert.equal(err.code, 'FST_ERR_SCH_VALIDATION_BUILD')
      assert.match(err.message, /POST: \/b/)
      assert.match(err.message, /two#/)
      return true
    })
  })

  it('a root route cannot reference a schema added in a child', async () => {
    const app = trellis()
    app.post('/r', { schema: { body: { $ref: 'two#' } } }, echo)
    app.register(async (child) => { child.addSchema(two) })
    await assert.rejects(app.ready(), { code: 'FST_ERR_SCH_VALIDATION_BUILD' })
  })
})

describe('$id errors', () => {
  it('addSchema without $id throws FST_ERR_SCH_MISSING_ID', () => {
    const app = trellis()
    assert.throws(() => app.addSchema({ type: 'object' }), (err: any) => err.code === 'FST_ERR_SCH_MISSING_ID' && err.message === 'Missing schema $id property')
    assert.throws(() => app.addSchema({ $id: '', type: 'object' }), { code: 'FST_ERR_SCH_MISSING_ID' })
  })

  it('adding the same $id twice throws FST_ERR_SCH_ALREADY_PRESENT naming the id', () => {
    const app = trellis()
    app.addSchema(one)
    assert.throws(() => app.addSchema({ ...one }), (err: any) => err.code === 'FST_ERR_SCH_ALREADY_PRESENT' && err.message === "Schema with id 'one' already declared!")
  })

  it('a child cannot redeclare an ancestor\'s $id', async () => {
    const app = trellis()
    app.addSchema(one)
    app.register(async (child) => { child.addSchema({ ...one }) })
    await assert.rejects(app.ready(), { code: 'FST_ERR_SCH_ALREADY_PRESENT' })
  })

  it('siblings may each declare the same $id', async () => {
    const app = trellis()
    app.register(async (a) => { a.addSchema({ $id: 's', type: 'integer' }); a.post('/a', { schema: { body: { n: { $ref: 's#' } } } }, echo) })
    app.register(async (b) => { b.addSchema({ $id: 's', type: 'boolean' }); b.post('/b', { schema: { body: { n: { $ref: 's#' } } } }, echo) })
    assert.deepEqual((await app.inject({ method: 'POST', url: '/a', payload: { n: '1' } })).json().body, { n: 1 })
    assert.deepEqual((await app.inject({ method: 'POST', url: '/b', payload: { n: 'true' } })).json().body, { n: true })
  })
})

describe('unresolvable $ref fails at ready(), naming the route and the reference', () => {
  const forms: Array<[string, Record<string, unknown>, RegExp]> = [
    ['unknown shared schema in body', { body: { $ref: 'missing#' } }, /missing#/],
    ['unknown definition of a shared schema in params', { params: { type: 'object', properties: { id: { $ref: 'one#/definitions/nope' } } } }, /one#\/definitions\/nope/],
    ['unknown local definition in querystring', { querystring: { type: 'object', properties: { q: { $ref: '#/definitions/nope' } } } }, /#\/definitions\/nope/],
    ['unknown named subschema in headers', { headers: { type: 'object', properties: { h: { $ref: 'one#nope' } } } }, /one#nope/]
  ]
  for (const [label, schema, ref] of forms) {
    it(label, async () => {
      const app = trellis()
      app.addSchema(one)
      app.put('/things/:id', { schema }, echo)
      await assert.rejects(app.ready(), (err: any) => {
        assert.equal(err.code, 'FST_ERR_SCH_VALIDATION_BUILD')
        assert.match(err.message, /^Failed building the validation schema for PUT: \/things\/:id, due to error /)
        assert.match(err.message, ref)
        return true
      })
    })
  }

  it('a bad $ref in a response schema fails too (serializer build error, naming the route)', async () => {
    const app = trellis()
    app.get('/r', { schema: { response: { 200: { type: 'object', properties: { x: { $ref: 'missing#' } } } } } }, echo)
    await assert.rejects(app.ready(), (err: any) => {
      assert.equal(err.code, 'FST_ERR_SCH_SERIALIZATION_BUILD')
      assert.match(err.message, /GET: \/r/)
      assert.match(err.message, /missing/)
      return true
    })
  })
})
