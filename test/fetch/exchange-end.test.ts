// An exchange over app.fetch ends ('finish', then 'close' on reply.raw) without waiting for the
// event loop: a loop of awaited app.fetch() calls never leaves the microtask queue, and ends that
// waited for node's next tick would pile up (with every exchange they hold) until the loop yields.
// Nothing here yields to the event loop between the first request and the checks.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellisV4 from '../../src/index'
import trellisV5 from '../../src/v5'

const N = 300

for (const [line, make] of [[4, trellisV4], [5, trellisV5]] as const) {
  test(`v${line}: awaited app.fetch() calls in one run each end before the next: onResponse runs for all`, async () => {
    const app = (make as unknown as () => any)()
    let responded = 0
    app.addHook('onResponse', async () => { responded++ })
    app.get('/', async () => ({ hello: 'world' }))
    await app.ready()
    for (let i = 0; i < N; i++) {
      const res = await app.fetch(new Request('http://localhost/'))
      assert.equal(res.status, 200)
      await res.text()
    }
    // the last exchange's end may still be queued behind the caller's continuation: at most one pending
    assert.ok(responded >= N - 1, `onResponse ran ${responded} times for ${N} answered requests`)
    await app.close()
  })

  test(`v${line}: awaited app.fetch() calls in one run leave no raw response unfinished or unclosed`, async () => {
    const app = (make as unknown as () => any)()
    const raws: any[] = []
    app.addHook('onRequest', (_request: any, reply: any, done: () => void) => { raws.push(reply.raw); done() })
    app.get('/', async () => ({ hello: 'world' }))
    await app.ready()
    for (let i = 0; i < N; i++) {
      // no request body: reading one goes through the event loop, which would let next ticks run
      const res = await app.fetch(new Request('http://localhost/'))
      await res.text()
    }
    assert.equal(raws.length, N)
    const open = raws.filter((raw) => !raw.writableFinished || !raw.closed).length
    assert.ok(open <= 1, `${open} of ${N} raw responses not finished and closed`)
    await app.close()
  })
}
