import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { warnings } from '../../src/base/warnings'
import { logCollector } from '../helpers'

/** Collects the process 'warning' events emitted while `fn` runs (and one tick after). */
async function warningsDuring (fn: () => Promise<void>): Promise<Array<{ name: string; code: string; message: string }>> {
  const seen: Array<{ name: string; code: string; message: string }> = []
  const onWarning = (w: any): void => { seen.push({ name: w.name, code: w.code, message: w.message }) }
  process.on('warning', onWarning)
  try {
    await fn()
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.removeListener('warning', onWarning)
  }
  return seen
}

const codes = (list: Array<{ code: string }>): string[] => list.map((w) => w.code)

test('reply.elapsedTime (Fastify 4.29) grows while handling, then stays fixed; reading it warns nothing', async () => {
  const app = trellis()
  let during = -1
  let replyRef: any
  app.get('/', async (_req, reply) => {
    replyRef = reply
    await new Promise((resolve) => setTimeout(resolve, 20))
    during = reply.elapsedTime
    return 'x'
  })
  const seen = await warningsDuring(async () => { await app.inject('/') })
  assert.ok(during >= 15, String(during))
  const after = replyRef.elapsedTime
  assert.ok(after >= during)
  await new Promise((resolve) => setTimeout(resolve, 10))
  assert.equal(replyRef.elapsedTime, after)
  assert.deepEqual(codes(seen), [])
  await app.close()
})

test('reply.getResponseTime() still answers, with FSTDEP020 once per process', async () => {
  warnings.FSTDEP020.emitted = false
  const app = trellis()
  const times: number[] = []
  app.get('/', async (_req, reply) => { times.push(reply.getResponseTime(), reply.getResponseTime()); return 'x' })
  const seen = await warningsDuring(async () => { await app.inject('/'); await app.inject('/') })
  assert.equal(times.length, 4)
  assert.ok(times.every((t) => typeof t === 'number' && t >= 0))
  assert.deepEqual(codes(seen), ['FSTDEP020'])
  assert.equal(seen[0].name, 'DeprecationWarning')
  assert.match(seen[0].message, /reply\.elapsedTime/)
  await app.close()
})

test('redirect(code, url) warns FSTDEP021 once; redirect(url, code) does not', async () => {
  warnings.FSTDEP021.emitted = false
  const app = trellis()
  app.get('/new', (_req, reply) => { reply.redirect('/x', 303) })
  app.get('/old', (_req, reply) => { reply.redirect(303, '/x') })
  const none = await warningsDuring(async () => { assert.equal((await app.inject('/new')).statusCode, 303) })
  assert.deepEqual(codes(none), [])
  const seen = await warningsDuring(async () => {
    const res = await app.inject('/old')
    assert.equal(res.statusCode, 303)
    assert.equal(res.headers.location, '/x')
    await app.inject('/old')
  })
  assert.deepEqual(codes(seen), ['FSTDEP021'])
  await app.close()
})

test('setting reply.sent warns FSTDEP010; setting it twice throws FST_ERR_REP_ALREADY_SENT', async () => {
  warnings.FSTDEP010.emitted = false
  const app = trellis()
  let second: any
  app.get('/', (_req, reply) => {
    reply.sent = true
    try { reply.sent = true } catch (err) { second = err }
    reply.raw.end('hijacked')
  })
  const seen = await warningsDuring(async () => { assert.equal((await app.inject('/')).body, 'hijacked') })
  assert.deepEqual(codes(seen), ['FSTDEP010'])
  assert.equal(second.code, 'FST_ERR_REP_ALREADY_SENT')
  assert.equal(second.message, 'Reply was already sent, did you forget to "return reply" in "/" (GET)?')
  await app.close()
})

test('request.context (FSTDEP012) and reply.context (FSTDEP019) still give the route config, with their deprecations', async () => {
  warnings.FSTDEP012.emitted = false
  warnings.FSTDEP019.emitted = false
  const app = trellis()
  app.get('/', { config: { tag: 'a' } }, (req: any, reply: any) => {
    reply.send({ req: req.context.config.tag, reply: reply.context.config.tag, same: req.context === reply.context, url: req.context.config.url })
  })
  const seen = await warningsDuring(async () => {
    assert.deepEqual((await app.inject('/')).json(), { req: 'a', reply: 'a', same: true, url: '/' })
  })
  assert.deepEqual(codes(seen).sort(), ['FSTDEP012', 'FSTDEP019'])
  await app.close()
})

test('a second send logs FST_ERR_REP_ALREADY_SENT with Fastify 4.29\'s message, naming the route', async () => {
  const { stream, lines } = logCollector()
  const app = trellis({ logger: { stream, level: 'warn' } })
  app.get('/twice', (_req, reply) => { reply.send({ a: 1 }); reply.send({ a: 2 }) })
  assert.deepEqual((await app.inject('/twice')).json(), { a: 1 })
  const warned = lines.filter((l) => l.level === 40)
  assert.equal(warned.length, 1)
  assert.equal(warned[0].msg, 'Reply was already sent, did you forget to "return reply" in "/twice" (GET)?')
  assert.equal(warned[0].err.code, 'FST_ERR_REP_ALREADY_SENT')
  await app.close()
})
