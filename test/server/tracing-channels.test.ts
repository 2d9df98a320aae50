import { test } from 'node:test'
import assert from 'node:assert/strict'
import diagnosticsChannel from 'node:diagnostics_channel'
import { AsyncLocalStorage } from 'node:async_hooks'
import fastify5 from 'fastify'
import trellis from '../../src/index'
import { listen, request } from '../helpers'

type Message = Record<string, any>
const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const

/** Records `<event>` (and the message) of every event of a tracing channel while `run` runs. */
async function recordChannel (name: string, run: (events: Array<{ event: string, message: Message }>) => Promise<void>): Promise<void> {
  const channel = diagnosticsChannel.tracingChannel(name)
  const events: Array<{ event: string, message: Message }> = []
  const handlers = Object.fromEntries(EVENTS.map((event) => [event, (message: unknown) => { events.push({ event, message: message as Message }) }]))
  channel.subscribe(handlers as never)
  try {
    await run(events)
  } finally {
    channel.unsubscribe(handlers as never)
  }
}

function routes (app: any): void {
  app.get('/sync', (_req: unknown, reply: any) => { reply.send({ ok: 1 }) })
  app.get('/async', async () => ({ ok: 2 }))
  app.get('/throw', () => { throw new Error('thrown') })
  app.get('/reject', async () => { throw Object.assign(new Error('rejected'), { statusCode: 503 }) })
  app.get('/users/:id', { preHandler: (_req: unknown, _reply: unknown, done: (err?: Error) => void) => { done(new Error('no')) } }, () => 'never')
}

// the same assertions run against trellis and against the real Fastify 5 (the channels' author)
for (const [name, factory] of [['trellis', trellis], ['fastify@5', fastify5]] as const) {
  test(`${name}: fastify.request.handler events come in Fastify 5's order, one message per request`, async () => {
    const app = (factory as any)()
    routes(app)
    await app.ready()
    const cases: Array<[string, string[], number]> = [
      ['/sync', ['start', 'end'], 200],
      ['/async', ['start', 'end', 'asyncStart', 'asyncEnd'], 200],
      ['/throw', ['start', 'error', 'end'], 500],
      ['/reject', ['start', 'end', 'error', 'asyncStart', 'asyncEnd'], 503],
      ['/users/7', ['start', 'error', 'end'], 500],
      ['/missing', [], 404]
    ]
    for (const [url, expected, status] of cases) {
      await recordChannel('fastify.request.handler', async (events) => {
        const res = await app.inject({ method: 'GET', url })
        assert.equal(res.statusCode, status, url)
        await new Promise((resolve) => setImmediate(resolve))
        assert.deepEqual(events.map((e) => e.event), expected, url)
        if (expected.length === 0) return
        const message = events[0].message
        assert.ok(events.every((e) => e.message === message), `${url}: one message object for every event`)
        assert.equal(message.request.url, url)
        assert.equal(typeof message.reply.send, 'function')
        assert.equal(message.async, url === '/async' || url === '/reject', `${url}: async`)
        assert.deepEqual(message.route, { url: url === '/users/7' ? '/users/:id' : url, method: 'GET' })
        if (expected.includes('error')) assert.match(message.error.message, /thrown|rejected|no/)
        else assert.equal('error' in message, false)
      })
    }
    await app.close()
  })

  test(`${name}: a store bound to the handler's start channel holds inside the handler`, async () => {
    const store = new AsyncLocalStorage<string>()
    const channel = diagnosticsChannel.tracingChannel('fastify.request.handler')
    channel.start.bindStore(store, (message) => `in ${(message as Message).route.url}`)
    const app = (factory as any)()
    app.get('/store', async () => { await new Promise((resolve) => setImmediate(resolve)); return { seen: store.getStore() } })
    try {
      const res = await app.inject({ method: 'GET', url: '/store' })
      assert.deepEqual(res.json(), { seen: 'in /store' })
    } finally {
      channel.start.unbindStore(store)
      await app.close()
    }
  })
}

