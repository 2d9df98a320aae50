import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: an onReady hook that never finishes times out naming the hook function`, async () => {
    const app = factory({ pluginTimeout: 100 })
    app.addHook('onReady', function someHookName (_done: () => void) {})
    await assert.rejects(app.ready(), {
      code: 'FST_ERR_HOOK_TIMEOUT',
      message: 'A callback for \'onReady\' hook "someHookName" timed out. You may have forgotten to call \'done\' function or to resolve a Promise'
    })
  })
}

test('trellis (v4 line): the onReady timeout names the hook only, as Fastify 4.29', async () => {
  const app = v4({ pluginTimeout: 100 })
  app.addHook('onReady', function someHookName (_done: () => void) {})
  await assert.rejects(app.ready(), {
    code: 'FST_ERR_HOOK_TIMEOUT',
    message: 'A callback for \'onReady\' hook timed out. You may have forgotten to call \'done\' function or to resolve a Promise'
  })
})
