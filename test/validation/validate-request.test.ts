import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { errorCodes } from '../../src/base/errors'
import { defaultSchemaErrorFormatter, validateRequest, type RouteValidators, type ValidatorFn } from '../../src/schema/validation/index'
import { parts } from './helpers'

const ok: ValidatorFn = () => true
const failing = (errors: unknown[]): ValidatorFn => Object.assign(() => false, { errors })

describe('validateRequest', () => {
  it('returns null when every part passes', () => {
    assert.equal(validateRequest({ body: ok, params: ok, querystring: ok, headers: ok }, parts(), defaultSchemaErrorFormatter), null)
    assert.equal(validateRequest({}, parts(), defaultSchemaErrorFormatter), null)
  })
  it('runs the parts in the order params, body, querystring, headers', () => {
    const seen: string[] = []
    const spy = (name: string): ValidatorFn => () => { seen.push(name); return true }
    validateRequest({ headers: spy('headers'), querystring: spy('querystring'), body: spy('body'), params: spy('params') }, parts(), defaultSchemaErrorFormatter)
    assert.deepEqual(seen, ['params', 'body', 'querystring', 'headers'])
  })
  it('stops at the first failing part', () => {
    let ran = false
    const err = validateRequest({ body: failing([{ instancePath: '', message: 'x' }]), querystring: () => { ran = true; return true } }, parts(), defaultSchemaErrorFormatter)
    assert.equal(err?.validationContext, 'body')
    assert.equal(ran, false)
  })
  it('uses fn.errors when a validator returns false', () => {
    const errors = [{ instancePath: '/a', message: 'must be integer' }]
    const err = validateRequest({ params: failing(errors) }, parts(), defaultSchemaErrorFormatter)
    assert.ok(err instanceof Error)
    assert.equal(err.statusCode, 400)
    assert.equal(err.validation, errors)
    assert.equal(err.validationContext, 'params')
    assert.equal(err.message, 'params/a must be integer')
  })
  it('uses { error } as the failure and passes arrays to the formatter', () => {
    const errors = [{ instancePath: '', message: 'bad' }]
    const err = validateRequest({ querystring: () => ({ error: errors }) }, parts(), defaultSchemaErrorFormatter)
    assert.equal(err?.message, 'querystring bad')
    assert.equal(err?.validation, errors)
    assert.equal(err?.validationContext, 'querystring')
  })
  it('keeps an Error returned as { error }, adding statusCode 400 and validationContext when missing', () => {
    const e = new Error('this failed')
    const err = validateRequest({ body: () => ({ error: e }) }, parts({ body: {} }), defaultSchemaErrorFormatter)
    assert.equal(err, e)
    assert.equal(err?.statusCode, 400)
    assert.equal(err?.validationContext, 'body')
    const custom = Object.assign(new Error('x'), { statusCode: 422, validationContext: 'customContext' })
    const err2 = validateRequest({ body: () => ({ error: custom }) }, parts({ body: {} }), defaultSchemaErrorFormatter)
    assert.equal(err2?.statusCode, 422)
    assert.equal(err2?.validationContext, 'customContext')
  })
  it('replaces a part with { value } (coerced data), query included', () => {
    const req = parts({ body: { n: '1' }, query: { q: '2' }, params: { p: '3' }, headers: { h: '4' } })
    const v: RouteValidators = {
      body: () => ({ value: { n: 1 } }),
      querystring: () => ({ value: { q: 2 } }),
      params: () => ({ value: { p: 3 } }),
      headers: () => ({ value: { h: 4 } })
    }
    assert.equal(validateRequest(v, req, defaultSchemaErrorFormatter), null)
    assert.deepEqual(req, { body: { n: 1 }, query: { q: 2 }, params: { p: 3 }, headers: { h: 4 } })
  })
  it('gives an undefined part to the validator as null', () => {
    let got: unknown = 'unset'
    validateRequest({ body: (d) => { got = d; return true } }, parts({ body: undefined }), defaultSchemaErrorFormatter)
    assert.equal(got, null)
  })
  it('validates a copy of the headers and writes the coerced copy back, leaving the original untouched', () => {
    const raw = { 'x-n': '5', host: 'h' }
    const req = parts({ headers: raw })
    let seen: unknown
    const coerce: ValidatorFn = (d: Record<string, unknown>) => { seen = d; d['x-n'] = Number(d['x-n']); return true }
    assert.equal(validateRequest({ headers: coerce }, req, defaultSchemaErrorFormatter), null)
    assert.notEqual(seen, raw)
    assert.deepEqual(raw, { 'x-n': '5', host: 'h' })
    assert.deepEqual(req.headers, { 'x-n': 5, host: 'h' })
  })
  it('calls the formatter with the errors and the part name, and decorates its Error', () => {
    const calls: unknown[] = []
    const formatter = (errors: unknown[], dataVar: string): Error => { calls.push([errors, dataVar]); return Object.assign(new Error('custom'), { statusCode: 418 }) }
    const errors = [{ message: 'm' }]
    const err = validateRequest({ headers: failing(errors) }, parts(), formatter)
    assert.deepEqual(calls, [[errors, 'headers']])
    assert.equal(err?.message, 'custom')
    assert.equal(err?.statusCode, 418)
    assert.equal(err?.validation, errors)
    assert.equal(err?.validationContext, 'headers')
  })
  it('throws FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_ERROR (500) when the formatter returns a non-Error', () => {
    const formatter = (() => 'just a string') as unknown as (e: unknown[], d: string) => Error
    assert.throws(() => validateRequest({ body: failing([{}]) }, parts(), formatter), (e: any) => {
      assert.ok(e instanceof errorCodes.FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_ERROR)
      assert.equal(e.statusCode, 500)
      assert.match(e.message, /just a string/)
      return true
    })
  })
  it('lets an exception thrown by the formatter propagate (the core answers 500 with it)', () => {
    const formatter = (): Error => { throw new Error('abc') }
    assert.throws(() => validateRequest({ body: failing([{}]) }, parts(), formatter), /abc/)
  })
  it('fails with an empty error list when a validator returns false without errors', () => {
    const err = validateRequest({ body: () => false }, parts(), defaultSchemaErrorFormatter)
    assert.equal(err?.message, 'body is invalid')
    assert.equal(err?.statusCode, 400)
  })
})
