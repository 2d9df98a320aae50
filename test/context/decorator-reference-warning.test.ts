/**
 * decorateRequest / decorateReply with an object or array value: one reference shared by every
 * request, so Fastify 4.3's FSTDEP006 deprecation warning is emitted (once per process).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

test('a reference-type request/reply decorator warns FSTDEP006 once; getters/setters, primitives and instance decorators do not', async () => {
  const warnings: Array<{ code?: string, message: string }> = []
  const listener = (w: Error & { code?: string }): void => { if (w.name === 'DeprecationWarning') warnings.push({ code: w.code, message: w.message }) }
  process.on('warning', listener)
  try {
    const app = trellis()
    app.decorate('shared', { a: 1 })
    app.decorateRequest('flag', true)
    app.decorateRequest('count', 1)
    app.decorateRequest('label', 'x')
    app.decorateReply('computed', { getter: () => 1 })
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(warnings.length, 0)
    app.decorateRequest('list', [])
    app.decorateReply('obj', {})
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(warnings.length, 1)
    assert.equal(warnings[0].code, 'FSTDEP006')
    assert.match(warnings[0].message, /Property: list$/)
  } finally {
    process.off('warning', listener)
  }
})
