/**
 * trellis's own plugins (trellis/openapi, trellis/bearer-auth, trellis/otel, and a plugin marked with
 * trellis/plugin for `4.x || 5.x`) declare `fastify: '4.x || 5.x'`: they load on both lines with no
 * bridge (no TRLBRG001, no warning at all) and work, served over inject and a real socket.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import trellisV4 from '../../src/index'
import trellisV5 from '../../src/v5'
import plugin from '../../src/plugin'
import openapi from '../../src/openapi'
import bearerAuth from '../../src/bearer-auth'
import otel from '../../src/otel'
import { kPluginMeta } from '../../src/context/symbols'
import { satisfies } from '../../src/context/version-range'

type Factory = (opts?: object) => any
const lines: Array<[string, Factory]> = [['trellis (v4 line)', trellisV4 as unknown as Factory], ['trellis/v5', trellisV5 as unknown as Factory]]

function collectWarnings (): { warnings: Array<{ code: string, message: string }>, stop: () => void } {
  const warnings: Array<{ code: string, message: string }> = []
  const listener = (w: Error & { code?: string }): void => { warnings.push({ code: String(w.code), message: w.message }) }
  process.on('warning', listener)
  return { warnings, stop: () => { process.off('warning', listener) } }
}

test('the declared range admits the last Fastify 4 and Fastify 5 releases, not 3 or 6', () => {
  for (const fn of [openapi, bearerAuth, otel]) assert.equal((fn as unknown as Record<symbol, { fastify: string }>)[kPluginMeta].fastify, '4.x || 5.x')
  for (const version of ['4.29.1', '4.3.0', '5.0.0', '5.12.8']) assert.equal(satisfies(version, '4.x || 5.x'), true, version)
  for (const version of ['3.29.5', '6.0.0']) assert.equal(satisfies(version, '4.x || 5.x'), false, version)
})

for (const [name, factory] of lines) {
  test(`${name}: openapi, bearer-auth, otel and a '4.x || 5.x' plugin load with no bridge warning and work`, async () => {
    const { warnings, stop } = collectWarnings()
    const exporter = new InMemorySpanExporter()
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
    const app = factory()
    try {
      await app.register(otel, { tracerProvider: provider })
      await app.register(openapi, { routePrefix: '/docs' })
      app.register(plugin(async (instance: any) => { instance.decorate('both', 'lines') }, { fastify: '4.x || 5.x', name: 'both-lines' }))
      app.register(async (api: any) => {
        api.register(bearerAuth, { keys: ['secret-key'] })
        api.get('/me', { schema: { tags: ['me'], response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } } } } } }, async () => ({ ok: true }))
      }, { prefix: '/api' })
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      assert.equal(app.both, 'lines')

      const document = await app.inject('/docs/json')
      assert.equal(document.statusCode, 200)
      assert.ok('/api/me' in document.json().paths)
      assert.equal((await fetch(`${address}/api/me`)).status, 401)
      const allowed = await fetch(`${address}/api/me`, { headers: { authorization: 'Bearer secret-key' } })
      assert.equal(allowed.status, 200)
      assert.deepEqual(await allowed.json(), { ok: true })
      assert.ok(exporter.getFinishedSpans().some((s) => s.name === 'GET /api/me'))

      await new Promise((resolve) => setImmediate(resolve))
      assert.deepEqual(warnings, [])
    } finally {
      stop()
      await app.close()
    }
  })
}

test('trellis/v5: a plugin that declares only \'4.x\' still goes through the bridge (TRLBRG001)', async () => {
  const { warnings, stop } = collectWarnings()
  const app = (trellisV5 as unknown as Factory)()
  try {
    app.register(plugin(async () => {}, { fastify: '4.x', name: 'only-four' }))
    await app.ready()
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(warnings.map((w) => w.code), ['TRLBRG001'])
  } finally {
    stop()
    await app.close()
  }
})
