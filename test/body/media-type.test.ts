import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseMediaType } from '../../src/base/media-type'

function parsed (value: string | undefined): { essence: string, parameters: Record<string, string> } | null {
  const m = parseMediaType(value)
  if (m === null) return null
  return { essence: m.essence, parameters: { ...m.parameters } }
}

test('valid media types parse to lowercased type, subtype and essence', () => {
  const m = parseMediaType('Application/JSON')
  assert.ok(m)
  assert.equal(m.type, 'application')
  assert.equal(m.subtype, 'json')
  assert.equal(m.essence, 'application/json')
  assert.deepEqual({ ...m.parameters }, {})
})

const VALID: Array<[string, string, Record<string, string>]> = [
  ['application/json', 'application/json', {}],
  ['  application/json\t', 'application/json', {}],
  ['application/json; charset=utf-8', 'application/json', { charset: 'utf-8' }],
  ['application/json;charset=UTF-8', 'application/json', { charset: 'UTF-8' }],
  ['application/json ; charset=utf-8', 'application/json', { charset: 'utf-8' }],
  ['application/json;', 'application/json', {}],
  ['application/json;;charset=utf-8;', 'application/json', { charset: 'utf-8' }],
  ['text/plain; CHARSET="utf-8"', 'text/plain', { charset: 'utf-8' }],
  ['text/plain; x="application/json"', 'text/plain', { x: 'application/json' }],
  ['text/plain; x="a;b=c"', 'text/plain', { x: 'a;b=c' }],
  ['text/plain; x="with \\"escaped\\" quotes"', 'text/plain', { x: 'with "escaped" quotes' }],
  ['text/plain; x="back\\\\slash"', 'text/plain', { x: 'back\\slash' }],
  ['text/plain; x=""', 'text/plain', { x: '' }],
  ['text/plain; a=1; b=2', 'text/plain', { a: '1', b: '2' }],
  ['text/plain; a=1; A=2', 'text/plain', { a: '1' }],
  ['application/vnd.api+json', 'application/vnd.api+json', {}],
  ['multipart/form-data; boundary=----abc123', 'multipart/form-data', { boundary: '----abc123' }],
  ['image/*', 'image/*', {}],
  ['x/y; __proto__=1', 'x/y', { ['__proto__' as string]: '1' }]
]

for (const [input, essence, parameters] of VALID) {
  test(`valid: ${JSON.stringify(input)} -> ${essence}`, () => {
    const m = parsed(input)
    assert.ok(m, 'should parse')
    assert.equal(m.essence, essence)
    assert.deepEqual(Object.entries(m.parameters), Object.entries(parameters))
  })
}

const INVALID: Array<string | undefined> = [
  undefined,
  '',
  '   ',
  'application',
  'constructor',
  '__proto__',
  'application/',
  '/json',
  'application/json garbage',
  'application/json charset=utf-8',
  'application/json,text/plain',
  'application /json',
  'application/ json',
  'application/json; charset',
  'application/json; charset=',
  'application/json; =utf-8',
  'application/json; charset="utf-8',
  'application/json; charset=utf 8',
  'application/json; charset="a"b',
  'application/json; charset=utf-8 x',
  'application/json; x="\\',
  'text/plain; x="a\u0000b"',
  'appli(cation)/json',
  'application/json\u0000',
  'application/json\n',
  'application/jsön',
  'a/b/c'
]

for (const input of INVALID) {
  test(`invalid: ${JSON.stringify(input)} -> null`, () => {
    assert.equal(parseMediaType(input), null)
  })
}

test('parameters object has no prototype, so special names are plain keys', () => {
  const m = parseMediaType('x/y; constructor=1; toString=2')
  assert.ok(m)
  assert.equal(Object.getPrototypeOf(m.parameters), null)
  assert.equal(m.parameters.constructor, '1')
  assert.equal(m.parameters.tostring, '2')
  const plain = parseMediaType('x/y')
  assert.ok(plain)
  assert.equal(plain.parameters.constructor, undefined)
})

test('parameter values keep their case, names are lowercased', () => {
  const m = parseMediaType('Multipart/Form-Data; Boundary=AbC')
  assert.ok(m)
  assert.equal(m.essence, 'multipart/form-data')
  assert.equal(m.parameters.boundary, 'AbC')
})

test('non-string input gives null instead of throwing', () => {
  for (const v of [null, 42, {}, [], Symbol('x')]) {
    assert.equal(parseMediaType(v as unknown as string), null)
  }
})

test('long hostile input is parsed in linear time (16x the input costs far less than 256x the time)', () => {
  // Compared with itself, not with a wall-clock bound: the fastest of several runs at n and at 16n,
  // counted in CPU time the process spent (time spent waiting for a core on a loaded machine is not
  // counted, so it cannot inflate one side). Linear parsing gives a ratio near 16; quadratic near 256.
  const quoted = (n: number): string => 'a/b; x="' + '\\"'.repeat(n)
  const longToken = (n: number): string => 'a/' + 'b'.repeat(n) + ' '.repeat(n / 5) + 'x'
  const fastest = (input: string): number => {
    let best = Infinity
    for (let i = 0; i < 7; i++) {
      const start = process.cpuUsage()
      assert.equal(parseMediaType(input), null)
      const spent = process.cpuUsage(start)
      best = Math.min(best, spent.user + spent.system)
    }
    return best
  }
  for (const make of [quoted, longToken]) {
    const small = fastest(make(12_500))
    const large = fastest(make(200_000))
    assert.ok(large / Math.max(small, 1) < 64, `16x the input took ${(large / small).toFixed(1)}x the time`)
  }
})
