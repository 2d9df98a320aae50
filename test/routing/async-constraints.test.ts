import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, logCollector, request } from '../helpers'

/** A strategy whose value arrives later, through `done` (Fastify 4.29 asynchronous constraints). */
function secretStrategy (derive: (req: any, done: (err: Error | null, value?: string) => void) => void): any {
  return {
    name: 'secret',
    storage () {
      const byValue = new Map<string, unknown>()
      return { get: (v: string) => byValue.get(v) ?? null, set: (v: string, store: unknown) => { byValue.set(v, store) } }
    },
    deriveConstraint: (req: any, _ctx: unknown, done: (err: Error | null, value?: string) => void) => { derive(req, done) },
    validate () {}
  }
}

function withTwoSecrets (options: Record<string, unknown>): any {
  const app: any = trellis(options)
  app.get('/', { constraints: { secret: 'alpha' } }, async () => ({ hello: 'from alpha' }))
  app.get('/', { constraints: { secret: 'beta' } }, async () => ({ hello: 'from beta' }))
  return app
}

test('an asynchronous constraint picks the route once its value arrives (inject and a real socket)', async () => {
  const strategy = secretStrategy((req, done) => { setTimeout(() => done(null, req.headers['x-secret']), 5) })
  const app = withTwoSecrets({ constraints: { secret: strategy } })
  assert.deepEqual((await app.inject({ url: '/', headers: { 'x-secret': 'alpha' } })).json(), { hello: 'from alpha' })
  assert.deepEqual((await app.inject({ url: '/', headers: { 'x-secret': 'beta' } })).json(), { hello: 'from beta' })
  assert.equal((await app.inject({ url: '/', headers: { 'x-secret': 'gamma' } })).statusCode, 404)
  const { port } = await listen(app)
  try {
    const res = await request(port, { headers: { 'x-secret': 'beta' } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(JSON.parse(res.body), { hello: 'from beta' })
    assert.equal((await request(port, { headers: { 'x-secret': 'nope' } })).statusCode, 404)
  } finally {
    await app.close()
  }
})

test('addConstraintStrategy takes an asynchronous strategy too', async () => {
  const app: any = trellis()
  app.addConstraintStrategy(secretStrategy((req, done) => { queueMicrotask(() => done(null, req.headers['x-secret'])) }))
  app.get('/', { constraints: { secret: 'alpha' } }, async () => 'alpha')
  assert.equal((await app.inject({ url: '/', headers: { 'x-secret': 'alpha' } })).body, 'alpha')
  assert.equal((await app.inject('/')).statusCode, 404)
})

test('a failing asynchronous constraint answers 500 "Unexpected error from async constraint", whatever the route', async () => {
  const app = withTwoSecrets({ constraints: { secret: secretStrategy((_req, done) => { done(new Error('kaboom')) }) } })
  app.get('/other', async () => 'unconstrained')
  const expected = { error: 'Internal Server Error', message: 'Unexpected error from async constraint', statusCode: 500 }
  for (const headers of [{ 'x-secret': 'alpha' }, { 'x-secret': 'gamma' }, {}]) {
    const res = await app.inject({ url: '/', headers })
    assert.equal(res.statusCode, 500)
    assert.deepEqual(res.json(), expected)
    assert.doesNotMatch(res.body, /kaboom/)
  }
  assert.equal((await app.inject('/other')).statusCode, 500)
  const { port } = await listen(app)
  try {
    const res = await request(port, { headers: { 'x-secret': 'alpha' } })
    assert.equal(res.statusCode, 500)
    assert.deepEqual(JSON.parse(res.body), expected)
    assert.match(String(res.headers['content-type']), /^application\/json/)
  } finally {
    await app.close()
  }
})

test('frameworkErrors receives FST_ERR_ASYNC_CONSTRAINT with a request that has an id and a request logger', async () => {
  const { stream, lines } = logCollector()
  const seen: any[] = []
  const app = withTwoSecrets({
    constraints: { secret: secretStrategy((_req, done) => { done(new Error('kaboom')) }) },
    genReqId: () => 'REQ-1',
    logger: { stream, level: 'info' },
    frameworkErrors (err: any, req: any, reply: any) {
      seen.push({ code: err.code, message: err.message, id: req.id, httpVersion: req.raw.httpVersion })
      reply.code(503).send(`${err.message} - ${err.code}`)
    }
  })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 503)
  assert.equal(res.body, 'Unexpected error from async constraint - FST_ERR_ASYNC_CONSTRAINT')
  assert.deepEqual(seen, [{ code: 'FST_ERR_ASYNC_CONSTRAINT', message: 'Unexpected error from async constraint', id: 'REQ-1', httpVersion: '1.1' }])
  const incoming = lines.find((l) => l.msg === 'incoming request')
  assert.equal(incoming?.reqId, 'REQ-1')
})

test('frameworkErrors for FST_ERR_ASYNC_CONSTRAINT honours disableRequestLogging', async () => {
  const { stream, lines } = logCollector()
  const app = withTwoSecrets({
    constraints: { secret: secretStrategy((_req, done) => { done(new Error('kaboom')) }) },
    disableRequestLogging: true,
    logger: { stream, level: 'info' },
    frameworkErrors (err: any, _req: any, reply: any) { reply.send(err.code) }
  })
  assert.equal((await app.inject('/')).body, 'FST_ERR_ASYNC_CONSTRAINT')
  assert.deepEqual(lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed'), [])
})
