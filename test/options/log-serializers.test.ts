import { test } from 'node:test'
import assert from 'node:assert/strict'
import pino from 'pino'
import trellis from '../../src/index'
import { logCollector } from '../helpers'

test('register logSerializers apply to the plugin routes request logs, merged down the tree and with route ones', async () => {
  const { stream, lines } = logCollector()
  const app = trellis({ logger: pino({ level: 'info' }, stream) as never })
  app.register(async (outer) => {
    outer.get('/outer', async (req) => { req.log.info({ a: 'v', b: 'v' }, 'outer'); return 'x' })
    outer.register(async (inner) => {
      inner.get('/inner', { logSerializers: { b: (v: string) => 'R' + v } }, async (req) => { req.log.info({ a: 'v', b: 'v' }, 'inner'); return 'x' })
    }, { logSerializers: { b: (v: string) => 'B' + v } })
  }, { logSerializers: { a: (v: string) => 'A' + v } })
  app.get('/root', async (req) => { req.log.info({ a: 'v' }, 'root'); return 'x' })
  await app.inject('/outer')
  await app.inject('/inner')
  await app.inject('/root')
  await app.close()
  const byMsg = (msg: string): Record<string, unknown> | undefined => lines.find((l) => l.msg === msg)
  assert.equal(byMsg('outer')?.a, 'Av')
  assert.equal(byMsg('outer')?.b, 'v')
  assert.equal(byMsg('inner')?.a, 'Av')
  assert.equal(byMsg('inner')?.b, 'Rv')
  assert.equal(byMsg('root')?.a, 'v')
})

test('an application pino instance keeps its serializers; request lines get the default ones it lacks', async () => {
  const { stream, lines } = logCollector()
  const logger = pino({ level: 'info', serializers: { req: (req: { url: string }) => ({ url: req.url }) } }, stream)
  const app = trellis({ logger: logger as never })
  app.get('/foo', async () => 'x')
  await app.inject('/foo')
  await app.close()
  const incoming = lines.find((l) => l.msg === 'incoming request')
  const completed = lines.find((l) => l.msg === 'request completed')
  assert.deepEqual(incoming?.req, { url: '/foo' })
  assert.deepEqual(completed?.res, { statusCode: 200 })
})
