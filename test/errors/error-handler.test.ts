import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { errorCodes } from '../../src/index'
import { noStack } from '../helpers'

test('default error payload: { statusCode, error, message } and code when the error has one', async () => {
  const app = trellis()
  app.get('/plain', async () => { throw new Error('plain failure') })
  app.get('/coded', async () => { throw Object.assign(new Error('coded failure'), { code: 'E_MINE', statusCode: 409 }) })
  const plain = await app.inject('/plain')
  assert.equal(plain.statusCode, 500)
  assert.equal(plain.headers['content-type'], 'application/json; charset=utf-8')
  assert.deepEqual(plain.json(), { statusCode: 500, error: 'Internal Server Error', message: 'plain failure' })
  const coded = await app.inject('/coded')
  assert.equal(coded.statusCode, 409)
  assert.deepEqual(coded.json(), { statusCode: 409, code: 'E_MINE', error: 'Conflict', message: 'coded failure' })
  await app.close()
})

test('error.status is honoured like statusCode; out-of-range codes become 500', async () => {
  const app = trellis()
  app.get('/status', async () => { throw Object.assign(new Error('s'), { status: 403 }) })
  app.get('/weird', async () => { throw Object.assign(new Error('w'), { statusCode: 200 }) })
  app.get('/huge', async () => { throw Object.assign(new Error('h'), { statusCode: 999 }) })
  assert.equal((await app.inject('/status')).statusCode, 403)
  assert.equal((await app.inject('/weird')).statusCode, 500)
  assert.equal((await app.inject('/huge')).statusCode, 500)
  await app.close()
})

test('a status code set on the reply before the error is kept when >= 400', async () => {
  const app = trellis()
  app.get('/', async (_req, reply) => { reply.code(422); throw new Error('unprocessable') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 422)
  assert.equal(res.json().error, 'Unprocessable Entity')
  await app.close()
})

test('error headers are set on the response', async () => {
  const app = trellis()
  app.get('/', async () => { throw Object.assign(new Error('limited'), { statusCode: 429, headers: { 'retry-after': '10', 'x-reason': 'rate' } }) })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 429)
  assert.equal(res.headers['retry-after'], '10')
  assert.equal(res.headers['x-reason'], 'rate')
  await app.close()
})

test('a thrown non-Error value answers 500 without crashing (4.3: the value is the payload)', async () => {
  const app = trellis()
  app.get('/string', async () => { throw 'just a string' }) // eslint-disable-line no-throw-literal
  app.get('/object', async () => { throw { statusCode: 418, message: 'object thrown' } }) // eslint-disable-line no-throw-literal
  app.get('/null', async () => { throw null }) // eslint-disable-line no-throw-literal
  app.get('/sync', () => { throw 42 }) // eslint-disable-line no-throw-literal
  const str = await app.inject('/string')
  assert.equal(str.statusCode, 500)
  assert.equal(str.body, 'just a string')
  const num = await app.inject('/sync')
  assert.equal(num.statusCode, 500)
  assert.equal(num.body, '42')
  const nul = await app.inject('/null')
  assert.equal(nul.statusCode, 500)
  assert.deepEqual(nul.json(), { statusCode: 500, code: 'FST_ERR_SEND_UNDEFINED_ERR', error: 'Internal Server Error', message: 'Undefined error has occurred' })
  const obj = await app.inject('/object')
  assert.equal(obj.statusCode, 418)
  assert.equal(obj.json().message, 'object thrown')
  const after = await app.inject('/string')
  assert.equal(after.statusCode, 500)
  await app.close()
})

