/**
 * Arrays of flat objects are serialized by projecting each item and one JSON.stringify
 * (generate-projection.ts). Whatever the values (wrong types that coerce, NaN, Infinity, BigInt,
 * Dates, missing required keys, toJSON, null items), the output, or the error, is exactly the
 * concatenating serializer's for the same item schema.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { compileSerializer } from '../../src/schema/serialization/index'

const TYPES = ['string', 'number', 'integer', 'boolean', 'array:string', 'array:integer', 'array:number', 'array:boolean'] as const
const fieldName = fc.oneof(fc.constantFrom('id', 'name', 'a b', 'é', '"q"', 'constructor', 'toString', 'length'), fc.string({ minLength: 1, maxLength: 4 }))
  .filter((k) => k !== '__proto__' && !/^\d+$/.test(k))

const itemSchema = fc.uniqueArray(fc.tuple(fieldName, fc.constantFrom(...TYPES)), { minLength: 1, maxLength: 6, selector: ([k]) => k })
  .chain((fields) => fc.subarray(fields.map(([k]) => k)).map((required) => ({
    type: 'object',
    properties: Object.fromEntries(fields.map(([k, t]) => [k, t.startsWith('array:') ? { type: 'array', items: { type: t.slice(6) } } : { type: t }])),
    required
  })))

const anyValue = fc.oneof(
  fc.integer(), fc.double(), fc.string({ unit: 'binary', maxLength: 6 }), fc.boolean(), fc.constant(null), fc.constant(undefined),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.date({ noInvalidDate: true }), fc.constantFrom('12', '1.5', ' ', 'x', Infinity, -0)
)

function itemFor (schema: { properties: Record<string, unknown> }): fc.Arbitrary<unknown> {
  const keys = Object.keys(schema.properties)
  const record = fc.dictionary(fc.constantFrom(...keys, 'extra'), fc.oneof({ weight: 3, arbitrary: anyValue }, { weight: 1, arbitrary: fc.array(anyValue, { maxLength: 3 }) }), { maxKeys: keys.length + 1 })
  return fc.oneof({ weight: 8, arbitrary: record }, { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: record.map((r) => ({ toJSON: () => r })) })
}

/** The output, or the error (its message names the schema location: the array's item vs the item schema compiled alone). */
function outcome (fn: () => string): string {
  try { return 'ok:' + fn() } catch (err) { return 'throws:' + (err as Error).message.replace('\'#/items/', '\'#/') }
}

test('projection + JSON.stringify writes exactly what item-by-item concatenation writes', () => {
  fc.assert(fc.property(itemSchema.chain((s) => fc.tuple(fc.constant(s), fc.array(itemFor(s), { maxLength: 5 }))), ([schema, items]) => {
    // not the default form (generate-projection.ts), kept as an option: the output must not differ
    const array = compileSerializer({ type: 'array', items: schema }, { projectArrays: true, projectArrayFields: true })
    const item = compileSerializer({ ...schema })
    assert.match(array.source, /JSON\.stringify\(out\)/) // the projection path is the one under test
    const expected = outcome(() => items.length === 0 ? '[]' : '[' + items.map((x) => item(x)).join(',') + ']')
    assert.equal(outcome(() => array(items)), expected)
  }), { numRuns: 400 })
})

test('item schemas the projection cannot reproduce keep the concatenating serializer', () => {
  for (const items of [
    JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
    { type: 'object', properties: { 1: { type: 'string' }, a: { type: 'string' } } },
    { type: 'object', properties: { d: { type: 'string', format: 'date-time' } } },
    { type: 'object', properties: { n: { type: 'integer', nullable: true } } },
    { type: 'object', properties: { n: { type: 'integer', default: 1 } } },
    { type: 'object', properties: { t: { type: 'array', items: { type: 'object' } } } },
    { type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } },
    { type: 'object', properties: { t: { type: 'array', nullable: true, items: { type: 'string' } } } },
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }
  ]) {
    const source = compileSerializer({ type: 'array', items: JSON.parse(JSON.stringify(items)) }, { projectArrays: true, projectArrayFields: true }).source
    assert.doesNotMatch(source, /JSON\.stringify\(out\)/, JSON.stringify(items))
  }
  // the same options do project a flat item schema
  const flat = compileSerializer({ type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } }, { projectArrays: true, projectArrayFields: true })
  assert.match(flat.source, /JSON\.stringify\(out\)/)
})
