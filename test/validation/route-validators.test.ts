import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { errorCodes } from '../../src/base/errors'
import { compileRouteValidators, createDefaultValidatorCompiler, type ValidatorCompilerInput, type ValidatorCompiler } from '../../src/schema/validation/index'

function recording (): { compiler: ValidatorCompiler, calls: ValidatorCompilerInput[] } {
  const calls: ValidatorCompilerInput[] = []
  return { calls, compiler: (i) => { calls.push(i); return () => true } }
}

describe('compileRouteValidators', () => {
  it('compiles each declared part with method, url and httpPart', () => {
    const { compiler, calls } = recording()
    const v = compileRouteValidators({
      schema: { body: { a: {} }, querystring: { b: {} }, params: { c: {} }, headers: { d: {} }, response: { 200: {} } },
      method: 'PUT',
      url: '/x/:c',
      compiler
    })
    assert.deepEqual(Object.keys(v).sort(), ['body', 'headers', 'params', 'querystring'])
    assert.deepEqual(calls.map((c) => c.httpPart).sort(), ['body', 'headers', 'params', 'querystring'])
    for (const c of calls) { assert.equal(c.method, 'PUT'); assert.equal(c.url, '/x/:c') }
  })
  it('compiles nothing for parts without a schema', () => {
    const { compiler, calls } = recording()
    assert.deepEqual(compileRouteValidators({ schema: { response: { 200: {} } }, method: 'GET', url: '/', compiler }), {})
    assert.equal(calls.length, 0)
  })
  it('accepts query as an alias of querystring', () => {
    const { compiler, calls } = recording()
    const v = compileRouteValidators({ schema: { query: { q: { type: 'string' } } }, method: 'GET', url: '/', compiler })
    assert.ok(v.querystring)
    assert.deepEqual(calls[0].schema, { type: 'object', properties: { q: { type: 'string' } } })
  })
  it('refuses both query and querystring with FST_ERR_SCH_DUPLICATE', () => {
    const { compiler } = recording()
    assert.throws(() => compileRouteValidators({ schema: { query: { a: {} }, querystring: { b: {} } }, method: 'GET', url: '/', compiler }),
      (e: any) => e.code === 'FST_ERR_SCH_DUPLICATE')
  })
  it('refuses a body schema on GET and HEAD with FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED (4.29)', () => {
    const { compiler } = recording()
    for (const method of ['GET', 'HEAD', ['GET', 'HEAD']]) {
      assert.throws(() => compileRouteValidators({ schema: { body: { a: {} } }, method: method as string, url: '/b', compiler }),
        (e: any) => e instanceof errorCodes.FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED && /\/b/.test(e.message))
    }
  })
  it('accepts a body schema on a route whose methods include a body method', () => {
    const { compiler } = recording()
    assert.ok(compileRouteValidators({ schema: { body: { a: {} } }, method: ['GET', 'POST'] as unknown as string, url: '/', compiler }).body)
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      assert.ok(compileRouteValidators({ schema: { body: { a: {} } }, method: m, url: '/', compiler }).body)
    }
  })
  it('wraps compiler failures in FST_ERR_SCH_VALIDATION_BUILD with method, url and reason', () => {
    const compiler: ValidatorCompiler = () => { throw new Error('boom') }
    assert.throws(() => compileRouteValidators({ schema: { params: { id: {} } }, method: 'GET', url: '/p/:id', compiler }),
      (e: any) => {
        assert.ok(e instanceof errorCodes.FST_ERR_SCH_VALIDATION_BUILD)
        assert.equal(e.message, 'Failed building the validation schema for GET: /p/:id, due to error boom')
        assert.equal((e.cause as Error).message, 'boom')
        return true
      })
  })
  it('wraps an invalid JSON schema reported by Ajv', () => {
    const compiler = createDefaultValidatorCompiler({})
    assert.throws(() => compileRouteValidators({ schema: { body: { type: 'object', properties: { a: { type: 'nope' } } } }, method: 'POST', url: '/', compiler }),
      (e: any) => e.code === 'FST_ERR_SCH_VALIDATION_BUILD' && /POST: \/, due to error schema is invalid/.test(e.message))
  })
  it('refuses a compiler that does not return a function', () => {
    const compiler = (() => 42) as unknown as ValidatorCompiler
    assert.throws(() => compileRouteValidators({ schema: { body: {} }, method: 'POST', url: '/', compiler }),
      (e: any) => e.code === 'FST_ERR_SCH_VALIDATION_BUILD' && /expected a function/.test(e.message))
  })
  it('gives foreign (non-plain) schemas to the compiler untouched, headers included', () => {
    const { compiler, calls } = recording()
    class Foreign { constructor (readonly tag: string) {} }
    const b = new Foreign('b'); const h = new Foreign('h')
    compileRouteValidators({ schema: { body: b, headers: h }, method: 'POST', url: '/', compiler })
    assert.equal(calls.find((c) => c.httpPart === 'body')?.schema, b)
    assert.equal(calls.find((c) => c.httpPart === 'headers')?.schema, h)
  })
  it('never mutates the route schema', () => {
    const { compiler } = recording()
    const schema = { query: { a: { type: 'string' } }, headers: { type: 'object', properties: { 'X-Y': {} }, required: ['X-Y'] } }
    const before = JSON.stringify(schema)
    compileRouteValidators({ schema, method: 'GET', url: '/', compiler })
    assert.equal(JSON.stringify(schema), before)
    assert.equal('querystring' in schema, false)
  })
})
