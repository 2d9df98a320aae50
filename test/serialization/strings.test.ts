import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compileSerializer } from '../../src/schema/serialization/index'
import { asString } from '../../src/schema/serialization/escape'

const str = compileSerializer({ type: 'string' })

test('escaping equals JSON.stringify, including lone surrogates and U+2028/2029', () => {
  const samples = ['', 'plain', 'quote"', 'back\\slash', 'ctl\u0000\u001f\n\t', '\ud800', 'a\udc00b', '😀', '\u2028\u2029', 'x'.repeat(100) + '"', 'é'.repeat(6000)]
  for (const s of samples) {
    assert.equal(asString(s), JSON.stringify(s))
    assert.equal(str(s), JSON.stringify(s))
  }
})

test('property names are never interpolated into code', () => {
  const evil = '"); throw new Error("pwned"); ("'
  const s = compileSerializer({ type: 'object', required: [evil], properties: { [evil]: { type: 'string' }, '\u2028': { type: 'integer' } } })
  assert.deepEqual(JSON.parse(s({ [evil]: 'v', '\u2028': 1 })), { [evil]: 'v', '\u2028': 1 })
  assert.throws(() => s({}), { message: `"${evil}" is required!` })
  const p = compileSerializer({ type: 'object', patternProperties: { '.*': { type: 'string' } } })
  assert.deepEqual(JSON.parse(p({ 'k"\\': 'v"' })), { 'k"\\': 'v"' })
})

test('format unsafe is still escaped (never invalid JSON)', () => {
  assert.equal(compileSerializer({ type: 'string', format: 'unsafe' })('a"b'), '"a\\"b"')
  assert.equal(compileSerializer({ type: 'string', format: 'date-time' })('a"b'), '"a\\"b"')
})