test('trellis.request.<phase> channels bracket each phase a request runs, in order, over a socket', async () => {
  const app = trellis()
  app.addHook('onRequest', async () => {})
  app.addHook('preParsing', async (_req, _reply, payload) => payload)
  app.addHook('preValidation', (_req, _reply, done) => { done() })
  app.addHook('preHandler', (_req, _reply, done) => { done() })
  app.addHook('preSerialization', async (_req, _reply, payload) => payload)
  app.addHook('onSend', async (_req, _reply, payload) => payload)
  app.addHook('onResponse', (_req, _reply, done) => { done() })
  app.post('/items/:id', { schema: { body: { type: 'object', properties: { n: { type: 'integer' } } } } }, async (req) => ({ id: (req.params as any).id, body: req.body }))
  const { port } = await listen(app)
  const seen: string[] = []
  const channels = ['routing', 'onRequest', 'preParsing', 'parsing', 'preValidation', 'validation', 'preHandler', 'preSerialization', 'serialization', 'onSend', 'onError', 'write', 'onResponse']
  const subscriptions = channels.map((phase) => {
    const handlers = Object.fromEntries(EVENTS.map((event) => [event, (message: unknown) => {
      seen.push(`${phase}:${event}`)
      if (phase === 'routing' && event === 'end') assert.deepEqual((message as Message).route, { url: '/items/:id', method: 'POST' })
      if (phase !== 'routing') assert.equal((message as Message).phase, phase)
    }]))
    const channel = diagnosticsChannel.tracingChannel(`trellis.request.${phase}`)
    channel.subscribe(handlers as never)
    return () => channel.unsubscribe(handlers as never)
  })
  const requestEvents: string[] = []
  const requestHandlers = Object.fromEntries(EVENTS.map((event) => [event, (message: unknown) => {
    requestEvents.push(event)
    assert.deepEqual((message as Message).route, { url: '/items/:id', method: 'POST' })
  }]))
  diagnosticsChannel.tracingChannel('trellis.request').subscribe(requestHandlers as never)
  try {
    const res = await request(port, { method: 'POST', path: '/items/3', headers: { 'content-type': 'application/json' }, body: '{"n":4}' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(JSON.parse(res.body), { id: '3', body: { n: 4 } })
    await new Promise((resolve) => setTimeout(resolve, 20))
    assert.deepEqual(seen, [
      'routing:start', 'routing:end', 'onRequest:start', 'onRequest:end', 'preParsing:start', 'preParsing:end',
      'parsing:start', 'parsing:end', 'preValidation:start', 'preValidation:end', 'validation:start', 'validation:end',
      'preHandler:start', 'preHandler:end', 'preSerialization:start', 'preSerialization:end',
      'serialization:start', 'serialization:end', 'onSend:start', 'onSend:end', 'write:start', 'write:end',
      'onResponse:start', 'onResponse:end'
    ])
    assert.deepEqual(requestEvents, ['start', 'end'])
  } finally {
    for (const unsubscribe of subscriptions) unsubscribe()
    diagnosticsChannel.tracingChannel('trellis.request').unsubscribe(requestHandlers as never)
    await app.close()
  }
})

test('a failing phase publishes error before end, and the request its error once; onError is a phase', async () => {
  const app = trellis()
  app.addHook('onError', async () => {})
  app.get('/bad', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } } }, () => 'ok')
  const seen: string[] = []
  const subscriptions = ['validation', 'onError', 'write'].map((phase) => {
    const handlers = Object.fromEntries(EVENTS.map((event) => [event, (message: unknown) => {
      seen.push(`${phase}:${event}${(message as Message).error !== undefined ? '!' : ''}`)
    }]))
    const channel = diagnosticsChannel.tracingChannel(`trellis.request.${phase}`)
    channel.subscribe(handlers as never)
    return () => channel.unsubscribe(handlers as never)
  })
  const errors: unknown[] = []
  const onError = (message: unknown): void => { errors.push((message as Message).error) }
  diagnosticsChannel.subscribe('tracing:trellis.request:error', onError)
  try {
    const res = await app.inject({ method: 'GET', url: '/bad?n=x' })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(seen, ['validation:start', 'validation:error!', 'validation:end!', 'onError:start', 'onError:end', 'write:start', 'write:end'])
    assert.equal(errors.length, 1)
    assert.equal((errors[0] as { validation?: unknown }).validation !== undefined, true)
  } finally {
    for (const unsubscribe of subscriptions) unsubscribe()
    diagnosticsChannel.unsubscribe('tracing:trellis.request:error', onError)
    await app.close()
  }
})

