import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { warnings } from '../../src/base/warnings'

async function fsdep011Emitted (start: (app: any) => Promise<unknown>): Promise<boolean> {
  warnings.FSTDEP011.emitted = false
  let seen = false
  const onWarning = (w: any): void => { if (w.code === 'FSTDEP011') seen = true }
  process.on('warning', onWarning)
  const app: any = trellis()
  app.get('/', async () => 'ok')
  try {
    await start(app)
    assert.equal(typeof app.server.address().port, 'number')
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.removeListener('warning', onWarning)
    await app.close()
  }
  return seen
}

const callback = (app: any, ...args: unknown[]): Promise<void> => new Promise((resolve, reject) => {
  app.listen(...args, (err: Error | null) => { if (err) reject(err); else resolve() })
})

test('listen(options) and listen(options, cb) do not warn', async () => {
  assert.equal(await fsdep011Emitted((app) => app.listen({ port: 0, host: '127.0.0.1' })), false)
  assert.equal(await fsdep011Emitted((app) => callback(app, { port: 0, host: '127.0.0.1' })), false)
})

test('the variadic listen(port, host, cb) and listen(options, port, cb) signatures work and warn FSTDEP011 (Fastify 4.29)', async () => {
  assert.equal(await fsdep011Emitted((app) => app.listen(0, '127.0.0.1')), true)
  assert.equal(await fsdep011Emitted((app) => callback(app, 0, '127.0.0.1')), true)
  assert.equal(await fsdep011Emitted((app) => callback(app, { port: 0, host: '127.0.0.1' }, 511)), true)
})
