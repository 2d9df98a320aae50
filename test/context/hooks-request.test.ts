import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import trellis from '../../src/index'
import { logCollector } from '../helpers'

const lifecycle = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse'] as const

/** Waits until onResponse hooks (which run after the response was written) have had their turn. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20))

function asyncHook (name: string, log: string[], label = name): (...args: any[]) => Promise<void> {
  if (name === 'preParsing' || name === 'preSerialization' || name === 'onSend') {
    return async (_req: any, _reply: any, value: any) => { log.push(label); return value }
  }
  return async (_req: any, _reply: any) => { log.push(label) }
}

function callbackHook (name: string, log: string[], label = name): (...args: any[]) => void {
  if (name === 'preParsing' || name === 'preSerialization' || name === 'onSend') {
    return (_req: any, _reply: any, value: any, done: (err: null, v: unknown) => void) => { log.push(label); done(null, value) }
  }
  return (_req: any, _reply: any, done: () => void) => { log.push(label); done() }
}

for (const [style, make] of [['async', asyncHook], ['callback', callbackHook]] as const) {
  test(`${style} hooks run in lifecycle order around the handler`, async () => {
    const app: any = trellis()
    const log: string[] = []
    for (const name of lifecycle) app.addHook(name, make(name, log))
    app.post('/', { schema: { body: { type: 'object' } } }, async (req: any) => { log.push('handler'); return { got: req.body } })
    await app.ready()
    const res = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })
    await settle()
    assert.deepEqual(res.json(), { got: { a: 1 } })
    assert.deepEqual(log, ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'preSerialization', 'onSend', 'onResponse'])
  })

  test(`${style} hooks: app hooks run before route-level hooks, in registration order`, async () => {
    const app: any = trellis()
    const log: string[] = []
    for (const name of lifecycle) {
      app.addHook(name, make(name, log, 'app1 ' + name))
      app.addHook(name, make(name, log, 'app2 ' + name))
    }
    const routeHooks: Record<string, unknown> = {}
    for (const name of lifecycle) routeHooks[name] = [make(name, log, 'route1 ' + name), make(name, log, 'route2 ' + name)]
    app.get('/', routeHooks, async () => { log.push('handler'); return { ok: true } })
    await app.ready()
    await app.inject('/')
    await settle()
    const expected: string[] = []
    for (const name of lifecycle) {
      if (name === 'preSerialization') expected.push('handler')
      expected.push('app1 ' + name, 'app2 ' + name, 'route1 ' + name, 'route2 ' + name)
    }
    assert.deepEqual(log, expected)
  })
}

test('a route-level hook may be a single function', async () => {
  const app: any = trellis()
  app.get('/', { preHandler: async (_req: any, reply: any) => { reply.header('x-pre', 'yes') } }, async () => 'ok')
  await app.ready()
  assert.equal((await app.inject('/')).headers['x-pre'], 'yes')
})

test('route-level hooks must be functions', () => {
  const app: any = trellis()
  assert.throws(() => app.get('/', { onRequest: 'nope' }, async () => 'ok'), /onRequest hook should be a function/)
})

test('hooks are called with the context instance as this', async () => {
  const app: any = trellis()
  let childInstance: unknown
  const seen: unknown[] = []
  app.register(async (child: any) => {
    childInstance = child
    child.addHook('onRequest', async function (this: unknown) { seen.push(this) })
    child.get('/', async () => 'ok')
  })
  await app.ready()
  await app.inject('/')
  assert.equal(seen.length, 1)
  assert.equal(seen[0], childInstance)
})

// ---------------------------------------------------------------- encapsulation

test('child hooks do not run for parent or sibling routes; parent hooks run for child routes, first', async () => {
  const app: any = trellis()
  const log: string[] = []
  app.addHook('preHandler', async () => { log.push('root') })
  app.get('/root', async () => 'r')
  app.register(async (child: any) => {
    child.addHook('preHandler', async () => { log.push('child') })
    child.get('/child', async () => 'c')
    child.register(async (grandchild: any) => {
      grandchild.addHook('preHandler', async () => { log.push('grandchild') })
      grandchild.get('/grandchild', async () => 'g')
    })
  })
  app.register(async (sibling: any) => { sibling.get('/sibling', async () => 's') })
  await app.ready()
  const run = async (url: string): Promise<string[]> => { log.length = 0; await app.inject(url); return log.slice() }
  assert.deepEqual(await run('/root'), ['root'])
  assert.deepEqual(await run('/child'), ['root', 'child'])
  assert.deepEqual(await run('/grandchild'), ['root', 'child', 'grandchild'])
  assert.deepEqual(await run('/sibling'), ['root'])
})

test('a hook added to the parent after a child loaded (await register) still runs for the child\'s routes', async () => {
  const app: any = trellis()
  const log: string[] = []
  await app.register(async (child: any) => { child.get('/child', async () => 'c') })
  app.addHook('onRequest', async () => { log.push('late parent hook') })
  await app.ready()
  await app.inject('/child')
  assert.deepEqual(log, ['late parent hook'])
})

test('a parent hook added after register() runs after the child\'s own hooks (Fastify queue order)', async () => {
  const app: any = trellis()
  const log: string[] = []
  app.register(async (child: any) => {
    child.addHook('onRequest', async () => { log.push('child') })
    child.get('/child', async () => 'c')
  })
  app.addHook('onRequest', async () => { log.push('parent') })
  await app.ready()
  await app.inject('/child')
  assert.deepEqual(log, ['child', 'parent'])
})

test('hooks added to the parent after a route was declared still apply to that route', async () => {
  const app: any = trellis()
  app.get('/', async () => 'ok')
  app.addHook('onSend', async (_req: any, reply: any, payload: unknown) => { reply.header('x-late', '1'); return payload })
  await app.ready()
  assert.equal((await app.inject('/')).headers['x-late'], '1')
})

// ---------------------------------------------------------------- stopping the chain

// Fastify's documented pattern for async hooks that answer early: `reply.send(...); return reply`.
for (const name of ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const) {
  test(`an async ${name} hook that sends and returns the reply stops the chain; onSend and onResponse still run`, async () => {
    const app: any = trellis()
    const log: string[] = []
    for (const n of lifecycle) {
      if (n === name) app.addHook(n, async (_req: any, reply: any) => { log.push(n); reply.code(203).send({ early: n }); return reply })
      else app.addHook(n, asyncHook(n, log))
    }
    app.addHook(name, async () => { log.push('second ' + name) })
    app.get('/', async () => { log.push('handler'); return 'handler' })
    await app.ready()
    const res = await app.inject('/')
    await settle()
    assert.equal(res.statusCode, 203)
    assert.deepEqual(res.json(), { early: name })
    const stoppedAt = lifecycle.indexOf(name)
    assert.deepEqual(log, [...lifecycle.slice(0, stoppedAt + 1), 'preSerialization', 'onSend', 'onResponse'])
  })

  test(`an async ${name} hook that sends without returning the reply: the handler does not run`, async () => {
    const app: any = trellis()
    let handled = false
    app.addHook(name, async (_req: any, reply: any) => { reply.code(203).send({ early: name }) })
    app.get('/', async () => { handled = true; return 'handler' })
    await app.ready()
    const res = await app.inject('/')
    assert.equal(res.statusCode, 203)
    assert.deepEqual(res.json(), { early: name })
    assert.equal(handled, false)
  })
}

test('an async hook may return the reply and send it later, outside the promise chain', async () => {
  const app: any = trellis()
  let handled = false
  app.addHook('preHandler', async (_req: any, reply: any) => {
    setTimeout(() => reply.code(202).send('later'), 10)
    return reply
  })
  app.get('/', async () => { handled = true; return 'handler' })
  await app.ready()
  const res = await app.inject('/')
  assert.equal(res.statusCode, 202)
  assert.equal(res.body, 'later')
  assert.equal(handled, false)
})

test('a callback-style onRequest hook that sends without calling done stops the chain', async () => {
  const app: any = trellis()
  let handled = false
  app.addHook('onRequest', (_req: any, reply: any, _done: unknown) => { reply.code(401).send('no') })
  app.get('/', async () => { handled = true; return 'yes' })
  await app.ready()
  const res = await app.inject('/')
  assert.equal(res.statusCode, 401)
  assert.equal(res.body, 'no')
  assert.equal(handled, false)
})

// ---------------------------------------------------------------- errors

for (const name of ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend'] as const) {
  for (const style of ['throw', 'done(err)'] as const) {
    test(`an error in a ${name} hook (${style}) reaches the error handler`, async () => {
      const app: any = trellis()
      let handled = 0
      const fail = (): Error => Object.assign(new Error(`${name} failed`), { statusCode: 422 })
      const valueHook = name === 'preParsing' || name === 'preSerialization' || name === 'onSend'
      app.addHook(name, style === 'throw'
        ? async () => { throw fail() }
        : valueHook ? (_r: any, _p: any, _v: any, done: any) => done(fail()) : (_r: any, _p: any, done: any) => done(fail()))
      app.setErrorHandler((err: Error, _req: any, reply: any) => { handled++; reply.code(err.message === `${name} failed` ? 499 : 500).send({ caught: err.message }) })
      app.get('/', async () => ({ ok: true }))
      await app.ready()
      const res = await app.inject('/')
      if (name === 'preSerialization' || name === 'onSend') {
        // the error handler's reply goes through the same hook, which fails again: the next (default)
        // error handler answers with the error's own status, as in Fastify 4.3
        assert.equal(handled, 1)
        assert.equal(res.statusCode, 422)
        assert.match(res.body, new RegExp(`${name} failed`))
      } else {
        assert.equal(res.statusCode, 499)
        assert.deepEqual(res.json(), { caught: `${name} failed` })
        assert.equal(handled, 1)
      }
    })
  }
}

test('without an error handler, a hook error gives the default error payload with its status', async () => {
  const app: any = trellis()
  app.addHook('preHandler', async () => { throw Object.assign(new Error('forbidden here'), { statusCode: 403 }) })
  app.get('/', async () => 'ok')
  await app.ready()
  const res = await app.inject('/')
  assert.equal(res.statusCode, 403)
  assert.deepEqual(res.json(), { statusCode: 403, error: 'Forbidden', message: 'forbidden here' })
})

test('onError hooks see the error before the error handler, and cannot change the response', async () => {
  const app: any = trellis()
  const log: string[] = []
  app.addHook('onError', async (_req: any, _reply: any, err: Error) => { log.push('onError async: ' + err.message) })
  app.addHook('onError', (_req: any, _reply: any, err: Error, done: () => void) => { log.push('onError cb: ' + err.message); done() })
  app.setErrorHandler((err: Error, _req: any, reply: any) => { log.push('handler: ' + err.message); reply.code(500).send({ m: err.message }) })
  app.get('/', async () => { throw new Error('bad') })
  app.get('/fine', async () => 'fine')
  await app.ready()
  const res = await app.inject('/')
  assert.deepEqual(log, ['onError async: bad', 'onError cb: bad', 'handler: bad'])
  assert.deepEqual(res.json(), { m: 'bad' })
  log.length = 0
  await app.inject('/fine')
  assert.deepEqual(log, [])
})

test('onError hooks are encapsulated', async () => {
  const app: any = trellis()
  const log: string[] = []
  app.register(async (child: any) => {
    child.addHook('onError', async () => { log.push('child onError') })
    child.get('/child', async () => { throw new Error('x') })
  })
  app.get('/root', async () => { throw new Error('y') })
  await app.ready()
  await app.inject('/root')
  assert.deepEqual(log, [])
  await app.inject('/child')
  assert.deepEqual(log, ['child onError'])
})

// ---------------------------------------------------------------- changing values

test('onSend can replace the payload (async return and done(null, value))', async () => {
  const app: any = trellis()
  app.addHook('onSend', async (_req: any, _reply: any, payload: string) => payload.replace('world', 'there'))
  app.addHook('onSend', (_req: any, _reply: any, payload: string, done: any) => done(null, payload + '!'))
  app.get('/', async () => ({ hello: 'world' }))
  await app.ready()
  const res = await app.inject('/')
  assert.equal(res.body, '{"hello":"there"}!')
  assert.equal(res.headers['content-length'], String(res.body.length))
})

test('an async onSend that resolves undefined keeps the payload', async () => {
  const app: any = trellis()
  app.addHook('onSend', async () => {})
  app.get('/', async () => ({ kept: true }))
  await app.ready()
  assert.deepEqual((await app.inject('/')).json(), { kept: true })
})

test('onSend receives the serialized string payload', async () => {
  const app: any = trellis()
  let seen: unknown
  app.addHook('onSend', async (_req: any, _reply: any, payload: unknown) => { seen = payload })
  app.get('/', async () => ({ a: 1 }))
  await app.ready()
  await app.inject('/')
  assert.equal(seen, '{"a":1}')
})

test('preSerialization can change the object before it is serialized; it is skipped for strings', async () => {
  const app: any = trellis()
  let calls = 0
  app.addHook('preSerialization', async (_req: any, _reply: any, payload: any) => { calls++; return { ...payload, added: true } })
  app.addHook('preSerialization', (_req: any, _reply: any, payload: any, done: any) => { calls++; done(null, { wrapped: payload }) })
  app.get('/obj', async () => ({ a: 1 }))
  app.get('/str', async () => 'plain')
  await app.ready()
  assert.deepEqual((await app.inject('/obj')).json(), { wrapped: { a: 1, added: true } })
  assert.equal(calls, 2)
  assert.equal((await app.inject('/str')).body, 'plain')
  assert.equal(calls, 2)
})

test('preSerialization output goes through the response schema', async () => {
  const app: any = trellis()
  app.addHook('preSerialization', async (_req: any, _reply: any, payload: any) => ({ ...payload, secret: 's', extra: 'e' }))
  app.get('/', { schema: { response: { 200: { type: 'object', properties: { a: { type: 'number' }, extra: { type: 'string' } } } } } }, async () => ({ a: 1 }))
  await app.ready()
  assert.deepEqual((await app.inject('/')).json(), { a: 1, extra: 'e' })
})

test('preParsing can replace the request payload stream', async () => {
  const app: any = trellis()
  const { Readable } = await import('node:stream')
  app.addHook('preParsing', async (_req: any, _reply: any, _payload: unknown) => {
    const stream: any = Readable.from([Buffer.from('{"replaced":true}')])
    stream.receivedEncodedLength = 17
    return stream
  })
  app.post('/', async (req: any) => req.body)
  await app.ready()
  const res = await app.inject({ method: 'POST', url: '/', payload: { original: true } })
  assert.deepEqual(res.json(), { replaced: true })
})

test('onResponse runs after the response is sent, with the final status', async () => {
  const app: any = trellis()
  const done = new Promise<number>((resolve) => {
    app.addHook('onResponse', async (_req: any, reply: any) => { resolve(reply.statusCode) })
  })
  app.get('/', async (_req: any, reply: any) => { reply.code(202); return 'ok' })
  await app.ready()
  const res = await app.inject('/')
  assert.equal(res.statusCode, 202)
  assert.equal(await done, 202)
})

test('an error in onResponse is logged, not sent', async () => {
  const app: any = trellis()
  app.addHook('onResponse', async () => { throw new Error('after the fact') })
  app.get('/', async () => 'ok')
  await app.ready()
  const res = await app.inject('/')
  await settle()
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, 'ok')
})

test('a non-Error value thrown by a hook reaches the error handler as it is (a string is the 500 payload)', async () => {
  const app: any = trellis()
  app.addHook('preValidation', async () => { throw 'this is an error' }) // eslint-disable-line no-throw-literal
  app.get('/', () => { throw new Error('the handler must not run') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.equal(res.body, 'this is an error')
  const seen: unknown[] = []
  const custom: any = trellis()
  custom.addHook('onRequest', (_req: any, _reply: any, done: (err: unknown) => void) => { done('plain') })
  custom.setErrorHandler((err: unknown, _req: any, reply: any) => { seen.push(err); reply.code(418).send({ ok: false }) })
  custom.get('/', async () => 'never')
  const res2 = await custom.inject('/')
  assert.equal(res2.statusCode, 418)
  assert.deepEqual(seen, ['plain'])
})

test('an error thrown by a hook after it hijacked the reply is dropped: no later hook, no error handler, no log', async () => {
  const { stream, lines } = logCollector()
  const app: any = trellis({ logger: { level: 'info', stream } })
  const log: string[] = []
  app.addHook('preValidation', async (_req: any, reply: any) => {
    reply.hijack()
    reply.raw.end('hijacked')
    throw new Error('This will be skipped')
  })
  app.addHook('preHandler', async () => { log.push('preHandler') })
  app.setErrorHandler(() => { log.push('error handler') })
  app.get('/', () => { log.push('handler') })
  const res = await app.inject('/')
  await settle()
  assert.equal(res.body, 'hijacked')
  assert.deepEqual(log, [])
  assert.deepEqual(lines.filter((l: any) => l.level >= 40), [])
})

test('a failing onResponse hook stops the later onResponse hooks and logs the request as errored', async () => {
  const { stream, lines } = logCollector()
  const app: any = trellis({ logger: { level: 'error', stream } })
  const log: string[] = []
  app.addHook('onResponse', (_req: any, _reply: any, done: (err?: Error) => void) => { log.push('first'); done(new Error('kaboom')) })
  app.addHook('onResponse', async () => { log.push('second') })
  app.get('/', async () => 'ok')
  const res = await app.inject('/')
  await settle()
  assert.equal(res.statusCode, 200)
  assert.deepEqual(log, ['first'])
  const errored = lines.find((l: any) => l.msg === 'request errored')
  assert.ok(errored !== undefined)
  assert.equal(errored.level, 50)
  assert.equal(errored.err.message, 'kaboom')
})

test('onTimeout runs when the socket times out (connectionTimeout), over a real socket', async () => {
  const app: any = trellis({ connectionTimeout: 100 })
  const timedOut = new Promise<string>((resolve) => {
    app.addHook('onTimeout', async (req: any) => { resolve(req.url) })
  })
  app.get('/slow', async () => { await new Promise((resolve) => setTimeout(resolve, 1000)); return 'late' })
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const { port } = app.server.address()
    const req = http.get({ host: '127.0.0.1', port, path: '/slow', agent: false })
    req.on('error', () => {})
    assert.equal(await timedOut, '/slow')
    req.destroy()
  } finally {
    await app.close()
  }
})

// ---------------------------------------------------------------- registration checks

test('invalid hook names and handlers are refused', () => {
  const app: any = trellis()
  assert.throws(() => app.addHook('onNothing', async () => {}), { code: 'FST_ERR_HOOK_NOT_SUPPORTED' })
  assert.throws(() => app.addHook('onRequest', 'nope'), { code: 'FST_ERR_HOOK_INVALID_HANDLER' })
  assert.throws(() => app.addHook('onRequest'), { code: 'FST_ERR_HOOK_INVALID_HANDLER' })
  assert.throws(() => app.addHook(42, async () => {}), { code: 'FST_ERR_HOOK_INVALID_TYPE' })
})

test('an async hook that also takes done is refused', () => {
  const app: any = trellis()
  const message = /Async function has too many arguments. Async hooks should not use the 'done' argument./
  assert.throws(() => app.addHook('onRequest', async (_a: any, _b: any, _done: any) => {}), message)
  assert.throws(() => app.addHook('preHandler', async (_a: any, _b: any, _done: any) => {}), message)
  assert.throws(() => app.addHook('onResponse', async (_a: any, _b: any, _done: any) => {}), message)
  assert.throws(() => app.addHook('onSend', async (_a: any, _b: any, _c: any, _done: any) => {}), message)
  assert.throws(() => app.addHook('preSerialization', async (_a: any, _b: any, _c: any, _done: any) => {}), message)
  assert.throws(() => app.addHook('onError', async (_a: any, _b: any, _c: any, _done: any) => {}), message)
  assert.throws(() => app.addHook('preParsing', async (_a: any, _b: any, _c: any, _done: any) => {}), message)
  // the value hooks with three parameters are fine
  app.addHook('onSend', async (_a: any, _b: any, payload: any) => payload)
})

test('request hooks cannot be added after start', async () => {
  const app: any = trellis()
  await app.ready()
  assert.throws(() => app.addHook('onRequest', async () => {}))
})
