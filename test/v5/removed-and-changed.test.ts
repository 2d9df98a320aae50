import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import pino from 'pino'
import { v4, v5Targets } from './lines'

function capture (): { lines: any[], stream: Writable } {
  const lines: any[] = []
  const stream = new Writable({ write (chunk, _enc, cb) { lines.push(JSON.parse(String(chunk))); cb() } })
  return { lines, stream }
}

for (const [name, factory] of v5Targets) {
  test(`${name}: version, defaults and initialConfig of the Fastify 5 line`, async () => {
    const app = factory()
    assert.match(app.version, /^5\./)
    assert.equal(app.initialConfig.useSemicolonDelimiter, false)
    assert.equal(app.initialConfig.requestIdHeader, false)
    assert.equal('jsonShorthand' in app.initialConfig, false)
    app.get('/', async (req: any) => ({ query: req.query }))
    app.get('/id', async (req: any) => ({ id: req.id }))
    assert.deepEqual((await app.inject('/?a=1;b=2')).json(), { query: { a: '1;b=2' } })
    // requestIdHeader is off by default: a client's request-id is not taken as the request's id
    assert.notEqual((await app.inject({ url: '/id', headers: { 'request-id': 'from-client' } })).json().id, 'from-client')
    await app.close()
  })

  test(`${name}: loggerInstance takes a logger; logger takes only options`, async () => {
    const { lines, stream } = capture()
    const app = factory({ loggerInstance: pino(stream) })
    app.get('/', async (req: any) => { req.log.info('hello'); return 'ok' })
    await app.inject({ url: '/', headers: { host: 'example.com:81' } })
    assert.ok(lines.some((l) => l.msg === 'hello'))
    const incoming = lines.find((l) => l.msg === 'incoming request')
    assert.equal(incoming.req.host, 'example.com:81')
    assert.throws(() => factory({ logger: pino(stream) }), { code: 'FST_ERR_LOG_INVALID_LOGGER_CONFIG' })
    assert.throws(() => factory({ logger: true, loggerInstance: pino(stream) }), { code: 'FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED' })
    assert.throws(() => factory({ loggerInstance: { info () {} } }), { code: 'FST_ERR_LOG_INVALID_LOGGER' })
    await app.close()
  })

  test(`${name}: the accessors and methods Fastify 5 removed are gone`, async () => {
    const app = factory()
    assert.equal(app.getDefaultRoute, undefined)
    assert.equal(app.setDefaultRoute, undefined)
    app.get('/', function (req: any, reply: any) {
      const seen = {
        routerPath: req.routerPath ?? null,
        routerMethod: req.routerMethod ?? null,
        routeConfig: req.routeConfig ?? null,
        routeSchema: req.routeSchema ?? null,
        connection: req.connection ?? null,
        context: reply.context ?? null,
        getResponseTime: typeof reply.getResponseTime,
        elapsedTime: typeof reply.elapsedTime
      }
      assert.throws(() => { 'use strict'; reply.sent = true }, TypeError)
      reply.send(seen)
    })
    assert.deepEqual((await app.inject('/')).json(), {
      routerPath: null, routerMethod: null, routeConfig: null, routeSchema: null, connection: null, context: null, getResponseTime: 'undefined', elapsedTime: 'number'
    })
    await app.close()
  })

  test(`${name}: reference-type request and reply decorators are refused`, async () => {
    const app = factory()
    assert.throws(() => app.decorateRequest('shared', { a: 1 }), { code: 'FST_ERR_DEC_REFERENCE_TYPE' })
    assert.throws(() => app.decorateReply('list', []), { code: 'FST_ERR_DEC_REFERENCE_TYPE' })
    app.decorateRequest('made', { getter () { return { fresh: true } } })
    app.decorate('config', { instance: 'objects are fine' })
    await app.close()
  })

  test(`${name}: an async plugin that also takes done fails the boot`, async () => {
    const app = factory()
    app.register(async function mixed (_i: unknown, _o: unknown, done: () => void) { done() })
    await assert.rejects(app.ready(), { code: 'FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER' })
  })

  test(`${name}: routes added after listen() is called, before the server has started, are served`, async () => {
    const app = factory()
    const listening = app.listen({ port: 0, host: '127.0.0.1' })
    app.get('/late', async () => 'late')
    // later callbacks of the same turn (promise jobs, nextTick): as test runners schedule tests
    await Promise.resolve()
    await new Promise((resolve) => process.nextTick(resolve))
    app.get('/later', async () => 'later')
    app.addHook('onRequest', async (_req: any, reply: any) => { reply.header('x-hook', 'added late') })
    await listening
    assert.throws(() => app.get('/too-late', () => 'x'), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING' })
    try {
      const res = await fetch(`http://127.0.0.1:${app.server.address().port}/late`)
      assert.equal(await res.text(), 'late')
      const later = await fetch(`http://127.0.0.1:${app.server.address().port}/later`)
      assert.equal(await later.text(), 'later')
      assert.equal(later.headers.get('x-hook'), 'added late')
    } finally {
      await app.close()
    }
  })
}

test('trellis (v4 line): routes added after listen() is called, before the server has started, are served', async () => {
  const app = v4()
  const listening = app.listen({ port: 0, host: '127.0.0.1' })
  await new Promise((resolve) => process.nextTick(resolve))
  app.get('/later', async () => 'later')
  await listening
  try {
    assert.equal(await (await fetch(`http://127.0.0.1:${app.server.address().port}/later`)).text(), 'later')
  } finally {
    await app.close()
  }
})

test('trellis/v5: listen(port) is refused with a clear error', () => {
  const [, trellisV5] = v5Targets[0]
  const app = trellisV5()
  assert.throws(() => app.listen(3000), { code: 'FST_ERR_LISTEN_OPTIONS_INVALID', message: /use listen\(\{ port, host \}\)/ })
})

test('trellis (v4 line): Fastify 4.29 defaults and deprecated forms stay', async () => {
  const app = v4()
  assert.equal(app.version, '4.29.1')
  assert.equal(app.initialConfig.useSemicolonDelimiter, true)
  assert.equal(app.initialConfig.requestIdHeader, 'request-id')
  assert.equal(app.initialConfig.jsonShorthand, true)
  assert.equal(typeof app.getDefaultRoute, 'function')
  app.get('/', function (req: any, reply: any) { reply.send({ path: req.routerPath, rt: typeof reply.getResponseTime }) })
  assert.deepEqual((await app.inject('/')).json(), { path: '/', rt: 'function' })
})