test('no stack trace in any error response body', async () => {
  const app = trellis()
  app.get('/throw', async () => { throw new Error('with stack') })
  app.get('/sync', () => { throw new TypeError('sync type error') })
  app.get('/send', (_req, reply) => { reply.send(new RangeError('sent')) })
  app.get('/framework', (_req, reply) => { reply.code(7) })
  app.get('/hook', { onRequest: async () => { throw new Error('hook') } } as never, async () => 'x')
  app.get('/handler-error-handler', { errorHandler: () => { throw new Error('handler of handler') } }, async () => { throw new Error('first') })
  app.get('/stack-prop', async () => { const e: any = new Error('has stack prop'); e.statusCode = 400; e.details = e.stack; return Promise.reject(e) })
  app.post('/parse', async () => 'x')
  const responses = [
    await app.inject('/throw'),
    await app.inject('/sync'),
    await app.inject('/send'),
    await app.inject('/framework'),
    await app.inject('/hook'),
    await app.inject('/handler-error-handler'),
    await app.inject('/stack-prop'),
    await app.inject({ method: 'POST', url: '/parse', payload: '{bad', headers: { 'content-type': 'application/json' } }),
    await app.inject('/%zz')
  ]
  for (const res of responses) {
    assert.ok(res.statusCode >= 400, res.body)
    assert.ok(noStack(res.body), res.body)
    assert.doesNotThrow(() => JSON.parse(res.body))
  }
  await app.close()
})

