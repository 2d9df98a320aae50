/** The real Ajv plugins named by the spec, through the ajv factory option. */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { dirname } from 'node:path'
import { compileRouteValidators, createDefaultValidatorCompiler, defaultSchemaErrorFormatter, validateRequest } from '../../src/schema/validation/index'
import { parts } from './helpers'

const mergePatch = require('ajv-merge-patch')
const ajvErrors = require('ajv-errors')
const localize = require('ajv-i18n')

describe('Ajv plugins', () => {
  it('the plugins resolve the same ajv copy as trellis (plugins generate code with their copy\'s helpers)', () => {
    const ours = require.resolve('ajv')
    for (const plugin of ['ajv-merge-patch', 'ajv-errors', 'ajv-formats']) {
      assert.equal(require.resolve('ajv', { paths: [dirname(require.resolve(plugin))] }), ours, plugin)
    }
  })
  it('$merge extends a shared schema with ajv-merge-patch', () => {
    const c = createDefaultValidatorCompiler({ base: { $id: 'base', type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } }, { plugins: [mergePatch] })
    const v = compileRouteValidators({
      schema: { body: { $merge: { source: { $ref: 'base#' }, with: { properties: { b: { type: 'integer' } }, required: ['b'] } } } },
      method: 'POST',
      url: '/m',
      compiler: c
    })
    const bad = validateRequest(v, parts({ body: { a: 'x' } }), defaultSchemaErrorFormatter)
    assert.match(bad?.message ?? '', /^body must have required property 'b'/)
    const req = parts({ body: { a: 'x', b: '2' } })
    assert.equal(validateRequest(v, req, defaultSchemaErrorFormatter), null)
    assert.deepEqual(req.body, { a: 'x', b: 2 })
  })
  it('$patch applies a JSON patch with ajv-merge-patch', () => {
    const c = createDefaultValidatorCompiler({}, { plugins: [mergePatch] })
    const v = compileRouteValidators({
      schema: { querystring: { $patch: { source: { type: 'object', properties: { q: { type: 'string' } } }, with: [{ op: 'add', path: '/required', value: ['q'] }] } } },
      method: 'GET',
      url: '/p',
      compiler: c
    })
    assert.match(validateRequest(v, parts({ query: {} }), defaultSchemaErrorFormatter)?.message ?? '', /^querystring must have required property 'q'/)
    assert.equal(validateRequest(v, parts({ query: { q: 'x' } }), defaultSchemaErrorFormatter), null)
  })
  it('without the plugin, $merge is an unknown keyword and the build fails', () => {
    const c = createDefaultValidatorCompiler({})
    assert.throws(() => compileRouteValidators({ schema: { body: { $merge: { source: {}, with: {} } } }, method: 'POST', url: '/', compiler: c }),
      (e: any) => e.code === 'FST_ERR_SCH_VALIDATION_BUILD' && /\$merge/.test(e.message))
  })
  it('ajv-errors gives custom messages with allErrors: true', () => {
    const c = createDefaultValidatorCompiler({}, { customOptions: { allErrors: true }, plugins: [ajvErrors] })
    const v = compileRouteValidators({
      schema: {
        body: {
          type: 'object',
          properties: { name: { type: 'string', errorMessage: { type: 'name must be a string!' } }, age: { type: 'integer' } },
          required: ['name'],
          errorMessage: { required: { name: 'name is required!' } }
        }
      },
      method: 'POST',
      url: '/e',
      compiler: c
    })
    assert.equal(validateRequest(v, parts({ body: { name: {} } }), defaultSchemaErrorFormatter)?.message, 'body/name name must be a string!')
    const err = validateRequest(v, parts({ body: { age: 'x' } }), defaultSchemaErrorFormatter)
    assert.equal(err?.message, 'body/age must be integer, body name is required!')
    assert.equal((err?.validation as unknown[]).length, 2)
  })
  it('ajv-i18n localizes error.validation, and the formatter can rebuild the message from it', () => {
    const c = createDefaultValidatorCompiler({})
    const v = compileRouteValidators({ schema: { body: { type: 'object', required: ['name'] } }, method: 'POST', url: '/i', compiler: c })
    const err = validateRequest(v, parts({ body: {} }), defaultSchemaErrorFormatter)
    assert.equal(err?.message, "body must have required property 'name'")
    localize.de(err?.validation)
    assert.equal(defaultSchemaErrorFormatter(err?.validation as unknown[], 'body').message, 'body muss das erforderliche Attribut name enthalten')
  })
})
