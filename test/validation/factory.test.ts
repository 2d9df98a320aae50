import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import {
  buildValidatorCompilerFromFactory, createDefaultValidatorCompiler, defaultValidatorCompilerFactory,
  type ValidatorCompilerFactory
} from '../../src/schema/validation/index'

describe('buildValidatorCompilerFromFactory (schemaController.compilersFactory.buildValidator)', () => {
  it('calls the factory with the shared schemas and the ajv option (both keys present)', () => {
    const calls: unknown[] = []
    const compiler = () => () => true
    const factory: ValidatorCompilerFactory = (schemas, ajv) => { calls.push([schemas, ajv]); return compiler }
    const shared = { a: { $id: 'a' } }
    assert.equal(buildValidatorCompilerFromFactory(factory, shared, { customOptions: { x: 1 } }), compiler)
    assert.deepEqual(calls, [[shared, { customOptions: { x: 1 }, plugins: [] }]])
    buildValidatorCompilerFromFactory(factory, {}, undefined)
    assert.deepEqual((calls[1] as unknown[])[1], { customOptions: {}, plugins: [] })
  })
  it('uses the default Ajv factory when none is given', () => {
    const shared = { a: { $id: 'a', type: 'string' } }
    assert.equal(buildValidatorCompilerFromFactory(undefined, shared, {}), createDefaultValidatorCompiler(shared, {}))
    assert.equal(defaultValidatorCompilerFactory(shared, {}), createDefaultValidatorCompiler(shared))
  })
  it('refuses a factory that is not a function or returns no compiler', () => {
    assert.throws(() => buildValidatorCompilerFromFactory(42 as unknown as ValidatorCompilerFactory, {}), /must be a function/)
    assert.throws(() => buildValidatorCompilerFromFactory((() => null) as unknown as ValidatorCompilerFactory, {}), /must return a validator compiler/)
  })
  it('works with a Fastify 4.3 style factory (@fastify/ajv-compiler)', () => {
    const { dirname } = require('node:path')
    const AjvCompiler = require(require.resolve('@fastify/ajv-compiler', { paths: [dirname(require.resolve('fastify43/package.json'))] }))
    const compiler = buildValidatorCompilerFromFactory(AjvCompiler(), { s: { $id: 's', type: 'integer' } }, {})
    const fn = compiler({ schema: { $ref: 's#' }, method: 'GET', url: '/', httpPart: 'querystring' })
    assert.equal(fn('12'), true)
    assert.equal(fn('x'), false)
  })
})
