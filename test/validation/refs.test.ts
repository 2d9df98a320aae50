import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { compileRouteValidators, createDefaultValidatorCompiler, defaultSchemaErrorFormatter, validateRequest } from '../../src/schema/validation/index'
import { parts } from './helpers'

const shared = {
  common: { $id: 'common', definitions: { port: { type: 'integer', maximum: 65535 } }, type: 'object', properties: { host: { type: 'string' } } }
}

describe('$ref resolution in the default compiler', () => {
  it('resolves a shared schema added after another context used the compiler (new schema set -> new compiler)', () => {
    const c1 = createDefaultValidatorCompiler(shared)
    const c2 = createDefaultValidatorCompiler({ ...shared, extra: { $id: 'extra', type: 'string' } })
    assert.notEqual(c1, c2)
    const v = compileRouteValidators({ schema: { querystring: { type: 'object', properties: { e: { $ref: 'extra#' } } } }, method: 'GET', url: '/', compiler: c2 })
    assert.equal(validateRequest(v, parts({ query: { e: 'x' } }), defaultSchemaErrorFormatter), null)
  })
  it('a missing shared schema fails at build time naming the route and the reference', () => {
    const c = createDefaultValidatorCompiler(shared)
    assert.throws(() => compileRouteValidators({ schema: { body: { type: 'object', properties: { a: { $ref: 'missing-schema#' } } } }, method: 'POST', url: '/needs-ref', compiler: c }),
      (e: any) => e.code === 'FST_ERR_SCH_VALIDATION_BUILD' && e.message.includes('POST: /needs-ref') && e.message.includes('missing-schema'))
  })
  it('a missing definition in a shared schema fails at build time naming the reference', () => {
    const c = createDefaultValidatorCompiler(shared)
    assert.throws(() => compileRouteValidators({ schema: { params: { type: 'object', properties: { p: { $ref: 'common#/definitions/nope' } } } }, method: 'GET', url: '/r', compiler: c }),
      (e: any) => e.code === 'FST_ERR_SCH_VALIDATION_BUILD' && e.message.includes('GET: /r') && e.message.includes('common#/definitions/nope'))
  })
  it('a missing local definition fails at build time naming the reference', () => {
    const c = createDefaultValidatorCompiler({})
    assert.throws(() => compileRouteValidators({ schema: { body: { type: 'object', properties: { p: { $ref: '#/definitions/gone' } } } }, method: 'POST', url: '/l', compiler: c }),
      (e: any) => e.code === 'FST_ERR_SCH_VALIDATION_BUILD' && e.message.includes('#/definitions/gone'))
  })
  it('shared schemas can reference each other', () => {
    const c = createDefaultValidatorCompiler({
      ...shared,
      server: { $id: 'server', type: 'object', properties: { port: { $ref: 'common#/definitions/port' } }, required: ['port'] }
    })
    const v = compileRouteValidators({ schema: { body: { $ref: 'server#' } }, method: 'POST', url: '/', compiler: c })
    const req = parts({ body: { port: '80' } })
    assert.equal(validateRequest(v, req, defaultSchemaErrorFormatter), null)
    assert.deepEqual(req.body, { port: 80 })
    assert.equal(validateRequest(v, parts({ body: { port: 70000 } }), defaultSchemaErrorFormatter)?.message, 'body/port must be <= 65535')
  })
})
