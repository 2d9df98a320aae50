/**
 * Arrays of flat objects are written as bytes into a reused buffer and decoded once
 * (generate-bytes.ts, byte-writer.ts). Whatever the values (wrong types that coerce or throw, NaN,
 * Infinity, BigInt, Dates, strings that need escaping, non-ASCII and lone surrogates, strings
 * around the short-string limit, missing required keys, defaults, toJSON, null and primitive
 * items), the output or the error, and the sequence of property reads, are exactly the
 * concatenating form's.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { compileSerializer } from '../../src/schema/serialization/index'
import { pending, writeDate, writeInteger, writeNumber } from '../../src/schema/serialization/byte-writer'

type S = Record<string, any>

const TYPES = ['string', 'number', 'integer', 'boolean', 'array:string', 'array:number', 'array:integer', 'array:boolean'] as const
const fieldName = fc.oneof(fc.constantFrom('id', 'name', 'a b', 'é', '"q"', 'constructor', 'toJSON', 'length', '\u2028', '😀'), fc.string({ minLength: 1, maxLength: 4 }))
  .filter((k) => k !== '__proto__')

/** More property schemas the byte form writes: formats (date-time written, the others ignored), nullable primitives. */
const MORE: S[] = [
  { type: 'string', format: 'date-time' }, { type: 'string', format: 'date-time', nullable: true }, { type: 'string', format: 'email' },
  { type: 'integer', format: 'int32' }, { type: 'integer', nullable: true }, { type: 'string', nullable: true },
  { type: 'number', nullable: true }, { type: 'boolean', nullable: true },
  { type: 'object', properties: { a: { type: 'string' }, n: { type: 'number', nullable: true } }, required: ['a'] },
  { type: 'object', nullable: true, properties: { d: { type: 'string', format: 'date-time' }, t: { type: 'array', items: { type: 'integer' } } } },
  { type: 'object', properties: { in: { type: 'object', properties: { x: { type: 'boolean', default: true }, y: { type: 'string' } } }, z: { type: 'integer' } } },
  { type: 'object', properties: { a: { type: 'integer' } }, default: { a: 1 } }
]
const field = fc.tuple(fieldName, fc.oneof({ weight: 3, arbitrary: fc.constantFrom<string | S>(...TYPES) }, { weight: 1, arbitrary: fc.constantFrom<string | S>(...MORE) }),
  fc.option(fc.constantFrom<unknown>('d', 'é"\\', 3, 1.5, false, null, { a: 1 }), { nil: undefined }))
const itemSchema = fc.uniqueArray(field, { minLength: 1, maxLength: 6, selector: ([k]) => k })
  .chain((fields) => fc.tuple(fc.subarray(fields.map(([k]) => k)), fc.boolean(), fc.boolean()).map(([required, closed, nullable]) => ({
    type: 'object',
    properties: Object.fromEntries(fields.map(([k, t, dflt]) => {
      const type = typeof t !== 'string' ? structuredClone(t) : t.startsWith('array:') ? { type: 'array', items: { type: t.slice(6) } } : { type: t }
      return [k, dflt === undefined ? type : { ...type, default: dflt }]
    })),
    required,
    ...(closed ? { additionalProperties: false } : {}),
    ...(nullable ? { nullable: true } : {})
  })))

const strings = fc.oneof(
  fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 4 }),
  // around the short-string limit (64) and the escape scan's thresholds (42, 5000)
  fc.string({ unit: 'binary', minLength: 60, maxLength: 70 }), fc.string({ minLength: 38, maxLength: 46 }),
  fc.constantFrom('a'.repeat(64), 'a'.repeat(65), 'é'.repeat(64), 'a'.repeat(63) + '"', '\ud800', 'x\udfffy', '😀'.repeat(40), 'a'.repeat(5001), 'a'.repeat(4999) + '\n')
)
const numbers = fc.oneof(
  fc.integer(), fc.double(), fc.double({ min: -1e6, max: 1e6 }).map((x) => Math.round(x * 1000) / 1000),
  fc.constantFrom(0, -0, 0.1, -0.05, 1.005, 123456789012.5, 999999999999.999, 2 ** 53, -(2 ** 53), 2 ** 53 - 1, 1e21, -1e-7, 5e-324,
    Number.MAX_VALUE, 0x7fffffff, 0x80000000, -0x80000000, Infinity, -Infinity, NaN)
)
const anyValue = fc.oneof(
  { weight: 4, arbitrary: numbers }, { weight: 4, arbitrary: strings }, fc.boolean(), fc.constant(null), fc.constant(undefined),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.date({ noInvalidDate: true }), fc.constantFrom('12', '1.5', ' ', 'x', /re"x/),
  fc.constant({ toString: () => 'custom "s"' }), fc.constant(new Date(NaN)), fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15) }),
  fc.constant(new Proxy(new Date(0), {})), fc.constant(() => 1),
  fc.constant(Object.assign(new Date(0), { toISOString: () => 'own "iso" é' })), fc.constant(Object.assign(new Date(0), { toISOString: 5 }))
)
const value = fc.oneof({ weight: 3, arbitrary: anyValue }, { weight: 1, arbitrary: fc.array(anyValue, { maxLength: 4 }) })

