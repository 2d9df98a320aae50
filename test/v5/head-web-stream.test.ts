import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ReadableStream } from 'node:stream/web'
import { v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: the automatic HEAD route cancels a web ReadableStream; a failing cancel is logged, the answer stays 200`, async () => {
    const reasons: unknown[] = []
    const logged: string[] = []
    const stream = { write (line: string) { logged.push(JSON.parse(line).msg) } }
    const app = factory({ logger: { level: 'error', stream } })
    app.get('/web', () => new ReadableStream({
      start (c) { c.enqueue('hello') },
      cancel (reason) { reasons.push(reason); throw new Error('cancel failed') }
    }))
    const res = await app.inject({ method: 'HEAD', url: '/web' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, '')
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(reasons, ['Stream cancelled by HEAD route'])
    assert.deepEqual(logged, ['Error on Stream found for HEAD route'])
  })
}
