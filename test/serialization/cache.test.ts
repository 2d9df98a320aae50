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
  assert.notEqual(compileSerializer({ type: 'string' }), compileSerializer({ type: 'integer' }))
})

test('schemas equal in content compile once; property order, shared schemas and options still tell them apart', () => {
  const shared = { s: { $id: 's', type: 'object', properties: { x: { type: 'integer' } } } }
  const fns = Array.from({ length: 100 }, () => compileSerializer({ $ref: 's#' }, { sharedSchemas: shared }))
  assert.equal(new Set(fns).size, 1)
  assert.equal(fns[0]({ x: 1.7, y: 2 }), '{"x":1}')
  // same content, other shared schema objects: compiled separately (the shared set is part of the key)
  assert.notEqual(compileSerializer({ $ref: 's#' }, { sharedSchemas: { s: { ...shared.s } } }), fns[0])
  // same content, other options
  assert.notEqual(compileSerializer({ $ref: 's#' }, { sharedSchemas: shared, rounding: 'ceil' }), fns[0])
  // key order is content for a serializer: properties are written in schema order
  const ab = compileSerializer({ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } })
  const ba = compileSerializer({ type: 'object', properties: { b: { type: 'integer' }, a: { type: 'integer' } } })
  assert.notEqual(ab, ba)
  assert.equal(ab({ a: 1, b: 2 }), '{"a":1,"b":2}')
  assert.equal(ba({ a: 1, b: 2 }), '{"b":2,"a":1}')
  // a default that is not plain data (a Date) is keyed by identity
  const d1 = new Date(0)
  const withDate = (d: Date): unknown => ({ type: 'object', properties: { t: { type: 'string', default: d } } })
  assert.equal(compileSerializer(withDate(d1)), compileSerializer(withDate(d1)))
  assert.notEqual(compileSerializer(withDate(d1)), compileSerializer(withDate(new Date(0))))
})