test('a 404 is published on trellis.request with no route, and only while something listens', async () => {
  const app = trellis()
  await app.ready()
  const messages: Message[] = []
  const onStart = (message: unknown): void => { messages.push(message as Message) }
  diagnosticsChannel.subscribe('tracing:trellis.request:start', onStart)
  try {
    const res = await app.inject({ method: 'GET', url: '/nowhere' })
    assert.equal(res.statusCode, 404)
    assert.equal(messages.length, 1)
    assert.equal(messages[0].route, null)
    assert.equal(messages[0].request.url, '/nowhere')
  } finally {
    diagnosticsChannel.unsubscribe('tracing:trellis.request:start', onStart)
  }
  await app.inject({ method: 'GET', url: '/nowhere' })
  assert.equal(messages.length, 1, 'nothing is published once the subscriber left')
  await app.close()
})

test('a store bound to trellis.request:start holds in hooks and handler, whenever it is bound or unbound', async () => {
  const app = trellis()
  const store = new AsyncLocalStorage<string>()
  const order: string[] = []
  app.addHook('onRequest', async () => { await new Promise((resolve) => setImmediate(resolve)); order.push(`hook ${store.getStore() ?? 'none'}`) })
  app.post('/echo', async (request: any) => { order.push(`handler ${store.getStore() ?? 'none'}`); return { seen: store.getStore() ?? null, body: request.body } })
  const { port } = await listen(app)
  const channel = diagnosticsChannel.tracingChannel('trellis.request')
  const onStart = (message: unknown): void => { order.push(`start ${(message as Message).route.url}`) }
  channel.start.subscribe(onStart)
  const ask = async (): Promise<unknown> => {
    const res = await request(port, { method: 'POST', path: '/echo', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })
    assert.equal(res.statusCode, 200)
    return JSON.parse(res.body)
  }
  try {
    // a subscriber without a store: published before the request runs, nothing current
    assert.deepEqual(await ask(), { seen: null, body: { a: 1 } })
    assert.deepEqual(order.splice(0), ['start /echo', 'hook none', 'handler none'])
    // a store bound while the server runs: current from the request's start to its handler, across awaits
    channel.start.bindStore(store, (message) => `request ${(message as Message).request.id}`)
    const seen = await ask() as { seen: string }
    assert.match(seen.seen, /^request req-/)
    assert.deepEqual(order.splice(0), ['start /echo', `hook ${seen.seen}`, `handler ${seen.seen}`])
    // unbound again: the subscriber still hears the request, the store is no longer current
    channel.start.unbindStore(store)
    assert.deepEqual(await ask(), { seen: null, body: { a: 1 } })
    assert.deepEqual(order.splice(0), ['start /echo', 'hook none', 'handler none'])
  } finally {
    channel.start.unsubscribe(onStart)
    channel.start.unbindStore(store)
    await app.close()
  }
})

test('a traced request has one route object per route, and its reply times it from the request start', async () => {
  const app = trellis()
  const elapsed: number[] = []
  app.addHook('onResponse', async (_request: unknown, reply: any) => { elapsed.push(reply.elapsedTime) })
  app.get('/slow', async () => { await new Promise((resolve) => setTimeout(resolve, 30)); return { ok: true } })
  const { port } = await listen(app)
  const routes: unknown[] = []
  const onStart = (message: unknown): void => { routes.push((message as Message).route) }
  diagnosticsChannel.subscribe('tracing:trellis.request:start', onStart)
  try {
    for (let i = 0; i < 2; i++) assert.equal((await request(port, { method: 'GET', path: '/slow' })).statusCode, 200)
  } finally {
    diagnosticsChannel.unsubscribe('tracing:trellis.request:start', onStart)
  }
  assert.equal((await request(port, { method: 'GET', path: '/slow' })).statusCode, 200)
  await app.close()
  assert.equal(routes.length, 2)
  assert.deepEqual(routes[0], { url: '/slow', method: 'GET' })
  assert.equal(routes[1], routes[0], 'the route object is the route\'s, not made per request')
  assert.ok(Object.isFrozen(routes[0]), 'shared by the route\'s requests, so nobody changes it for the others')
  // traced (the first two) and untraced (the last) alike: the 30 ms handler is inside the elapsed time
  assert.equal(elapsed.length, 3)
  for (const ms of elapsed) assert.ok(ms >= 29 && ms < 5000, `elapsedTime ${ms}`)
})
