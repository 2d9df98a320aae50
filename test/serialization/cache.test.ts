import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compileSerializer, createDefaultSerializerCompiler } from '../../src/schema/serialization/index'

test('same schema object + same shared schemas -> same compiled function, across compilers', () => {
  const shared = { s: { $id: 's', type: 'string' } }
  const schema = { type: 'object', properties: { a: { $ref: 's#' } } }
  const a = createDefaultSerializerCompiler({ ...shared })({ schema, method: 'GET', url: '/', httpStatus: '200' })
  const b = createDefaultSerializerCompiler({ ...shared })({ schema, method: 'GET', url: '/b', httpStatus: '200' })
  assert.equal(a, b)
  assert.equal(a({ a: 1 }), '{"a":"1"}')
})

test('different shared schemas or schema objects -> different functions', () => {
  const schema = { $ref: 's#' }
  const one = compileSerializer(schema, { sharedSchemas: { s: { $id: 's', type: 'string' } } })
  const two = compileSerializer(schema, { sharedSchemas: { s: { $id: 's', type: 'integer' } } })
  assert.notEqual(one, two)
  assert.equal(one(1), '"1"')
  assert.equal(two('1'), '1')
  assert.notEqual(compileSerializer({ type: 'string' }), compileSerializer({ type: 'string' }))
})
