import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compileSerializer } from '../../src/schema/serialization/index'

const ser = (schema: unknown, shared?: Record<string, Record<string, unknown>>) => compileSerializer(schema, { sharedSchemas: shared })

test('object: declared properties only, required first, missing required throws', () => {
  const s = ser({ type: 'object', required: ['b'], properties: { a: { type: 'string' }, b: { type: 'integer' } } })
  assert.equal(s({ a: 'x', b: 2, secret: 'no' }), '{"b":2,"a":"x"}')
  assert.throws(() => s({ a: 'x' }), { message: '"b" is required!' })
  assert.throws(() => ser({ type: 'object', required: ['z'] })({}), { message: '"z" is required!' })
})

test('additionalProperties false / true / schema, patternProperties', () => {
  assert.equal(ser({ type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false })({ a: 1, b: 2 }), '{"a":1}')
  assert.equal(ser({ type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: true })({ a: 1, b: { c: 2 } }), '{"a":1,"b":{"c":2}}')
  assert.equal(ser({ type: 'object', additionalProperties: { type: 'string' } })({ a: 1, b: 'x' }), '{"a":"1","b":"x"}')
  assert.equal(ser({ type: 'object', patternProperties: { '^n_': { type: 'number' } } })({ n_a: '3', other: 1 }), '{"n_a":3}')
})

test('arrays: items schema, tuple, additionalItems', () => {
  assert.equal(ser({ type: 'array', items: { type: 'integer' } })([1.7, 2]), '[1,2]')
  const tuple = ser({ type: 'array', items: [{ type: 'string' }, { type: 'integer' }] })
  assert.equal(tuple(['a', 1]), '["a",1]')
  assert.throws(() => tuple(['a', 1, 2]), { message: 'Item at 2 does not match schema definition.' })
  assert.equal(ser({ type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'object', properties: { a: { type: 'integer' } } } })(['a', { a: 1, b: 2 }]), '["a",{"a":1}]')
})

test('type arrays, null, nullable', () => {
  const s = ser({ type: ['integer', 'null', 'string'] })
  assert.equal(s(null), 'null')
  assert.equal(s(3), '3')
  assert.equal(s('x'), '"x"')
  assert.equal(ser({ type: 'null' })(1), 'null')
  assert.equal(ser({ type: 'string', nullable: true })(null), 'null')
  assert.equal(ser({ type: 'string' })(null), '""')
  assert.equal(ser({ type: 'object', nullable: true, properties: {} })(null), 'null')
  assert.equal(ser({ type: 'object', properties: {} })(null), '{}')
})

test('enum, const, default', () => {
  assert.equal(ser({ type: 'string', enum: ['a', 'b'] })('a'), '"a"')
  assert.equal(ser({ const: 'x' })('anything'), '"x"')
  assert.equal(ser({ type: 'object', properties: { a: { type: 'string', default: 'd' }, b: { type: 'integer', default: 3 } } })({}), '{"a":"d","b":3}')
})

test('anyOf / oneOf choose the first matching branch; nothing matching throws', () => {
  const s = ser({ anyOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'string' } } }, { type: 'array', items: { type: 'integer' } }] })
  assert.equal(s({ a: 'x', z: 1 }), '{"a":"x"}')
  assert.equal(s([1, 2]), '[1,2]')
  assert.throws(() => s(5), TypeError)
  const o = ser({ type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'boolean' }] } } })
  assert.equal(o({ v: true }), '{"v":true}')
})

test('allOf merges properties and required', () => {
  const s = ser({ allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } }] })
  assert.equal(s({ a: 'x', b: 1, c: 2 }), '{"b":1,"a":"x"}')
  assert.throws(() => s({ a: 'x' }), { message: '"b" is required!' })
})

test('if / then / else', () => {
  const s = ser({
    type: 'object',
    properties: { kind: { type: 'string' } },
    if: { properties: { kind: { const: 'a' } } },
    then: { properties: { a: { type: 'integer' } } },
    else: { properties: { b: { type: 'boolean' } } }
  })
  assert.equal(s({ kind: 'a', a: 1, b: 2 }), '{"kind":"a","a":1}')
  assert.equal(s({ kind: 'z', a: 1, b: 2 }), '{"kind":"z","b":true}')
})

test('recursive schemas compile once and serialize deep trees', () => {
  const s = ser({ $id: 'tree', type: 'object', properties: { v: { type: 'integer' }, kids: { type: 'array', items: { $ref: '#' } } } })
  assert.equal(s({ v: 1, kids: [{ v: 2, kids: [{ v: 3, x: 0 }] }] }), '{"v":1,"kids":[{"v":2,"kids":[{"v":3}]}]}')
  assert.match(s.source, /function f0/)
})

test('dates, toJSON, typeless schema', () => {
  const d = new Date('2020-01-02T03:04:05.000Z')
  assert.equal(ser({ type: 'string', format: 'date-time' })(d), '"2020-01-02T03:04:05.000Z"')
  assert.match(ser({ type: 'string', format: 'date' })(d), /^"\d{4}-\d\d-\d\d"$/)
  assert.match(ser({ type: 'string', format: 'time' })(d), /^"\d\d:\d\d:\d\d"$/)
  assert.equal(ser({ type: 'string' })(d), '"2020-01-02T03:04:05.000Z"')
  const withToJSON = { toJSON: () => ({ a: 1, b: 2 }) }
  assert.equal(ser({ type: 'object', properties: { a: { type: 'integer' } } })(withToJSON), '{"a":1}')
  assert.equal(ser({})({ any: [1, 'x'] }), '{"any":[1,"x"]}')
  assert.equal(ser({})(undefined), 'null')
})

test('debug option / source exposes the generated code', () => {
  const s = compileSerializer({ type: 'object', properties: { 'we"ird': { type: 'string' } } })
  assert.equal(typeof s.source, 'string')
  assert.equal(s({ 'we"ird': 'v' }), '{"we\\"ird":"v"}')
})
