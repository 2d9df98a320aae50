import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: listen({ signal }) aborted before or while starting closes the instance and settles with undefined`, async () => {
    const before = new AbortController()
    before.abort()
    const app = factory()
    let closed = 0
    app.addHook('onClose', (_i: unknown, done: () => void) => { closed++; done() })
    assert.equal(await app.listen({ port: 0, host: '127.0.0.1', signal: before.signal }), undefined)
    assert.equal(closed, 1)
    assert.equal(app.server.listening, false)

    const during = new AbortController()
    const other = factory()
    other.addHook('onClose', (_i: unknown, done: () => void) => { closed++; done() })
    const listening = other.listen({ port: 0, host: '127.0.0.1', signal: during.signal })
    during.abort()
    assert.equal(await listening, undefined)
    assert.equal(other.server.listening, false)
    assert.equal(closed, 2)
  })

  test(`${name}: listen({ signal }) with a callback aborted before starting never calls the callback`, async () => {
    const controller = new AbortController()
    controller.abort()
    const app = factory()
    let called = false
    await new Promise<void>((resolve) => {
      app.addHook('onClose', (_i: unknown, done: () => void) => { done(); resolve() })
      app.listen({ port: 0, host: '127.0.0.1', signal: controller.signal }, () => { called = true })
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.equal(called, false)
  })
}

// Fastify 4.29's promise never settles here; trellis's v4 line rejects instead of hanging
test('trellis (v4 line): listen({ signal }) aborted before starting rejects on the closed instance', async () => {
  const controller = new AbortController()
  controller.abort()
  const app = v4()
  await assert.rejects(app.listen({ port: 0, host: '127.0.0.1', signal: controller.signal }))
})
