/** The FST_ERR_* classes: instances and classes share the name 'FastifyError'. */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { errorCodes } from '../../src/base/errors'

describe('error classes', () => {
  it('the class is named like its instances (FastifyError), so name-based matchers agree', () => {
    const E = errorCodes.FST_ERR_CTP_ALREADY_PRESENT
    const err = new E('application/json')
    assert.equal(E.name, 'FastifyError')
    assert.equal(err.name, E.name)
    assert.ok(err instanceof E)
    assert.equal(err.code, 'FST_ERR_CTP_ALREADY_PRESENT')
  })
})
