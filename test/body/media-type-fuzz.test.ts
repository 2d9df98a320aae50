import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { parseMediaType } from '../../src/base/media-type'
import { ContentTypeParsers, defaultTextParser } from '../../src/lifecycle/content-type-parsers'

const ALPHABET = ['a', 'j', 's', 'o', 'n', '/', ';', '=', '"', '\\', ' ', '\t', ',', '+', '*', 'A', 'J', '\u0000', '\n', 'é', '€', '(', ')', '_', '-', '.']
const headerish = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 40 }).map(a => a.join(''))
const anyString = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 60 }), headerish)

function registry (): ContentTypeParsers {
  const r = new ContentTypeParsers({ bodyLimit: 100, onProtoPoisoning: 'error', onConstructorPoisoning: 'error' })
  r.add(/^image\//, {}, () => {})
  r.add(/json$/g, {}, () => {})
  r.add('application/vnd.x; version=2', {}, () => {})
  r.add('text', {}, () => {})
  return r
}

test('fuzz: parseMediaType and lookup never throw on random header strings', () => {
  const r = registry()
  fc.assert(fc.property(anyString, (s) => {
    const m = parseMediaType(s)
    if (m !== null) {
      assert.equal(m.essence, `${m.type}/${m.subtype}`)
      assert.equal(m.essence, m.essence.toLowerCase())
      for (const k of Object.keys(m.parameters)) assert.equal(k, k.toLowerCase())
    }
    r.lookup(s)
  }), { numRuns: 3000, seed: 4242 })
})

test('fuzz: only headers whose essence is application/json reach the JSON parser', () => {
  const r = new ContentTypeParsers({ bodyLimit: 100, onProtoPoisoning: 'error', onConstructorPoisoning: 'error' })
  const prefixed = fc.tuple(fc.constantFrom('application/json', 'Application/Json', 'text/plain'), headerish).map(([a, b]) => a + b)
  fc.assert(fc.property(fc.oneof(anyString, prefixed), (s) => {
    const found = r.lookup(s)
    const m = parseMediaType(s)
    if (found?.fn === r.defaultJsonParser) assert.equal(m?.essence, 'application/json', s)
    if (found?.fn === defaultTextParser) assert.equal(m?.essence, 'text/plain', s)
    if (m?.essence === 'application/json') assert.equal(found?.fn, r.defaultJsonParser)
  }), { numRuns: 3000, seed: 99 })
})

test('fuzz: a serialised valid media type parses back to the same value', () => {
  const token = fc.array(fc.constantFrom(...'abcXYZ09!#$%&\'*+-.^_`|~'), { minLength: 1, maxLength: 8 }).map(a => a.join(''))
  const qvalue = fc.string({ maxLength: 10 }).filter(v => [...v].every(c => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) <= 0x7e))
  fc.assert(fc.property(token, token, fc.array(fc.tuple(token, fc.oneof(token, qvalue)), { maxLength: 4 }), (type, subtype, params) => {
    let header = `${type}/${subtype}`
    const expected: Record<string, string> = {}
    for (const [name, value] of params) {
      const quoted = '"' + value.replace(/["\\]/g, c => '\\' + c) + '"'
      header += `; ${name}=${quoted}`
      if (!(name.toLowerCase() in expected)) expected[name.toLowerCase()] = value
    }
    const m = parseMediaType(header)
    assert.ok(m, header)
    assert.equal(m.essence, `${type}/${subtype}`.toLowerCase())
    assert.deepEqual({ ...m.parameters }, expected)
  }), { numRuns: 1000, seed: 7 })
})
