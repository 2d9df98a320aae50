import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { logCollector } from '../helpers'

test('listenTextResolver writes the "listening" log line (Fastify 4.29)', async () => {
  const logs = logCollector()
  const app: any = trellis({ logger: { level: 'info', stream: logs.stream } })
  const seen: string[] = []
  await app.listen({ port: 0, host: '127.0.0.1', listenTextResolver: (address: string) => { seen.push(address); return `up at ${address}` } })
  assert.equal(seen.length, 1)
  assert.match(seen[0], /^http:\/\/127\.0\.0\.1:\d+$/)
  assert.ok(logs.lines.some((l) => l.msg === `up at ${seen[0]}`))
  await app.close()
})

test('listen: an abort signal closes the instance; a signal that is not one is FST_ERR_LISTEN_OPTIONS_INVALID', async () => {
  const app: any = trellis()
  let closed = false
  app.addHook('onClose', (_i: unknown, done: () => void) => { closed = true; done() })
  const controller = new AbortController()
  await app.listen({ port: 0, host: '127.0.0.1', signal: controller.signal })
  controller.abort()
  for (let i = 0; i < 50 && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 10))
  assert.equal(closed, true)
  assert.equal(app.server.listening, false)
  assert.throws(() => trellis().listen({ port: 0, signal: {} as any }), { code: 'FST_ERR_LISTEN_OPTIONS_INVALID', message: "Invalid listen options: 'Invalid options.signal'" })
})

test('listeningOrigin is the address the server listens on (Fastify 4.29)', async () => {
  const app: any = trellis()
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    assert.equal(app.listeningOrigin, `http://127.0.0.1:${app.server.address().port}`)
  } finally {
    await app.close()
  }
})
