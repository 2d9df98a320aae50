import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import trellis from '../../src/index'

/** A preParsing hook replaces the body with a stream that fails with an error carrying `statusCode`. */
function appFailingBodyWith (statusCode: unknown): { app: any, seen: unknown[] } {
  const app: any = trellis()
  const seen: unknown[] = []
  app.addHook('preParsing', async () => {
    const stream = new Readable({
      read () {
        const err = new Error('kaboom') as Error & { statusCode?: unknown }
        if (statusCode !== undefined) err.statusCode = statusCode
        this.destroy(err)
      }
    })
    return stream
  })
  app.addHook('onError', async (_req: any, _reply: any, err: any) => { seen.push(err.statusCode) })
  app.post('/', async () => 'never')
  return { app, seen }
}

test('a body stream error answers 400 unless it carries a status >= 400 (Fastify 4.29: 200 or "418" become 400)', async () => {
  for (const [given, expected] of [[200, 400], ['418', 400], [undefined, 400], [302, 400], [408, 408], [413, 413]] as const) {
    const { app, seen } = appFailingBodyWith(given)
    const res = await app.inject({ method: 'POST', url: '/', payload: { hello: 'world' } })
    assert.equal(res.statusCode, expected, `statusCode ${String(given)}`)
    assert.equal(res.json().message, 'kaboom')
    assert.equal(res.json().statusCode, expected)
    assert.deepEqual(seen, [expected])
  }
})
