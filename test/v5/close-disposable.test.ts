import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: addHook('onClose') takes AsyncDisposable and Disposable objects, asyncDispose first`, async () => {
    const app = factory()
    const calls: string[] = []
    app.register(async (child: any) => {
      child.addHook('onClose', { async [Symbol.asyncDispose] () { calls.push('child async') } })
    })
    app.addHook('onClose', { [Symbol.dispose] () { calls.push('sync') } })
    app.addHook('onClose', {
      async [Symbol.asyncDispose] () { calls.push('both: async') },
      [Symbol.dispose] () { calls.push('both: sync') }
    })
    await app.ready()
    assert.deepEqual(calls, [])
    await app.close()
    assert.deepEqual(calls.sort(), ['both: async', 'child async', 'sync'])
  })

  test(`${name}: a failing dispose rejects close(); a non-disposable object is FST_ERR_HOOK_INVALID_HANDLER`, async () => {
    const app = factory()
    app.addHook('onClose', { async [Symbol.asyncDispose] () { throw new Error('dispose failed') } })
    await app.ready()
    await assert.rejects(app.close(), { message: 'dispose failed' })
    const other = factory()
    assert.throws(() => other.addHook('onClose', { someProp: 1 }), { code: 'FST_ERR_HOOK_INVALID_HANDLER' })
  })
}

test('trellis (v4 line): an onClose hook must be a function', () => {
  const app = v4()
  assert.throws(() => app.addHook('onClose', { async [Symbol.asyncDispose] () {} }), { code: 'FST_ERR_HOOK_INVALID_HANDLER' })
})