/** Values of the property's own type (so most items are written whole, not cut short by an error), else anything. */
function valueFor (p: S): fc.Arbitrary<unknown> {
  if (p.type === 'object') {
    const model: Record<string, fc.Arbitrary<unknown>> = {}
    for (const k of Object.keys(p.properties)) model[k] = valueFor(p.properties[k])
    const own = fc.oneof({ weight: 4, arbitrary: fc.record(model) }, { weight: 2, arbitrary: fc.record(model, { requiredKeys: [] }) },
      { weight: 1, arbitrary: fc.record(model).map((r) => ({ toJSON: () => r })) })
    return fc.oneof({ weight: 6, arbitrary: own }, { weight: 1, arbitrary: value })
  }
  const own = p.type === 'array'
    ? fc.array(valueFor(p.items), { maxLength: 4 })
    : p.type === 'string'
      ? (p.format === 'date-time' ? fc.oneof(strings, fc.date({ noInvalidDate: true })) : strings)
      : p.type === 'boolean' ? fc.boolean() : p.type === 'integer' ? fc.oneof(fc.integer(), fc.maxSafeInteger()) : numbers.filter((n) => !Number.isNaN(n))
  return fc.oneof({ weight: 6, arbitrary: own }, { weight: 1, arbitrary: value })
}

function itemFor (schema: S): fc.Arbitrary<unknown> {
  const keys = Object.keys(schema.properties)
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  for (const k of keys) model[k] = valueFor(schema.properties[k])
  const record = fc.record({ ...model, extra: value }, { requiredKeys: [] })
  const full = fc.record(model)
  return fc.oneof({ weight: 6, arbitrary: full }, { weight: 4, arbitrary: record }, { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(0, 'str', true) }, { weight: 1, arbitrary: full.map((r) => ({ toJSON: () => r })) })
}

/** Plain objects (deeply) wrapped in proxies logging every property read. */
function logged (value: unknown, log: string[], path: string): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date || Array.isArray(value)) return value
  const inner = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, logged(v, log, path + '.' + k)]))
  return new Proxy(inner, {
    get (target, prop, receiver) {
      if (typeof prop === 'string') log.push(path + '.' + prop)
      return Reflect.get(target, prop, receiver)
    }
  })
}

function outcome (fn: (x: unknown) => string, items: unknown[]): { result: string, reads: string[] } {
  const reads: string[] = []
  let result: string
  try { result = 'ok:' + fn(items.map((x, i) => logged(x, reads, String(i)))) } catch (err) { result = 'throws:' + (err as Error).message }
  return { result, reads }
}

test('the byte-writing array form writes, throws and reads exactly as concatenation', () => {
  fc.assert(fc.property(itemSchema.chain((s) => fc.tuple(fc.constant(s), fc.array(itemFor(s), { maxLength: 6 }))), ([schema, items]) => {
    const bytes = compileSerializer({ type: 'array', items: schema }, { projectArrays: false, byteArrays: true })
    const concat = compileSerializer({ type: 'array', items: schema }, { projectArrays: false, byteArrays: false })
    assert.match(bytes.source, /\$take\(\)/) // the byte path is the one under test
    assert.doesNotMatch(concat.source, /\$take\(\)/)
    assert.deepEqual(outcome(bytes, items), outcome(concat, items))
  }), { numRuns: 1000 })
})

test('the digit writers write what \'\' + n writes, for every finite number', () => {
  const b = Buffer.alloc(64)
  const written = (n: number): string => b.toString('latin1', 0, Number.isInteger(n) ? writeInteger(b, 0, n) : writeNumber(b, 0, n))
  const finite = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.maxSafeInteger(),
    fc.maxSafeInteger().map((n) => n / 1000), fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 100),
    fc.constantFrom(0, -0, 2 ** 53, -(2 ** 53), 2 ** 53 - 1, 1 - 2 ** 53, 1e21, 1e15 - 0.001, 999999999999.999, 0x7fffffff, 0x80000000, 5e-324, Number.MAX_VALUE))
  fc.assert(fc.property(finite, (n) => { assert.equal(written(n), '' + n) }), { numRuns: 20000 })
})

test('dates are written as \'"\' + toISOString() + \'"\' writes them, from the time value or by toISOString', () => {
  const b = Buffer.alloc(64)
  const written = (d: Date): string => {
    try {
      const end = writeDate(b, 0, d)
      return end >= 0 ? b.toString('latin1', 0, end) : pending()
    } catch (err) { return 'throws:' + (err as Error).message }
  }
  const expected = (d: Date): string => { try { return '"' + d.toISOString() + '"' } catch (err) { return 'throws:' + (err as Error).message } }
  class Custom extends Date { override toISOString (): string { return 'custom "x"' } }
  const edge = fc.constantFrom(new Date(-62167219200000), new Date(-62167219200001), new Date(253402300799999), new Date(253402300800000),
    new Date(0), new Date(-1), new Date(951782400000), new Date(NaN), new Date(8.64e15), new Date(-8.64e15), new Custom(0),
    new Proxy(new Date(0), {}) as Date)
  const dates = fc.oneof(edge, fc.date(), fc.integer({ min: -62167219200000, max: 253402300799999 }).map((ms) => new Date(ms)))
  fc.assert(fc.property(dates, (d) => { assert.equal(written(d), expected(d)) }), { numRuns: 20000 })
})

