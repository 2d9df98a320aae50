import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compileSerializer } from '../../src/schema/serialization/index'

const c = (type: string) => compileSerializer({ type })

test('numbers: numeric strings coerced, NaN throws, Infinity -> null', () => {
  assert.equal(c('number')('3.5'), '3.5')
  assert.equal(c('number')(Infinity), 'null')
  assert.equal(c('number')(null), '0')
  assert.throws(() => c('number')('abc'), /cannot be converted to a number/)
  assert.equal(c('number')(10n), '10')
})

test('integers: truncation, BigInt, rounding option', () => {
  assert.equal(c('integer')(1.7), '1')
  assert.equal(c('integer')(-1.7), '-1')
  assert.equal(c('integer')('42'), '42')
  assert.equal(c('integer')(2n ** 70n), (2n ** 70n).toString())
  assert.throws(() => c('integer')(NaN), /cannot be converted to an integer/)
  assert.equal(compileSerializer({ type: 'integer' }, { rounding: 'ceil' })(1.2), '2')
})

test('strings and booleans', () => {
  assert.equal(c('string')(12), '"12"')
  assert.equal(c('string')(/a"b/), '"a\\"b"')
  assert.equal(c('string')(true), '"true"')
  assert.equal(c('boolean')(1), 'true')
  assert.equal(c('boolean')(''), 'false')
  assert.equal(c('boolean')('false'), 'true')
})

test('mismatching containers throw (never invalid JSON)', () => {
  assert.throws(() => c('array')({}), TypeError)
  assert.equal(c('array')(null), '[]')
  assert.equal(compileSerializer({ type: 'object', properties: { a: { type: 'integer' } } })('str'), '{}')
  assert.throws(() => compileSerializer({ type: ['string', 'array'] })({}), TypeError)
  assert.equal(compileSerializer({ type: 'array' })([undefined, () => 1]), '[null,null]')
})
