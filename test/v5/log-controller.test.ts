import { test } from 'node:test'
import assert from 'node:assert/strict'
import { logCollector } from '../helpers'
import * as trellisV5 from '../../src/v5'
import { v4 } from './lines'

const fastify5 = require('fastify')

const targets: Array<[string, any]> = [['trellis/v5', trellisV5], ['fastify@5', fastify5]]

const messages = (lines: Array<Record<string, any>>): string[] => lines.map((l) => l.msg)

for (const [name, mod] of targets) {
  const factory = mod.default ?? mod
  const LogController: new (options?: object) => any = mod.LogController

  test(`${name}: a LogController subclass writes the request lines, with its own id label`, async () => {
    const { stream, lines } = logCollector()
    class Quiet extends LogController {
      incomingRequest (request: any): void { request.log.debug({ req: request }, 'incoming request') }
      routeNotFound (request: any): void { request.log.warn({ url: request.raw.url }, 'nothing here') }
    }
    const app = factory({ logger: { level: 'info', stream }, logController: new Quiet({ requestIdLogLabel: 'traceId' }) })
    app.get('/', async () => 'ok')
    await app.inject({ url: '/' })
    await app.inject({ url: '/missing' })
    assert.deepEqual(messages(lines), ['request completed', 'nothing here', 'request completed'])
    assert.ok(lines.every((l) => typeof l.traceId === 'string' && l.reqId === undefined))
    assert.equal(lines[1].url, '/missing')
    await app.close()
  })

  test(`${name}: disableRequestLogging as a function of the request`, async () => {
    const { stream, lines } = logCollector()
    const app = factory({ logger: { level: 'info', stream }, disableRequestLogging: (req: any) => req.url === '/health' })
    app.get('/health', async () => 'ok')
    app.get('/work', async () => { throw new Error('broken') })
    await app.inject({ url: '/health' })
    await app.inject({ url: '/work' })
    assert.deepEqual(messages(lines), ['incoming request', 'broken', 'request completed'])
    assert.equal(lines.filter((l) => l.req?.url === '/health').length, 0)
    await app.close()
  })

  test(`${name}: isLogDisabled decides every per-request line`, async () => {
    const { stream, lines } = logCollector()
    let asked = 0
    class Off extends LogController {
      isLogDisabled (): boolean { asked++; return true }
    }
    const app = factory({ logger: { level: 'info', stream }, logController: new Off() })
    app.get('/', async () => { throw new Error('broken') })
    await app.inject({ url: '/' })
    await app.inject({ url: '/missing' })
    assert.deepEqual(messages(lines), [])
    assert.ok(asked >= 4, `asked ${asked} times`)
    await app.close()
  })

  test(`${name}: logController must be a LogController`, () => {
    assert.throws(() => factory({ logController: { incomingRequest () {} } }), (err: any) => {
      assert.equal(err.code, 'FST_ERR_LOG_INVALID_LOG_CONTROLLER')
      assert.equal(err.message, "logController option must be an instance of LogController, got 'object'.")
      return true
    })
  })
}

test('trellis (v4 line): disableRequestLogging must be a boolean, as in Fastify 4', () => {
  assert.throws(() => v4({ disableRequestLogging: () => true }), /disableRequestLogging/)
})
