import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

for (const [name, factory] of v5Targets) {
  test(`${name}: handlerTimeout answers 503 and aborts request.signal; a route's own value wins`, async () => {
    const app = factory({ handlerTimeout: 50 })
    let reason: unknown
    app.get('/slow', async (req: any) => {
      req.signal.addEventListener('abort', () => { reason = req.signal.reason })
      await sleep(300)
      return 'late'
    })
    app.get('/patient', { handlerTimeout: 1000 }, async (req: any) => { await sleep(100); return { timeout: req.routeOptions.handlerTimeout } })
    app.get('/custom', {
      handlerTimeout: 20,
      errorHandler: (err: any, _req: any, reply: any) => { reply.code(504).send({ code: err.code }) }
    }, () => new Promise(() => {}))
    const slow = await app.inject('/slow')
    assert.equal(slow.statusCode, 503)
    assert.equal(slow.json().code, 'FST_ERR_HANDLER_TIMEOUT')
    assert.equal((reason as any)?.code, 'FST_ERR_HANDLER_TIMEOUT')
    assert.deepEqual((await app.inject('/patient')).json(), { timeout: 1000 })
    assert.deepEqual((await app.inject('/custom')).json(), { code: 'FST_ERR_HANDLER_TIMEOUT' })
    assert.equal(app.initialConfig.handlerTimeout, 50)
    await app.close()
  })

  test(`${name}: a route's handlerTimeout must be a positive integer`, () => {
    const app = factory()
    assert.throws(() => app.get('/', { handlerTimeout: 0 }, () => 'x'), { code: 'FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT' })
    assert.throws(() => app.get('/', { handlerTimeout: 1.5 }, () => 'x'), { code: 'FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT' })
  })
}

test('trellis (v4 line): handlerTimeout is not an option', async () => {
  const app = v4({ handlerTimeout: 20 })
  app.get('/', { handlerTimeout: 10 }, async () => { await sleep(60); return 'done' })
  assert.equal((await app.inject('/')).body, 'done')
  assert.equal('handlerTimeout' in app.initialConfig, false)
})
