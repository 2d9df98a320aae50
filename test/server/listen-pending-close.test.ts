/**
 * close() while a listen() waits for the application to load: the server never binds, and a
 * `listen(cb)` callback is never called (Fastify 4 and 5; a call would be activity after a test
 * framework's test ended). The promise form rejects with FST_ERR_REOPENED_CLOSE_SERVER. Both trellis
 * lines, and fastify 4.29 and 5 for the callback form.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import trellisV4 from '../../src/index'
import trellisV5 from '../../src/v5'

type Factory = (opts?: object) => any
const targets: Array<[string, Factory, boolean]> = [
  ['trellis', trellisV4 as unknown as Factory, true],
  ['trellis/v5', trellisV5 as unknown as Factory, true],
  ['fastify@4.29', require('fastify429') as Factory, false],
  ['fastify@5', require('fastify') as Factory, false]
]

for (const [name, factory, isTrellis] of targets) {
  test(`${name}: a listen(cb) pending when close() is called is never called, and nothing binds`, async () => {
    const app = factory()
    const calls: unknown[] = []
    app.listen({ port: 0, host: '127.0.0.1' }, (err: Error | null, address: string) => { calls.push(err ?? address) })
    await app.close()
    await sleep(100)
    assert.deepEqual(calls, [])
    assert.equal(app.server.listening, false)
  })

  test(`${name}: a listen(cb) waiting for a slow plugin when close() is called is never called`, async () => {
    const app = factory()
    app.register(async () => { await sleep(30) })
    const calls: unknown[] = []
    app.listen({ port: 0, host: '127.0.0.1' }, (err: Error | null, address: string) => { calls.push(err ?? address) })
    await sleep(5)
    await app.close()
    await sleep(100)
    assert.deepEqual(calls, [])
    assert.equal(app.server.listening, false)
  })

  // fastify binds the server after close() here and leaves it open: trellis refuses instead
  if (isTrellis) {
    test(`${name}: the promise form pending when close() is called rejects, and nothing binds`, async () => {
      const app = factory()
      const listening = app.listen({ port: 0, host: '127.0.0.1' })
      await app.close()
      await assert.rejects(listening, { code: 'FST_ERR_REOPENED_CLOSE_SERVER' })
      assert.equal(app.server.listening, false)
    })

    test(`${name}: listen(cb) after close() has finished is called with FST_ERR_REOPENED_CLOSE_SERVER`, async () => {
      const app = factory()
      await app.listen({ port: 0, host: '127.0.0.1' })
      await app.close()
      const err = await new Promise<Error | null>((resolve) => app.listen({ port: 0, host: '127.0.0.1' }, (e: Error | null) => resolve(e)))
      assert.equal((err as { code?: string } | null)?.code, 'FST_ERR_REOPENED_CLOSE_SERVER')
    })
  }
}

test('trellis/v5: a listen(cb) that bound before close() was called is called with the address, then close() closes the socket', async () => {
  const app = trellisV5()
  const address = await new Promise<string>((resolve, reject) => app.listen({ port: 0, host: '127.0.0.1' }, (err: Error | null, a: string) => err === null ? resolve(a) : reject(err)))
  const res = await fetch(address + '/missing')
  assert.equal(res.status, 404)
  await app.close()
  await assert.rejects(fetch(address + '/missing'))
})
