/**
 * Numbers are written by formatNumber (number-format.ts), a shortcut for integers and decimals with
 * up to three fraction digits; it must write exactly what `'' + n` (and JSON.stringify) writes.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { formatNumber } from '../../src/schema/serialization/number-format'
import { compileSerializer } from '../../src/schema/serialization/index'

const decimals = fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e16, max: 1e16 }), fc.integer({ min: 0, max: 4 }))
  .map(([x, places]) => Math.round(x * 10 ** places) / 10 ** places)

test('formatNumber(n) === String(n) for every finite number', () => {
  fc.assert(fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), decimals, fc.integer()), (n) => {
    assert.equal(formatNumber(n), String(n))
  }), { numRuns: 20000 })
  for (const n of [0, -0, 0.1, 0.2, 0.1 + 0.2, 0.001, -0.001, 0.0005, 0.0015, 1e-7, 999999999999.999, 1e12 - 0.001, 1e12 + 0.5,
    123456789012.345, 2 ** 53, -(2 ** 53), 2 ** 53 + 2, 1e21, 1.5e21, 5e-324, Number.MAX_VALUE, Number.EPSILON, 4.35, 1.005, 8.675, 2.675]) {
    assert.equal(formatNumber(n), String(n), String(n))
  }
})

test('number properties are written as JSON.stringify writes them', () => {
  const s = compileSerializer({ type: 'object', properties: { n: { type: 'number' } } })
  fc.assert(fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), decimals), (n) => {
    assert.equal(s({ n }), JSON.stringify({ n }))
  }), { numRuns: 5000 })
})
