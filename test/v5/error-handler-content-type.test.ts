import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: an error handler starts without the failed payload's content type`, async () => {
    const app = factory()
    const seen: unknown[] = []
    let sends = 0
    app.setErrorHandler((_err: Error, _req: any, reply: any) => {
      seen.push(reply.hasHeader('content-type'))
      reply.code(400).send({ failed: true })
    })
    app.addHook('onSend', async (_req: any, reply: any, payload: unknown) => {
      seen.push(reply.getHeader('content-type'))
      if (++sends === 1) throw new Error('kaboom')
      return payload
    })
    app.get('/', (_req: any, reply: any) => { reply.send('plain text') })
    const res = await app.inject({ url: '/' })
    assert.equal(res.statusCode, 400)
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.deepEqual(res.json(), { failed: true })
    assert.deepEqual(seen, ['text/plain; charset=utf-8', false, 'application/json; charset=utf-8'])
    await app.close()
  })
}
