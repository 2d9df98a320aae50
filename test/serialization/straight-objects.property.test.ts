/**
 * Objects are serialized in a straight-line form where they fit (generate-object-straight.ts): every
 * property read and serialized into a local, one concatenation at the end, handing over to a
 * resume function at the first absent optional property. For arbitrary schemas (nested objects,
 * required properties, defaults, nullable, arrays, undeclared-required keys) and arbitrary values
 * (wrong types that coerce or throw, missing keys, null, toJSON), the output or the error, and the
 * sequence of property reads and toJSON calls, are exactly the general form's.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { compileSerializer } from '../../src/schema/serialization/index'

type S = Record<string, any>

const key = fc.oneof(fc.constantFrom('id', 'name', 'a b', 'é', '"q"', 'constructor', 'toJSON', 'length'), fc.string({ minLength: 1, maxLength: 3 }))
  .filter((k) => k !== '__proto__')

const leaf: fc.Arbitrary<S> = fc.oneof(
  fc.constantFrom<S>({ type: 'string' }, { type: 'number' }, { type: 'integer' }, { type: 'boolean' }, { type: 'null' },
    { type: 'string', nullable: true }, { type: 'integer', nullable: true }, { type: 'string', format: 'date-time' }, {},
    { type: 'array', items: { type: 'string' } }, { type: ['integer', 'null'] }, { const: 'k' }),
  fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean'), default: fc.constantFrom('d', 3, 1.5, false, null) })
)
const { schema: objectSchema } = fc.letrec<{ schema: S, prop: S }>((tie) => ({
  prop: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('schema')),
  schema: fc.uniqueArray(fc.tuple(key, tie('prop')), { maxLength: 5, selector: ([k]) => k }).chain((entries) =>
    fc.tuple(fc.subarray(entries.map(([k]) => k)), fc.boolean(), fc.option(key, { nil: undefined })).map(([required, nullable, undeclared]) => ({
      type: 'object',
      properties: Object.fromEntries(entries),
      required: undeclared === undefined ? required : [...required, undeclared],
      ...(nullable ? { nullable: true } : {})
    })))
}))

const scalar = fc.oneof(
  fc.integer(), fc.double(), fc.string({ unit: 'binary', maxLength: 5 }), fc.boolean(), fc.constant(null), fc.constant(undefined),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.date(), fc.constantFrom('12', '1.5', 'x', Infinity, -0, NaN),
  // around the escape scan's length thresholds (42, 5000)
  fc.string({ unit: 'binary', minLength: 38, maxLength: 46 }), fc.constantFrom('a'.repeat(5001), 'a'.repeat(4999) + '"', 'é'.repeat(60))
)

/** Values for `s`: mostly shaped like it (so the straight path runs), with missing keys, wrong types and toJSON. */
function valueFor (s: S, depth = 0): fc.Arbitrary<unknown> {
  if (s.type !== 'object' || depth > 3) return fc.oneof(scalar, fc.array(scalar, { maxLength: 2 }))
  const keys = Object.keys(s.properties)
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  for (const k of keys) model[k] = fc.oneof({ weight: 3, arbitrary: valueFor(s.properties[k], depth + 1) }, { weight: 1, arbitrary: scalar })
  const record = fc.record(model, { requiredKeys: [] })
  const full = fc.record(model)
  return fc.oneof({ weight: 4, arbitrary: full }, { weight: 4, arbitrary: record }, { weight: 1, arbitrary: scalar },
    { weight: 1, arbitrary: full.map((r) => ({ toJSON: () => r })) })
}

/** Wraps objects (deeply) in proxies logging every property read, so the read sequence can be compared. */
function logged (value: unknown, log: string[], path = '$'): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date || Array.isArray(value)) return value
  const inner = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, logged(v, log, path + '.' + k)]))
  return new Proxy(inner, {
    get (target, prop, receiver) {
      if (typeof prop === 'string') log.push(path + '.' + prop)
      return Reflect.get(target, prop, receiver)
    }
  })
}