test('setErrorHandler receives (error, request, reply) with this = instance', async () => {
  const app = trellis()
  app.setErrorHandler(function (error, request, reply) {
    reply.code(503).send({ handled: error.message, url: request.url, isApp: this === app })
  })
  app.get('/', async () => { throw new Error('boom') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 503)
  assert.deepEqual(res.json(), { handled: 'boom', url: '/', isApp: true })
  await app.close()
})

test('an async error handler may return the payload', async () => {
  const app = trellis()
  app.setErrorHandler(async (error, _req, reply) => { reply.code(400); return { returned: error.message } })
  app.get('/', async () => { throw new Error('oops') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 400)
  assert.deepEqual(res.json(), { returned: 'oops' })
  await app.close()
})

test('error handlers are encapsulated: children use their own, parents and siblings keep theirs', async () => {
  const app = trellis()
  app.setErrorHandler((_e, _r, reply) => { reply.code(500).send({ by: 'root' }) })
  app.register(async (child) => {
    child.setErrorHandler((_e, _r, reply) => { reply.code(500).send({ by: 'child' }) })
    child.get('/child', async () => { throw new Error('x') })
    child.register(async (grandchild) => {
      grandchild.get('/grandchild', async () => { throw new Error('x') })
    })
  })
  app.register(async (sibling) => { sibling.get('/sibling', async () => { throw new Error('x') }) })
  app.get('/root', async () => { throw new Error('x') })
  assert.deepEqual((await app.inject('/child')).json(), { by: 'child' })
  assert.deepEqual((await app.inject('/grandchild')).json(), { by: 'child' })
  assert.deepEqual((await app.inject('/sibling')).json(), { by: 'root' })
  assert.deepEqual((await app.inject('/root')).json(), { by: 'root' })
  await app.close()
})

test('an error thrown by a child error handler goes to its parent error handler', async () => {
  const app = trellis()
  app.setErrorHandler((error, _r, reply) => { reply.code(502).send({ parentGot: error.message }) })
  app.register(async (child) => {
    child.setErrorHandler(async (error) => { throw new Error(`rethrown: ${error.message}`) })
    child.get('/', async () => { throw new Error('original') })
  })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 502)
  assert.deepEqual(res.json(), { parentGot: 'rethrown: original' })
  await app.close()
})

test('reply.send(error) inside an error handler goes to the parent handler; the root falls back to the default payload', async () => {
  const app = trellis()
  app.setErrorHandler((error, _r, reply) => { reply.send(new Error(`root saw ${error.message}`)) })
  app.get('/', async () => { throw new Error('first') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.deepEqual(res.json(), { statusCode: 500, error: 'Internal Server Error', message: 'root saw first' })
  await app.close()
})

test('errors in hooks reach the error handler', async () => {
  for (const hook of ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend'] as const) {
    const app = trellis()
    const seen: string[] = []
    app.setErrorHandler((error, _r, reply) => { seen.push(error.message); reply.code(409).type('text/plain').send(`handled ${error.message}`) })
    app.addHook(hook as 'onRequest', async () => { if (seen.length === 0) throw new Error(hook) })
    app.post('/', async () => ({ ok: true }))
    const res = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })
    assert.equal(res.statusCode, 409, hook)
    assert.equal(res.body, `handled ${hook}`)
    assert.deepEqual(seen, [hook])
    await app.close()
  }
})

test('an error handler payload that fails preSerialization again falls back to the default payload', async () => {
  const app = trellis()
  app.addHook('preSerialization', async () => { throw new Error('always') })
  app.setErrorHandler((error, _r, reply) => { reply.code(409).send({ hook: error.message }) })
  app.get('/', async () => ({ ok: 1 }))
  const res = await app.inject('/')
  assert.equal(res.statusCode, 409)
  assert.deepEqual(res.json(), { statusCode: 409, error: 'Conflict', message: 'always' })
  await app.close()
})

test('callback-style hook errors (done(err)) reach the error handler', async () => {
  const app = trellis()
  app.addHook('preHandler', (_req: unknown, _reply: unknown, done: (e?: Error) => void) => { done(Object.assign(new Error('denied'), { statusCode: 401 })) })
  app.get('/', async () => 'x')
  const res = await app.inject('/')
  assert.equal(res.statusCode, 401)
  assert.equal(res.json().message, 'denied')
  await app.close()
})

test('setErrorHandler after start and with a non-function are refused', async () => {
  const app = trellis()
  assert.throws(() => app.setErrorHandler('x' as never), TypeError)
  await app.ready()
  assert.throws(() => app.setErrorHandler(() => {}))
  await app.close()
})

test('framework errors are instances of errorCodes classes with stable codes', () => {
  for (const [name, Klass] of Object.entries(errorCodes)) {
    const err = new Klass('a', 'b', 'c')
    assert.ok(err instanceof Klass, name)
    assert.ok(err instanceof Error, name)
    assert.equal(err.code, name)
    assert.equal(Klass.code, name)
    assert.equal(typeof err.statusCode, 'number')
    assert.equal(typeof err.message, 'string')
  }
  const called = (errorCodes.FST_ERR_BAD_STATUS_CODE as any)(42)
  assert.ok(called instanceof errorCodes.FST_ERR_BAD_STATUS_CODE)
  assert.equal(called.message, 'Called reply with an invalid status code: 42')
  assert.ok(!(called instanceof errorCodes.FST_ERR_DUPLICATED_ROUTE))
  assert.ok(new errorCodes.FST_ERR_CTP_INVALID_TYPE() instanceof TypeError)
})

test('errors raised by the request path carry their class', async () => {
  const app = trellis({ bodyLimit: 5 })
  const caught: unknown[] = []
  app.setErrorHandler((error, _r, reply) => { caught.push(error); reply.send(error) })
  app.post('/', async () => 'x')
  await app.inject({ method: 'POST', url: '/', payload: 'too large body', headers: { 'content-type': 'text/plain' } })
  await app.inject({ method: 'POST', url: '/', payload: 'x', headers: { 'content-type': 'application/unknown' } })
  assert.ok(caught[0] instanceof errorCodes.FST_ERR_CTP_BODY_TOO_LARGE)
  assert.ok(caught[1] instanceof errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE)
  await app.close()
})

test('a non-string error code is sent as a string (4.3 schema: code is a string)', async () => {
  const app = trellis()
  app.get('/', async () => { throw Object.assign(new Error('numeric'), { code: 42 }) })
  assert.deepEqual((await app.inject('/')).json(), { statusCode: 500, code: '42', error: 'Internal Server Error', message: 'numeric' })
  await app.close()
})
