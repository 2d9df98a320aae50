import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { normalizeSchema } from '../../src/schema/validation/index'

describe('normalizeSchema', () => {
  it('expands the shorthand (no type, no properties) into an object schema', () => {
    const props = { name: { type: 'string' } }
    assert.deepEqual(normalizeSchema(props, 'body'), { type: 'object', properties: props })
  })
  it('keeps full schemas (type or properties present) as they are', () => {
    const full = { type: 'object', properties: { a: { type: 'string' } } }
    assert.equal(normalizeSchema(full, 'querystring'), full)
    const onlyProps = { properties: { a: { type: 'string' } } }
    assert.equal(normalizeSchema(onlyProps, 'params'), onlyProps)
    const scalar = { type: 'string' }
    assert.equal(normalizeSchema(scalar, 'body'), scalar)
  })
  it('keeps $ref, combinator and $merge/$patch schemas as they are (Fastify 4.3 rule)', () => {
    for (const s of [{ $ref: 'x#' }, { oneOf: [] }, { allOf: [] }, { anyOf: [] }, { $merge: {} }, { $patch: {} }]) {
      assert.equal(normalizeSchema(s, 'body'), s)
    }
  })
  it('does not expand when jsonShorthand is false', () => {
    const props = { name: { type: 'string' } }
    assert.equal(normalizeSchema(props, 'body', { jsonShorthand: false }), props)
  })
  it('lowercases header property names and required entries without mutating the user schema', () => {
    const user = { type: 'object', properties: { 'X-Api-Key': { type: 'string' } }, required: ['X-Api-Key'] }
    const frozen = JSON.stringify(user)
    const out = normalizeSchema(user, 'headers') as Record<string, any>
    assert.deepEqual(out, { type: 'object', properties: { 'x-api-key': { type: 'string' } }, required: ['x-api-key'] })
    assert.equal(JSON.stringify(user), frozen)
    assert.notEqual(out, user)
  })
  it('lowercases shorthand header schemas after expanding them', () => {
    assert.deepEqual(normalizeSchema({ 'X-A': { type: 'integer' } }, 'headers'), { type: 'object', properties: { 'x-a': { type: 'integer' } } })
  })
  it('returns the same normalized object for the same input (so compile caches hit)', () => {
    const props = { n: { type: 'integer' } }
    assert.equal(normalizeSchema(props, 'querystring'), normalizeSchema(props, 'params'))
    const h = { 'X-A': { type: 'integer' } }
    assert.equal(normalizeSchema(h, 'headers'), normalizeSchema(h, 'headers'))
  })
  it('passes schemas that are not plain objects (Joi, yup, class instances) untouched', () => {
    class JoiLike { validate (): unknown { return {} } }
    const j = new JoiLike()
    assert.equal(normalizeSchema(j, 'body'), j)
    assert.equal(normalizeSchema(j, 'headers'), j)
  })
  it('unwraps fluent-json-schema style builders via valueOf()', () => {
    const fluent = { isFluentSchema: true, valueOf: () => ({ type: 'object', properties: { a: { type: 'string' } } }) }
    assert.deepEqual(normalizeSchema(fluent, 'body'), { type: 'object', properties: { a: { type: 'string' } } })
  })
})
