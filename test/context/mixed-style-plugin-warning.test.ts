import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import fp from '../../src/plugin'

test('an async plugin that also takes done warns FSTWRN002 each time, named as Fastify 4.29 names it, and still loads', async () => {
  const seen: Array<{ name: string; code: string; message: string }> = []
  const onWarning = (w: any): void => { if (w.code === 'FSTWRN002') seen.push({ name: w.name, code: w.code, message: w.message }) }
  process.on('warning', onWarning)
  const app: any = trellis()
  const loaded: string[] = []
  try {
    app.register(fp((async (_i: any, _o: any, done: () => void) => { loaded.push('meta'); done() }) as any, { name: 'with-meta' }))
    app.register(async (_i: any, _o: any, done: () => void) => { loaded.push('anon'); done() })
    app.register(async function namedOne (_i: any, _o: any, done: () => void) { loaded.push('named'); done() })
    // neither style mixed: no warning
    app.register(async () => { loaded.push('async') })
    app.register((_i: any, _o: any, done: () => void) => { loaded.push('callback'); done() })
    await app.ready()
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.removeListener('warning', onWarning)
  }
  assert.deepEqual(loaded, ['meta', 'anon', 'named', 'async', 'callback'])
  assert.deepEqual(seen.map((w) => w.message), [
    'The with-meta plugin being registered mixes async and callback styles, which will result in an error in `fastify@5`',
    'The anonymous plugin being registered mixes async and callback styles, which will result in an error in `fastify@5`',
    'The namedOne plugin being registered mixes async and callback styles, which will result in an error in `fastify@5`'
  ])
  assert.ok(seen.every((w) => w.name === 'FastifyWarning'))
  await app.close()
})
