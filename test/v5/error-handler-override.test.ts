import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

function warningsDuring (fn: () => void): Promise<string[]> {
  const codes: string[] = []
  const onWarning = (w: Error & { code?: string }): void => { codes.push(w.code ?? '') }
  process.on('warning', onWarning)
  fn()
  return new Promise((resolve) => setImmediate(() => { process.removeListener('warning', onWarning); resolve(codes) }))
}

for (const [name, factory] of v5Targets) {
  test(`${name}: a second setErrorHandler in one scope warns FSTWRN004; a child scope starts afresh`, async () => {
    const app = factory()
    const first = await warningsDuring(() => {
      app.setErrorHandler(() => {})
      app.register(async (child: any) => { child.setErrorHandler(() => {}) })
    })
    assert.equal(first.includes('FSTWRN004'), false)
    const second = await warningsDuring(() => { app.setErrorHandler(() => {}) })
    assert.equal(second.includes('FSTWRN004'), true)
    await app.ready()
  })

  test(`${name}: allowErrorHandlerOverride: false makes the second one FST_ERR_ERROR_HANDLER_ALREADY_SET`, async () => {
    const app = factory({ allowErrorHandlerOverride: false })
    app.setErrorHandler(() => {})
    assert.throws(() => app.setErrorHandler(() => {}), { code: 'FST_ERR_ERROR_HANDLER_ALREADY_SET' })
    let inChild: unknown
    app.register(async (child: any) => {
      child.setErrorHandler(() => {})
      try { child.setErrorHandler(() => {}) } catch (err) { inChild = err }
    })
    await app.ready()
    assert.equal((inChild as { code?: string })?.code, 'FST_ERR_ERROR_HANDLER_ALREADY_SET')
  })
}

test('trellis (v4 line): setErrorHandler may be called again without a warning', async () => {
  const app = v4({ allowErrorHandlerOverride: false })
  const codes = await warningsDuring(() => { app.setErrorHandler(() => {}); app.setErrorHandler(() => {}) })
  assert.equal(codes.includes('FSTWRN004'), false)
})
