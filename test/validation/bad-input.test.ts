/**
 * Hostile or malformed input: each case must come back with ONE 400 error (allErrors false) and
 * must return. Nothing here measures time; the size of the inputs makes a pathological path obvious.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { compileRouteValidators, createDefaultValidatorCompiler, defaultSchemaErrorFormatter, validateRequest, type RouteSchema } from '../../src/schema/validation/index'
import { parts } from './helpers'

const compiler = createDefaultValidatorCompiler({})
function check (schema: RouteSchema, body: unknown): { message: string, validation: Array<{ keyword: string }> } {
  const v = compileRouteValidators({ schema, method: 'POST', url: '/bad', compiler })
  const err = validateRequest(v, parts({ body }), defaultSchemaErrorFormatter)
  assert.ok(err, 'expected a validation error')
  assert.equal(err.statusCode, 400)
  assert.equal(err.validationContext, 'body')
  const validation = err.validation as Array<{ keyword: string }>
  assert.equal(validation.length, 1)
  return { message: err.message, validation }
}

const objectSchema: RouteSchema = { body: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }

describe('bad input gives one 400 error', () => {
  for (const [label, body] of [['a string', 'hello'], ['a number', 42], ['an array', [1, 2]], ['null', null], ['true', true]] as const) {
    it(`non-object body (${label}) against an object schema`, () => {
      assert.equal(check(objectSchema, body).message, 'body must be object')
    })
  }
  it('a huge array against maxItems', () => {
    const huge = new Array(1_000_000).fill('x')
    const { message, validation } = check({ body: { type: 'object', properties: { list: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 5 } } } } }, { list: huge })
    assert.equal(message, 'body/list must NOT have more than 10 items')
    assert.equal(validation[0].keyword, 'maxItems')
  })
  it('a huge array with a bad first item stops at that item', () => {
    const huge = [{}, ...new Array(1_000_000).fill('x')]
    assert.equal(check({ body: { type: 'array', items: { type: 'string' } } }, huge).message, 'body/0 must be string')
  })
  it('a long string against maxLength', () => {
    const { message } = check({ body: { type: 'object', properties: { s: { type: 'string', maxLength: 100 } } } }, { s: 'a'.repeat(5_000_000) })
    assert.equal(message, 'body/s must NOT have more than 100 characters')
  })
  it('very deep nesting is not walked beyond what the schema describes', () => {
    let deep: Record<string, unknown> = {}
    const root = deep
    for (let i = 0; i < 100_000; i++) { const next = {}; deep.child = next; deep = next }
    assert.equal(check(objectSchema, root).message, "body must have required property 'name'")
  })
  it('a deeply nested array of arrays against a flat schema', () => {
    let nested: unknown[] = []
    const root = nested
    for (let i = 0; i < 100_000; i++) { const next: unknown[] = []; nested.push(next); nested = next }
    assert.equal(check({ body: { type: 'array', items: { type: 'integer' } } }, root).message, 'body/0 must be integer')
  })
  it('many invalid properties still give one error', () => {
    const body: Record<string, unknown> = {}
    for (let i = 0; i < 10_000; i++) body['p' + i] = 'not-a-number'
    const properties: Record<string, unknown> = {}
    for (let i = 0; i < 50; i++) properties['p' + i] = { type: 'integer' }
    assert.equal(check({ body: { type: 'object', properties } }, body).message, 'body/p0 must be integer')
  })
})
