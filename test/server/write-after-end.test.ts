import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import trellis from '../../src/index'
import { listen, request } from '../helpers'

// A write (or an end with data) after the response has ended makes node emit 'error' on the
// response a tick later; without a listener that would crash the process. trellis's own
// node:http(s) responses (src/server/guarded-response.ts) add a listener only when that happens;
// inject, HTTP/2 and serverFactory responses get one per response (lifecycle/handle-request.ts).
// With an onResponse hook the response's own watcher is removed at 'finish', which can come before
// the error's tick: the guard still catches it (before this guard that crashed the process).

const nextTicks = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)))

type Setup = 'plain' | 'onResponse hook'

function build (setup: Setup, seen: string[]): ReturnType<typeof trellis> {
  const app = trellis()
  if (setup === 'onResponse hook') app.addHook('onResponse', (_req, _reply, done) => { done() })
  app.get('/write', (_req, reply) => {
    reply.send('sent')
    reply.raw.write('late') // same tick as the end
  })
  app.get('/end', async (_req, reply) => {
    reply.send('sent')
    reply.raw.end('late')
    return reply
  })
  app.get('/own-listener', (_req, reply) => {
    reply.raw.on('error', (err: NodeJS.ErrnoException) => { seen.push(String(err.code)) })
    reply.send('sent')
    reply.raw.write('late')
  })
  app.get('/ok', async () => ({ ok: true }))
  return app
}

for (const setup of ['plain', 'onResponse hook'] as Setup[]) {
  test(`write and end after the response ended never crash, real socket (${setup})`, async () => {
    const seen: string[] = []
    const app = build(setup, seen)
    const { port } = await listen(app)
    try {
      for (const path of ['/write', '/end', '/own-listener']) {
        const res = await request(port, { path })
        assert.equal(res.statusCode, 200)
        assert.equal(res.body, 'sent', path)
        await nextTicks()
      }
      // the application's own listener still receives the error
      assert.deepEqual(seen, ['ERR_STREAM_WRITE_AFTER_END'])
      const ok = await request(port, { path: '/ok' })
      assert.equal(ok.body, '{"ok":true}')
    } finally {
      await app.close()
    }
  })

  test(`write and end after the response ended never crash, inject (${setup})`, async () => {
    const seen: string[] = []
    const app = build(setup, seen)
    for (const url of ['/write', '/end', '/own-listener']) {
      const res = await app.inject({ url })
      assert.equal(res.statusCode, 200)
      assert.equal(res.body, 'sent', url)
      await nextTicks()
    }
    // light-my-request's response reports a late write to nobody: nothing to crash on
    await app.close()
  })
}

test('responses of a trellis node:http server are still http.ServerResponse instances', async () => {
  const app = trellis()
  let isResponse = false
  app.get('/', (_req, reply) => { isResponse = reply.raw instanceof http.ServerResponse; reply.send('x') })
  const { port } = await listen(app)
  try {
    assert.equal((await request(port)).body, 'x')
    assert.equal(isResponse, true)
  } finally {
    await app.close()
  }
})
