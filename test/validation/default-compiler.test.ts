import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createDefaultValidatorCompiler, DEFAULT_AJV_OPTIONS, compileRouteValidators } from '../../src/schema/validation/index'

const input = (schema: unknown) => ({ schema, method: 'POST', url: '/', httpPart: 'body' as const })

describe('default validator compiler', () => {
  it('uses the Fastify 4.3 baseline: coerceTypes array, useDefaults, removeAdditional, allErrors false', () => {
    assert.equal(DEFAULT_AJV_OPTIONS.coerceTypes, 'array')
    assert.equal(DEFAULT_AJV_OPTIONS.useDefaults, true)
    assert.equal(DEFAULT_AJV_OPTIONS.removeAdditional, true)
    assert.equal(DEFAULT_AJV_OPTIONS.allErrors, false)
    const c = createDefaultValidatorCompiler({})
    const opts = c.ajv.opts as unknown as Record<string, unknown>
    assert.equal(opts.coerceTypes, 'array')
    assert.equal(opts.allErrors, false)
  })
  it('reports one error at a time by default (allErrors false)', () => {
    const fn = createDefaultValidatorCompiler({})(input({ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } }))
    assert.equal(fn({ a: 'x', b: 'y' }), false)
    assert.equal((fn.errors as unknown[]).length, 1)
  })
  it('merges ajv.customOptions over the baseline', () => {
    const c = createDefaultValidatorCompiler({}, { customOptions: { allErrors: true, coerceTypes: false } })
    const fn = c(input({ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } }))
    assert.equal(fn({ a: '1', b: '2' }), false)
    assert.equal((fn.errors as unknown[]).length, 2)
    assert.equal((c.ajv.opts as unknown as Record<string, unknown>).useDefaults, true)
  })
  it('applies ajv.plugins given as a function or as [plugin, options]', () => {
    const seen: unknown[] = []
    function pluginA (ajv: any): void { seen.push('A'); ajv.addKeyword({ keyword: 'isEven', type: 'number', validate: (_s: unknown, d: number) => d % 2 === 0 }) }
    function pluginB (_ajv: unknown, opts: unknown): void { seen.push(opts) }
    const c = createDefaultValidatorCompiler({}, { plugins: [pluginA, [pluginB, { x: 1 }]] })
    assert.deepEqual(seen, ['A', { x: 1 }])
    const fn = c(input({ type: 'number', isEven: true }))
    assert.equal(fn(3), false)
    assert.equal(fn(4), true)
  })
  it('refuses a plugin entry that is not a function', () => {
    assert.throws(() => createDefaultValidatorCompiler({}, { plugins: ['nope'] }), /plugin function/)
  })
  it('adds ajv-formats unless the user brings a formatsPlugin', () => {
    const fn = createDefaultValidatorCompiler({})(input({ type: 'string', format: 'date' }))
    assert.equal(fn('2020-01-01'), true)
    assert.equal(fn('yesterday'), false)
    let called = 0
    function formatsPlugin (ajv: any): void { called++; ajv.addFormat('date', /^x$/) }
    const own = createDefaultValidatorCompiler({}, { plugins: [formatsPlugin] })(input({ type: 'string', format: 'date' }))
    assert.equal(called, 1)
    assert.equal(own('x'), true)
  })
  it('returns the same compiler for the same shared schemas and options', () => {
    const shared = { a: { $id: 'a', type: 'string' } }
    const one = createDefaultValidatorCompiler(shared, { customOptions: { allErrors: false } })
    const two = createDefaultValidatorCompiler({ a: { $id: 'a', type: 'string' } }, { customOptions: { allErrors: false } })
    assert.equal(one, two)
    assert.equal(one.ajv, two.ajv)
    assert.notEqual(one, createDefaultValidatorCompiler({ ...shared, b: { $id: 'b', type: 'string' } }, { customOptions: { allErrors: false } }))
    assert.notEqual(one, createDefaultValidatorCompiler(shared, { customOptions: { allErrors: true } }))
  })
  it('keys the pool by plugin identity', () => {
    function p1 (): void {}
    function p2 (): void {}
    assert.notEqual(createDefaultValidatorCompiler({}, { plugins: [p1] }), createDefaultValidatorCompiler({}, { plugins: [p2] }))
    assert.equal(createDefaultValidatorCompiler({}, { plugins: [p1] }), createDefaultValidatorCompiler({}, { plugins: [p1] }))
  })
  it('compiles the same schema object once, however many routes use it', () => {
    const c = createDefaultValidatorCompiler({ counted: { $id: 'counted', type: 'object' } })
    let compiles = 0
    const original = c.ajv.compile.bind(c.ajv)
    c.ajv.compile = ((s: any) => { compiles++; return original(s) }) as typeof c.ajv.compile
    const body = { type: 'object', properties: { n: { type: 'integer' } } }
    const shorthandQuery = { q: { type: 'string' } }
    const headers = { 'X-A': { type: 'string' } }
    const fns = new Set<unknown>()
    for (let i = 0; i < 100; i++) {
      const v = compileRouteValidators({ schema: { body, querystring: shorthandQuery, headers }, method: 'POST', url: `/r${i}`, compiler: c })
      fns.add(v.body)
    }
    assert.equal(compiles, 3)
    assert.equal(fns.size, 1)
  })
  it('returns the registered validator when the route schema is a shared schema itself', () => {
    const user = { $id: 'user', type: 'object', required: ['n'] }
    const c = createDefaultValidatorCompiler({ user })
    assert.equal(c(input(user)), c.ajv.getSchema('user'))
  })
  it('lets two routes use different schemas with the same $id', () => {
    const c = createDefaultValidatorCompiler({})
    const a = c(input({ $id: 'same', type: 'string' }))
    const b = c(input({ $id: 'same', type: 'integer' }))
    assert.equal(a('x'), true)
    assert.equal(b(5), true)
  })
})
