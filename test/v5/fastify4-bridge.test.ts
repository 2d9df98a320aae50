// The Fastify 4 bridge: a Fastify 5 application keeps the Fastify-4 plugins it still needs.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fp from 'fastify-plugin'
import { v4, v5 } from './lines'

function collectWarnings (): { codes: string[], messages: string[], stop: () => void } {
  const codes: string[] = []
  const messages: string[] = []
  const listener = (w: Error & { code?: string }): void => { codes.push(String(w.code)); messages.push(w.message) }
  process.on('warning', listener)
  return { codes, messages, stop: () => { process.off('warning', listener) } }
}

const legacy = fp(async function legacyPlugin (app: any) {
  // Fastify 4 habits: a shared reference decorator, reply.context and request.routerPath in a hook
  app.decorateRequest('legacyBag', { shared: true })
  app.addHook('onSend', async (req: any, reply: any, payload: unknown) => {
    reply.header('x-legacy-route', `${req.routerPath} ${String(reply.context.config.url)}`)
    return payload
  })
}, { name: 'legacy-plugin', fastify: '4.x' })

test('a v5 application loads a plugin that declares fastify 4.x, names it, and serves its Fastify 4 accessors', async () => {
  const warnings = collectWarnings()
  try {
    const app = v5()
    await app.register(legacy)
    app.get('/items/:id', async (req: any) => ({ hostname: req.hostname, bag: req.legacyBag }))
    const res = await app.inject({ url: '/items/1', headers: { host: 'example.com:8080' } })
    assert.equal(res.headers['x-legacy-route'], '/items/:id /items/:id')
    // where the lines disagree, the application's line wins: hostname without the port
    assert.deepEqual(res.json(), { hostname: 'example.com', bag: { shared: true } })
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(warnings.codes.filter((c) => c === 'TRLBRG001').length, 1)
    assert.ok(warnings.messages.some((m) => m.includes("Plugin 'legacy-plugin' declares fastify '4.x'")))
    assert.ok(warnings.messages.some((m) => m.startsWith('request.routerPath is Fastify 4 only') && m.includes('legacy-plugin')))
    assert.ok(warnings.messages.some((m) => m.startsWith('reply.context is Fastify 4 only')))
    assert.equal(app.version, '5.12.8')
    await app.close()
  } finally {
    warnings.stop()
  }
})

test('the bridge carries only its plugin: the application itself stays Fastify 5', async () => {
  const app = v5()
  await app.register(legacy)
  assert.throws(() => app.decorateRequest('appBag', { mine: true }), { code: 'FST_ERR_DEC_REFERENCE_TYPE' })
  app.register(async function mixed (_i: unknown, _o: unknown, done: () => void) { done() })
  await assert.rejects(app.ready(), { code: 'FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER' })
})

test('a plugin whose range admits neither line still fails its version check', async () => {
  const app = v5()
  app.register(fp(async () => {}, { name: 'ancient', fastify: '3.x' }))
  await assert.rejects(app.ready(), { code: 'FST_ERR_PLUGIN_VERSION_MISMATCH' })
})

test('without a bridged plugin a v5 application has no Fastify 4 accessors; a v4 application is unchanged', async () => {
  const app5 = v5()
  app5.get('/', async (req: any, reply: any) => ({ routerPath: req.routerPath ?? null, context: reply.context ?? null }))
  assert.deepEqual((await app5.inject('/')).json(), { routerPath: null, context: null })
  const app4 = v4()
  await app4.register(legacy)
  app4.get('/a', async () => 'ok')
  assert.equal((await app4.inject('/a')).headers['x-legacy-route'], '/a /a')
})
