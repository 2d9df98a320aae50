import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compileSerializer } from '../../src/schema/serialization/index'
import { checkRefs, createRefResolver } from '../../src/schema/ref-resolver'

const shared = {
  user: {
    $id: 'user',
    type: 'object',
    properties: { name: { type: 'string' }, address: { $ref: '#/definitions/address' }, tag: { $ref: '#tag' } },
    definitions: {
      address: { type: 'object', properties: { city: { type: 'string' } } },
      tag: { $id: '#tag', type: 'string' },
      'a/b~c%': { type: 'integer' }
    }
  },
  'http://example.com/schemas/root.json': {
    $id: 'http://example.com/schemas/root.json',
    definitions: {
      inner: { $id: 'nested/inner.json', type: 'object', properties: { x: { $ref: 'sibling.json' } } },
      sib: { $id: 'nested/sibling.json', type: 'integer' }
    }
  }
}

const ser = (schema: unknown) => compileSerializer(schema, { sharedSchemas: shared as never })

test('every $ref form of the spec table', () => {
  assert.equal(ser({ $ref: 'user#' })({ name: 'n', x: 1 }), '{"name":"n"}')
  assert.equal(ser({ $ref: 'user' })({ name: 'n' }), '{"name":"n"}')
  assert.equal(ser({ $ref: 'user#/definitions/address' })({ city: 'c', z: 1 }), '{"city":"c"}')
  assert.equal(ser({ $ref: 'user#tag' })(5), '"5"')
  assert.equal(ser({ $ref: 'user#/properties/name' })(5), '"5"')
  assert.equal(ser({ $ref: 'user#/definitions/a~1b~0c%25' })('7'), '7')
  assert.equal(ser({ type: 'object', properties: { a: { $ref: '#/definitions/x' }, b: { $ref: '#y' } }, definitions: { x: { type: 'integer' }, y: { $id: '#y', type: 'boolean' } } })({ a: '2', b: 1 }), '{"a":2,"b":true}')
  assert.equal(ser({ type: 'object', properties: { u: { $ref: 'user#' } } })({ u: { name: 'n', address: { city: 'c', q: 1 }, tag: 't' } }), '{"u":{"name":"n","address":{"city":"c"},"tag":"t"}}')
})

test('$id base-URI changes: relative refs resolve against the nearest $id', () => {
  assert.equal(ser({ $ref: 'http://example.com/schemas/root.json#/definitions/inner' })({ x: '3' }), '{"x":3}')
  assert.equal(ser({ $ref: 'http://example.com/schemas/nested/inner.json' })({ x: 4.5 }), '{"x":4}')
})

test('unresolvable refs throw an error naming the reference', () => {
  assert.throws(() => ser({ $ref: '#/definitions/nope' }), /Cannot find reference "#\/definitions\/nope"/)
  assert.throws(() => ser({ $ref: 'missing#' }), /missing#/)
  assert.throws(() => checkRefs({ properties: { a: { $ref: 'user#/definitions/zzz' } } }, shared), /user#\/definitions\/zzz/)
  assert.deepEqual(checkRefs({ properties: { a: { $ref: 'user#' } } }, shared).includes('user#'), true)
})

test('resolver API resolves with the given base', () => {
  const r = createRefResolver(shared)
  const hit = r.resolve('user#/definitions/address', '')
  assert.deepEqual(hit.schema, shared.user.definitions.address)
  assert.equal(r.tryResolve('nope#', ''), undefined)
})