test('integer rounding options reach the byte form', () => {
  const schema = { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } }
  const data = [{ n: 1.5 }, { n: -1.5 }, { n: 2 }, { n: '7.9' }]
  for (const rounding of ['trunc', 'floor', 'ceil', 'round'] as const) {
    const bytes = compileSerializer(schema, { rounding, projectArrays: false })
    assert.match(bytes.source, /\$take\(\)/)
    assert.equal(bytes(data), compileSerializer(schema, { rounding, projectArrays: false, byteArrays: false })(data), rounding)
  }
})

test('outputs larger than the buffer grow it, and long or escaped strings are written whole', () => {
  const schema = { type: 'array', items: { type: 'object', properties: { s: { type: 'string' }, n: { type: 'number' }, b: { type: 'boolean' } } } }
  const s = compileSerializer(schema, { projectArrays: false })
  for (const [str, count] of [['x'.repeat(10), 5000], ['é"\n'.repeat(30), 2000], ['😀'.repeat(30000), 3], ['a'.repeat(70000), 3]] as const) {
    const data = Array.from({ length: count }, (_, i) => ({ s: str + String(i), n: i / 8, b: i % 2 === 0 }))
    const out = s(data)
    assert.equal(out, JSON.stringify(data))
    assert.equal(s(data), out) // the same buffer, reused
  }
})

test('a serializer called inside another (from toJSON) writes into its own buffer', () => {
  const schema = { type: 'array', items: { type: 'object', properties: { s: { type: 'string' }, n: { type: 'integer' } } } }
  const s = compileSerializer(schema, { projectArrays: false })
  const inner = [{ s: 'inner', n: 1 }, { s: 'inner2', n: 2 }]
  const data = [{ s: 'a', n: 1 }, { toJSON: () => ({ s: s(inner), n: 2 }) }, { s: 'c', n: 3 }]
  assert.equal(s(data), '[{"s":"a","n":1},{"s":' + JSON.stringify(s(inner)) + ',"n":2},{"s":"c","n":3}]')
})

test('item schemas the byte form does not reproduce keep concatenation', () => {
  for (const items of [
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
    { type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^x': { type: 'string' } } },
    { type: 'object', properties: { a: { type: ['string', 'null'] } } },
    { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] },
    { type: 'object', properties: { a: { type: 'string' } }, allOf: [{ required: ['a'] }] },
    { properties: { a: { type: 'string' } } },
    { type: 'object', properties: {} },
    { type: 'object', properties: { o: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true } } },
    { type: 'object', properties: { o: { type: 'object', properties: { a: { type: 'string', format: 'time' } } } } },
    { type: 'object', properties: { d: { type: 'string', format: 'date' } } },
    { type: 'object', properties: { a: { $ref: '#/definitions/x' } } },
    { type: 'object', properties: { a: {} } },
    { type: 'object', properties: { a: { const: 'k' } } },
    { type: 'object', properties: { t: { type: 'array', items: { type: 'object' } } } },
    { type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } },
    { type: 'object', properties: { t: { type: 'array', nullable: true, items: { type: 'string' } } } },
    { type: 'object', properties: { t: { type: 'array', items: { type: 'string', nullable: true } } } }
  ]) {
    const source = compileSerializer({ type: 'array', items, definitions: { x: { type: 'string' } } }, { projectArrays: false }).source
    assert.doesNotMatch(source, /\$take\(\)/, JSON.stringify(items))
  }
  // nested objects inline down to a depth, deeper ones concatenated
  let deepSchema: S = { type: 'object', properties: { n: { type: 'integer' } } }
  for (let i = 0; i < 6; i++) deepSchema = { type: 'object', properties: { n: { type: 'integer' }, in: deepSchema } }
  const deep = compileSerializer({ type: 'array', items: deepSchema }, { projectArrays: false })
  assert.doesNotMatch(deep.source, /\$take\(\)/)
  // what it does take: date-time, nullable properties, nested objects, nullable items
  const taken = compileSerializer({
    type: 'array',
    items: { type: 'object', nullable: true, properties: { a: { type: 'string', format: 'uuid' }, d: { type: 'string', format: 'date-time' }, n: { type: 'integer', nullable: true }, o: { type: 'object', properties: { k: { type: 'string' } } } } }
  }, { projectArrays: false })
  assert.match(taken.source, /\$take\(\)/)
  const when = new Date(0)
  assert.equal(taken([{ a: 'x', d: when, n: null, z: 1, o: { k: 'v', no: 1 } }, null]), `[{"a":"x","d":"${when.toISOString()}","n":null,"o":{"k":"v"}},null]`)
})