function outcome (fn: (x: unknown) => string, value: unknown): { result: string, reads: string[] } {
  const reads: string[] = []
  const input = logged(value, reads)
  let result: string
  try { result = 'ok:' + fn(input) } catch (err) { result = 'throws:' + (err as Error).message }
  return { result, reads }
}

test('straight-line objects write, throw and read exactly as the general form', () => {
  fc.assert(fc.property(objectSchema.chain((s) => fc.tuple(fc.constant(s), valueFor(s))), ([schema, value]) => {
    const straight = compileSerializer(schema)
    const general = compileSerializer(schema, { straightObjects: false })
    assert.doesNotMatch(general.source, /function f\d+r \(/)
    assert.deepEqual(outcome(straight, value), outcome(general, value))
  }), { numRuns: 500 })
})

test('objects that fit take the straight form; a missing optional property hands over to the resume function', () => {
  const s = compileSerializer({
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string', default: 'none' }, n: { type: 'number' } }
  })
  assert.match(s.source, /function f0r \(obj, j, s\)/)
  assert.equal(s({ id: 1, name: 'a', tag: 't', n: 2 }), '{"id":1,"name":"a","tag":"t","n":2}')
  assert.equal(s({ id: 1, n: 2 }), '{"id":1,"tag":"none","n":2}')
  assert.equal(s({ id: 1, name: 'a' }), '{"id":1,"name":"a","tag":"none"}')
  assert.throws(() => s({ name: 'a' }), /"id" is required!/)
  const optional = compileSerializer({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } })
  assert.equal(optional({}), '{}')
  assert.equal(optional({ b: 2 }), '{"b":2}')
  assert.equal(optional({ a: 'x' }), '{"a":"x"}')
})

test('objects with extra-key keywords or a type list keep the general form', () => {
  for (const schema of [
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
    { type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^x': { type: 'string' } } },
    { type: 'object', properties: { a: { type: ['string', 'integer'] } } }
  ]) {
    assert.doesNotMatch(compileSerializer(schema).source, /function f\d+r \(/, JSON.stringify(schema))
  }
})

test('arrays of strings (quotes written between the elements) write what JSON.stringify writes', () => {
  const s = compileSerializer({ type: 'array', items: { type: 'string' } })
  fc.assert(fc.property(fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 50 }), fc.constant('a'.repeat(5001) + '\n'))), (arr) => {
    assert.equal(s(arr), JSON.stringify(arr))
  }), { numRuns: 2000 })
  assert.equal(s([1.5, null, true, new Date(0)]), '["1.5","",' + '"true","1970-01-01T00:00:00.000Z"]')
  assert.equal(s([]), '[]')
})

test('up to 32 properties take the straight form; each absent one hands over with what was written', () => {
  const props = (n: number): Record<string, unknown> => Object.fromEntries(Array.from({ length: n }, (_, i) => ['p' + String(i), { type: i % 2 === 0 ? 'string' : 'number' }]))
  const full = Object.fromEntries(Array.from({ length: 32 }, (_, i) => ['p' + String(i), i % 2 === 0 ? 'v' + String(i) : i + 0.25]))
  const straight = compileSerializer({ type: 'object', properties: props(32) })
  const general = compileSerializer({ type: 'object', properties: props(32) }, { straightObjects: false })
  assert.match(straight.source, /function f0r \(/)
  assert.doesNotMatch(compileSerializer({ type: 'object', properties: props(33) }).source, /function f0r \(/)
  assert.equal(straight(full), JSON.stringify(full))
  for (let missing = 0; missing < 32; missing++) {
    const value: Record<string, unknown> = { ...full }
    delete value['p' + String(missing)]
    delete value['p' + String((missing * 7) % 32)]
    assert.equal(straight(value), general(value))
    assert.equal(straight(value), JSON.stringify(value))
  }
})
