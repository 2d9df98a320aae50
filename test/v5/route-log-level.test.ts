import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: a route's logLevel must be a level of the logger`, async () => {
    const app = factory({ logger: true })
    assert.throws(() => app.get('/log', { logLevel: 'loud' }, async () => 'ok'), (err: any) => {
      assert.equal(err.code, 'FST_ERR_ROUTE_LOG_LEVEL_INVALID')
      assert.equal(err.statusCode, 500)
      assert.equal(err.message, "Log level for 'GET:/log' route must be a valid logger level. Received: 'loud'")
      return true
    })
    app.get('/fine', { logLevel: 'warn' }, async () => 'ok')
    assert.equal((await app.inject({ url: '/fine' })).statusCode, 200)
    await app.close()
  })
}

test('trellis (v4 line): an unknown route logLevel is not checked when the route is added', async () => {
  const app = v4({ logger: true })
  assert.doesNotThrow(() => app.get('/log', { logLevel: 'loud' }, async () => 'ok'))
  await app.close()
})
