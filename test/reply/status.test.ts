import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { errorCodes } from '../../src/index'

test('code() and status() set the status; statusCode reads and writes it', async () => {
  const app = trellis()
  app.get('/code', (_req, reply) => { reply.code(201).send({ s: reply.statusCode }) })
  app.get('/status', (_req, reply) => { reply.status(202).send({ s: reply.statusCode }) })
  app.get('/prop', (_req, reply) => { reply.statusCode = 203; reply.send({ s: reply.statusCode }) })
  for (const [url, code] of [['/code', 201], ['/status', 202], ['/prop', 203]] as const) {
    const res = await app.inject(url)
    assert.equal(res.statusCode, code)
    assert.equal(res.json().s, code)
  }
  await app.close()
})

test('invalid status codes throw FST_ERR_BAD_STATUS_CODE (Fastify 4.29 rules: Number(code) in 100..599)', async () => {
  const app = trellis()
  const caught: any[] = []
  app.get('/', (_req, reply) => {
    for (const bad of [99, 600, 1000, 'abc', '200abc', -1, null, undefined, NaN, '', true, 99.9, 599.5]) {
      try { reply.code(bad as number) } catch (err) { caught.push(err) }
    }
    reply.send({ statusCode: reply.statusCode })
  })
  const res = await app.inject('/')
  assert.equal(res.json().statusCode, 200)
  assert.equal(caught.length, 13)
  for (const err of caught) {
    assert.ok(err instanceof errorCodes.FST_ERR_BAD_STATUS_CODE)
    assert.equal(err.code, 'FST_ERR_BAD_STATUS_CODE')
  }
  assert.deepEqual(caught.slice(6, 9).map((e) => e.message), [
    'Called reply with an invalid status code: null',
    'Called reply with an invalid status code: undefined',
    'Called reply with an invalid status code: NaN'
  ])
  await app.close()
})

test('reply.status(null) and status(undefined) answer 500 FST_ERR_BAD_STATUS_CODE; a fraction is cut off; numeric strings count', async () => {
  const app = trellis()
  app.get('/null', (_req, reply) => { reply.status(null as never).send() })
  app.get('/undefined', (_req, reply) => { reply.status(undefined as never).send() })
  app.get('/float', (_req, reply) => { reply.status(404.5).send() })
  app.get('/string', (_req, reply) => { reply.code('201' as never).send({ s: reply.statusCode }) })
  for (const which of ['null', 'undefined']) {
    const res = await app.inject('/' + which)
    assert.equal(res.statusCode, 500)
    assert.deepEqual(res.json(), { statusCode: 500, code: 'FST_ERR_BAD_STATUS_CODE', error: 'Internal Server Error', message: 'Called reply with an invalid status code: ' + which })
  }
  assert.equal((await app.inject('/float')).statusCode, 404)
  const str = await app.inject('/string')
  assert.equal(str.statusCode, 201)
  assert.deepEqual(str.json(), { s: 201 })
  await app.close()
})

test('a handler throwing FST_ERR_BAD_STATUS_CODE answers 500 with the code', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.code(1234).send('x') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().code, 'FST_ERR_BAD_STATUS_CODE')
  await app.close()
})

test('redirect(url) defaults to 302, redirect(url, code) (4.29), redirect(code, url) (deprecated) and code().redirect(url)', async () => {
  const app = trellis()
  app.get('/a', (_req, reply) => { reply.redirect('/target') })
  app.get('/b', (_req, reply) => { reply.redirect(301, '/perm') })
  app.get('/c', (_req, reply) => { reply.code(307).redirect('/temp') })
  app.get('/d', (_req, reply) => { reply.redirect('/moved', 308) })
  app.get('/e', (_req, reply) => { reply.code(307).redirect('/moved', 301) })
  const d = await app.inject('/d')
  assert.equal(d.statusCode, 308)
  assert.equal(d.headers.location, '/moved')
  assert.equal((await app.inject('/e')).statusCode, 301)
  const a = await app.inject('/a')
  assert.equal(a.statusCode, 302)
  assert.equal(a.headers.location, '/target')
  const b = await app.inject('/b')
  assert.equal(b.statusCode, 301)
  assert.equal(b.headers.location, '/perm')
  const c = await app.inject('/c')
  assert.equal(c.statusCode, 307)
  assert.equal(c.headers.location, '/temp')
  await app.close()
})

test('reply.sent is false before send, true after; setting it to anything but true throws', async () => {
  const app = trellis()
  const states: boolean[] = []
  let setError: any
  app.get('/', (_req, reply) => {
    states.push(reply.sent)
    try { reply.sent = false } catch (err) { setError = err }
    reply.send('x')
    states.push(reply.sent)
  })
  await app.inject('/')
  assert.deepEqual(states, [false, true])
  assert.equal(setError.code, 'FST_ERR_REP_SENT_VALUE')
  await app.close()
})

test('getResponseTime (deprecated alias of elapsedTime) grows while handling and is fixed after the response', async () => {
  const app = trellis()
  let during = -1
  let replyRef: any
  app.get('/', async (_req, reply) => {
    replyRef = reply
    await new Promise((resolve) => setTimeout(resolve, 20))
    during = reply.getResponseTime()
    return 'x'
  })
  await app.inject('/')
  assert.ok(during >= 15, String(during))
  const after1 = replyRef.getResponseTime()
  await new Promise((resolve) => setTimeout(resolve, 10))
  assert.equal(replyRef.getResponseTime(), after1)
  await app.close()
})

test('reply.raw is the node ServerResponse; reply.request is the request; reply.server the instance', async () => {
  const app = trellis()
  app.get('/', function (req, reply) {
    reply.send({ raw: typeof reply.raw.writeHead, sameReq: reply.request === req, sameServer: reply.server === this })
  })
  assert.deepEqual((await app.inject('/')).json(), { raw: 'function', sameReq: true, sameServer: true })
  await app.close()
})

test('await reply waits for the response to be written', async () => {
  const app = trellis()
  let finishedBeforeAwaitEnded = false
  app.get('/', async (_req, reply) => {
    setTimeout(() => reply.send('done'), 5)
    await reply
    finishedBeforeAwaitEnded = reply.raw.writableFinished || reply.raw.writableEnded
  })
  assert.equal((await app.inject('/')).body, 'done')
  assert.equal(finishedBeforeAwaitEnded, true)
  await app.close()
})
