/**
 * fluent-json-schema builders are accepted wherever a schema goes (addSchema, request parts,
 * schema.response): they are read through valueOf(), never as raw objects (whose builder methods
 * sit under keyword names such as `allOf`).
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../../src/index'

/** A builder shaped like fluent-json-schema's: plain prototype, methods under keyword names. */
function fluent (json: Record<string, unknown>): Record<string, unknown> {
  return {
    isFluentSchema: true,
    allOf: () => { throw new Error('builder method') },
    anyOf: () => { throw new Error('builder method') },
    required: () => { throw new Error('builder method') },
    valueOf: () => structuredClone(json)
  }
}

describe('fluent-json-schema builders', () => {
  it('a fluent response schema is serialized from valueOf() (undeclared properties dropped)', async () => {
    const app = trellis()
    app.get('/', {
      schema: { response: { 200: fluent({ type: 'object', properties: { name: { type: 'string' } } }) } }
    }, async () => ({ name: 'a', secret: 'b' }))
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { name: 'a' })
  })

  it('addSchema takes a fluent schema; request parts reference it', async () => {
    const app = trellis()
    app.addSchema(fluent({ $id: 'https://ex/demo', definitions: { n: { type: 'integer', minimum: 42 } } }))
    assert.deepEqual(Object.keys(app.getSchemas()), ['https://ex/demo'])
    assert.equal(typeof (app.getSchema('https://ex/demo') as any).allOf, 'undefined')
    app.post('/:id', {
      schema: { params: fluent({ type: 'object', properties: { id: { $ref: 'https://ex/demo#/definitions/n' } } }) }
    }, async (req: any) => ({ id: req.params.id }))
    assert.deepEqual((await app.inject({ method: 'POST', url: '/1' })).json().message, 'params/id must be >= 42')
    assert.deepEqual((await app.inject({ method: 'POST', url: '/42' })).json(), { id: 42 })
  })
})
