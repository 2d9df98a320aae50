import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: requestIdHeader takes true ('request-id') and '' (none)`, async () => {
    assert.equal(factory({ requestIdHeader: true }).initialConfig.requestIdHeader, 'request-id')
    assert.equal(factory({ requestIdHeader: '' }).initialConfig.requestIdHeader, false)
    const app = factory({ requestIdHeader: true })
    app.get('/', async (req: any) => req.id)
    assert.equal((await app.inject({ url: '/', headers: { 'request-id': 'given' } })).body, 'given')
    await app.close()
  })

  test(`${name}: the childLoggerFactory option makes request loggers, given a level only when the route sets one`, async () => {
    const seen: unknown[] = []
    const app = factory({
      logger: { level: 'info', stream: { write () {} } },
      childLoggerFactory (logger: any, bindings: any, opts: any) {
        seen.push([typeof bindings.reqId, Object.hasOwn(opts, 'level') ? opts.level : 'inherited'])
        return logger.child(bindings, opts)
      }
    })
    app.get('/', async (req: any) => req.log.level)
    app.get('/warn', { logLevel: 'warn' }, async (req: any) => req.log.level)
    assert.equal((await app.inject({ url: '/' })).body, 'info')
    assert.equal((await app.inject({ url: '/warn' })).body, 'warn')
    assert.deepEqual(seen, [['string', 'inherited'], ['string', 'warn']])
    await app.close()
  })
}

test('trellis (v4 line): requestIdHeader true is refused, as Fastify 4 refuses it', () => {
  assert.throws(() => v4({ requestIdHeader: true }), /requestIdHeader/)
})
