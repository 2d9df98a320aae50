import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { defaultSchemaErrorFormatter } from '../../src/schema/validation/index'

describe('defaultSchemaErrorFormatter', () => {
  it('prefixes each Ajv message with the part and the instancePath', () => {
    const e = defaultSchemaErrorFormatter([{ instancePath: '/name', message: 'must be string' }], 'body')
    assert.ok(e instanceof Error)
    assert.equal(e.message, 'body/name must be string')
  })
  it('uses the bare part for root errors', () => {
    assert.equal(defaultSchemaErrorFormatter([{ instancePath: '', message: "must have required property 'name'" }], 'body').message,
      "body must have required property 'name'")
  })
  it("joins several errors with ', '", () => {
    const e = defaultSchemaErrorFormatter([
      { instancePath: '/a', message: 'must be integer' },
      { instancePath: '/b', message: 'must be string' }
    ], 'querystring')
    assert.equal(e.message, 'querystring/a must be integer, querystring/b must be string')
  })
  it('copes with errors that are not Ajv objects', () => {
    assert.equal(defaultSchemaErrorFormatter(['is bad'], 'params').message, 'params is bad')
    assert.equal(defaultSchemaErrorFormatter([{ message: 'nope' }], 'headers').message, 'headers nope')
    assert.equal(defaultSchemaErrorFormatter([], 'body').message, 'body is invalid')
  })
})
