import { test } from 'node:test'
import assert from 'node:assert/strict'
import diagnostics from 'node:diagnostics_channel'
import { v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: the handler channel's error event sees the status the error will be answered with`, async () => {
    const seen: number[] = []
    const channel = diagnostics.channel('tracing:fastify.request.handler:error')
    const onError = (msg: any): void => { seen.push(msg.reply.statusCode) }
    channel.subscribe(onError)
    try {
      const app = factory()
      app.get('/503', async () => { throw Object.assign(new Error('x'), { statusCode: 503 }) })
      app.get('/plain', () => { throw new Error('plain') })
      app.get('/700', async () => { throw Object.assign(new Error('x'), { statusCode: 700 }) })
      app.get('/status', async () => { throw Object.assign(new Error('x'), { statusCode: 700, status: 418 }) })
      const answered: number[] = []
      for (const url of ['/503', '/plain', '/700', '/status']) answered.push((await app.inject(url)).statusCode)
      assert.deepEqual(seen, [503, 500, 500, 418])
      assert.deepEqual(answered, seen)
      await app.close()
    } finally {
      channel.unsubscribe(onError)
    }
  })
}
