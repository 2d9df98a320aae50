// A Fastify 5 application with the Fastify-4 majors of twelve @fastify plugins (through the bridge)
// beside the Fastify-5 majors of three others, each plugin doing its job.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { gunzipSync } from 'node:zlib'
import { v5 } from './lines'

const fastify4Majors = {
  formbody: require('@fastify/formbody'), // 7
  cookie: require('@fastify/cookie'), // 9
  etag: require('@fastify/etag'), // 5
  accepts: require('@fastify/accepts'), // 4
  caching: require('@fastify/caching'), // 8
  urlData: require('@fastify/url-data'), // 5
  underPressure: require('@fastify/under-pressure'), // 8
  rateLimit: require('@fastify/rate-limit'), // 9
  basicAuth: require('@fastify/basic-auth'), // 5
  auth: require('@fastify/auth'), // 4
  jwt: require('@fastify/jwt'), // 8
  compress: require('@fastify/compress') // 7
}
const fastify5Majors = {
  cors: require('fastify5-cors'), // 11
  helmet: require('fastify5-helmet'), // 13
  sensible: require('fastify5-sensible') // 6
}

const declared = (plugin: any): string => (plugin.default ?? plugin)[Symbol.for('plugin-meta')]?.fastify

test('the plugins really are Fastify-4 and Fastify-5 majors', () => {
  for (const plugin of Object.values(fastify4Majors)) assert.equal(declared(plugin), '4.x')
  for (const plugin of Object.values(fastify5Majors)) assert.equal(declared(plugin), '5.x')
})

test('a v5 application runs twelve Fastify-4 plugins through the bridge beside three Fastify-5 plugins', async () => {
  const bridged: string[] = []
  const onWarning = (w: Error & { code?: string }): void => { if (w.code === 'TRLBRG001') bridged.push(w.message) }
  process.on('warning', onWarning)
  const app = v5()
  try {
    await app.register(fastify5Majors.cors, { origin: '*' })
    await app.register(fastify5Majors.helmet)
    await app.register(fastify5Majors.sensible)
    await app.register(fastify4Majors.formbody)
    await app.register(fastify4Majors.cookie)
    await app.register(fastify4Majors.etag)
    await app.register(fastify4Majors.accepts)
    await app.register(fastify4Majors.caching, { privacy: 'private', expiresIn: 300 })
    await app.register(fastify4Majors.urlData)
    await app.register(fastify4Majors.underPressure, { exposeStatusRoute: true })
    await app.register(fastify4Majors.rateLimit, { global: false })
    await app.register(fastify4Majors.basicAuth, {
      validate (user: string, pass: string, _req: unknown, _reply: unknown, done: (err?: Error) => void) { done(user === 'ada' && pass === 'lovelace' ? undefined : new Error('who are you')) }
    })
    await app.register(fastify4Majors.auth)
    await app.register(fastify4Majors.jwt, { secret: 'a-test-secret-of-enough-length' })
    await app.register(fastify4Majors.compress, { threshold: 1 })

    app.post('/form', async (req: any) => ({ body: req.body }))
    app.get('/cookie', async (req: any, reply: any) => { reply.setCookie('seen', 'yes'); return { had: req.cookies.seen ?? null } })
    app.get('/negotiate', async (req: any) => ({ type: req.accepts().type(['json', 'html']), path: req.urlData('path') }))
    app.get('/limited', { config: { rateLimit: { max: 2, timeWindow: 60000 } } }, async () => 'ok')
    app.get('/private', { onRequest: app.auth([app.basicAuth]) }, async () => ({ secret: 42 }))
    app.get('/token', async () => ({ token: app.jwt.sign({ user: 'ada' }) }))
    app.get('/me', async (req: any) => { await req.jwtVerify(); return { user: req.user.user } })
    app.get('/missing', async (_req: any, reply: any) => reply.notFound())
    app.get('/big', async () => ({ text: 'x'.repeat(2000) }))

    const form = await app.inject({ method: 'POST', url: '/form', payload: 'a=1&b=two', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    assert.deepEqual(form.json(), { body: { a: '1', b: 'two' } })
    // cors 11, helmet 13 (Fastify 5 majors) and caching 8, etag 5 (Fastify 4 majors) on one response
    assert.equal(form.headers['access-control-allow-origin'], '*')
    assert.equal(form.headers['x-content-type-options'], 'nosniff')
    assert.equal(form.headers['cache-control'], 'private, max-age=300')
    assert.match(String(form.headers.etag), /^"/)

    const cookie = await app.inject({ url: '/cookie', headers: { cookie: 'seen=before' } })
    assert.deepEqual(cookie.json(), { had: 'before' })
    assert.match(String(cookie.headers['set-cookie']), /^seen=yes/)

    assert.deepEqual((await app.inject({ url: '/negotiate?q=1', headers: { accept: 'text/html' } })).json(), { type: 'html', path: '/negotiate' })
    assert.equal((await app.inject('/status')).json().status, 'ok')

    const limits = []
    for (let i = 0; i < 3; i++) limits.push((await app.inject('/limited')).statusCode)
    assert.deepEqual(limits, [200, 200, 429])

    assert.equal((await app.inject('/private')).statusCode, 401)
    const basic = 'Basic ' + Buffer.from('ada:lovelace').toString('base64')
    assert.deepEqual((await app.inject({ url: '/private', headers: { authorization: basic } })).json(), { secret: 42 })

    const { token } = (await app.inject('/token')).json()
    assert.deepEqual((await app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } })).json(), { user: 'ada' })
    assert.equal((await app.inject('/me')).statusCode, 401)

    assert.equal((await app.inject('/missing')).statusCode, 404)

    const big = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip' } })
    assert.equal(big.headers['content-encoding'], 'gzip')
    assert.equal(JSON.parse(gunzipSync(big.rawPayload).toString()).text.length, 2000)

    assert.equal(app.version, '5.12.8')
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(bridged.length, 12, bridged.join('\n'))
  } finally {
    process.off('warning', onWarning)
    await app.close()
  }
})
