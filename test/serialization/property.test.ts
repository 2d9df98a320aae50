import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { compileSerializer } from '../../src/schema/serialization/index'

type S = Record<string, any>

// random schemas of the supported subset, depth-bounded
const leaf: fc.Arbitrary<S> = fc.constantFrom<S>(
  { type: 'string' }, { type: 'number' }, { type: 'integer' }, { type: 'boolean' }, { type: 'null' },
  { type: 'string', nullable: true }, { type: ['integer', 'null'] }, {}
)
const { schema: schemaArb } = fc.letrec<{ schema: S }>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ type: fc.constant('array'), items: tie('schema') }),
    fc.dictionary(fc.string({ maxLength: 6, unit: 'binary' }), tie('schema'), { maxKeys: 5 })
      .chain((properties) => fc.subarray(Object.keys(properties)).map((required) => ({ type: 'object', properties, required })))
  )
}))

const jsonValue = fc.jsonValue({ maxDepth: 2 })

/** a value conforming to `s` (objects also get undeclared extra keys) */
function valueFor (s: S): fc.Arbitrary<unknown> {
  const t = s.type
  if (t === 'string') return s.nullable === true ? fc.option(fc.string(), { nil: null }) : fc.string({ unit: 'grapheme' })
  if (t === 'number') return fc.double({ noNaN: true, noDefaultInfinity: true })
  if (t === 'integer') return fc.integer()
  if (t === 'boolean') return fc.boolean()
  if (t === 'null') return fc.constant(null)
  if (Array.isArray(t)) return fc.option(fc.integer(), { nil: null })
  if (t === 'array') return fc.array(valueFor(s.items), { maxLength: 4 })
  if (t === 'object') {
    const model: Record<string, fc.Arbitrary<unknown>> = {}
    for (const k of Object.keys(s.properties)) model[k] = valueFor(s.properties[k])
    return fc.tuple(fc.record(model, { requiredKeys: s.required }), fc.dictionary(fc.string({ maxLength: 4 }).map((k) => 'x_' + k), jsonValue, { maxKeys: 2 }))
      .map(([declared, extra]) => ({ ...extra, ...declared }))
  }
  return jsonValue
}

/** what the serializer must write: declared properties only */
function project (s: S, v: any): unknown {
  if (s.type === 'array') return v.map((x: unknown) => project(s.items, x))
  if (s.type === 'object') {
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(s.properties)) if (v[k] !== undefined) out[k] = project(s.properties[k], v[k])
    return out
  }
  if (s.type === 'number' && Object.is(v, -0)) return 0
  return v === undefined ? null : v
}

test('random schemas: JSON.parse(serialize(v)) deep-equals the projection of v', () => {
  fc.assert(fc.property(schemaArb.chain((s) => fc.tuple(fc.constant(s), valueFor(s))), ([s, v]) => {
    const out = compileSerializer(s)(v)
    assert.deepEqual(JSON.parse(out), JSON.parse(JSON.stringify(project(s, v))))
  }), { numRuns: 300 })
})

test('arbitrary strings: output equals JSON.stringify (unicode, full unicode, lone surrogates)', () => {
  const ser = compileSerializer({ type: 'string' })
  const obj = compileSerializer({ type: 'object', additionalProperties: { type: 'string' } })
  fc.assert(fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary-ascii' }), fc.string({ unit: fc.integer({ min: 0xd700, max: 0xe000 }).map((c) => String.fromCharCode(c)), maxLength: 50 })), (s) => {
    assert.equal(ser(s), JSON.stringify(s))
    assert.equal(obj({ [s]: s }), JSON.stringify({ [s]: s }))
  }), { numRuns: 1000 })
})
