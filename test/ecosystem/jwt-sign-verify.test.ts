/**
 * @fastify/jwt 8 (`fastify: '4.x'`) on trellis: tokens signed by `app.jwt.sign` / `reply.jwtSign`
 * are verified by `request.jwtVerify` (header and cookie mode, with @fastify/cookie); a missing,
 * expired or forged token is a 401 with the plugin's error code.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/cookie'))
  await app.register(plugin('@fastify/jwt'), { secret: 'a-long-enough-test-secret', cookie: { cookieName: 'token', signed: false } })
  app.decorate('authenticate', async (req: any) => { await req.jwtVerify() })
  app.post('/login', async (req: any, reply: any) => {
    const token = await reply.jwtSign({ sub: req.body.user }, { expiresIn: '1h' })
    return reply.setCookie('token', token, { path: '/' }).send({ token })
  })
  app.get('/me', { onRequest: [app.authenticate] }, async (req: any) => ({ user: req.user.sub }))
  return app
}

test('a signed token is accepted in the Authorization header', async () => {
  const app = await build()
  await app.ready()
  const token = app.jwt.sign({ sub: 'ann' })
  assert.equal(app.jwt.verify(token).sub, 'ann')
  const res = await app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { user: 'ann' })
  await app.close()
})

test('missing, expired and forged tokens are 401s with the plugin codes', async () => {
  const app = await build()
  await app.ready()
  const missing = await app.inject({ url: '/me' })
  assert.equal(missing.statusCode, 401)
  assert.equal(missing.json().code, 'FST_JWT_NO_AUTHORIZATION_IN_COOKIE')
  const expired = app.jwt.sign({ sub: 'ann', exp: Math.floor(Date.now() / 1000) - 10 })
  const e = await app.inject({ url: '/me', headers: { authorization: `Bearer ${expired}` } })
  assert.equal(e.statusCode, 401)
  assert.equal(e.json().code, 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED')
  const [h, p] = app.jwt.sign({ sub: 'ann' }).split('.')
  const forgedPayload = Buffer.from(JSON.stringify({ sub: 'root' })).toString('base64url')
  const f = await app.inject({ url: '/me', headers: { authorization: `Bearer ${h}.${forgedPayload}.${p}` } })
  assert.equal(f.statusCode, 401)
  assert.equal(f.json().code, 'FST_JWT_AUTHORIZATION_TOKEN_INVALID')
  await app.close()
})

test('over a real socket: login sets the token cookie; the cookie alone authenticates', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const login = await request(port, { method: 'POST', path: '/login', body: '{"user":"bob"}', headers: { 'content-type': 'application/json' } })
  assert.equal(login.statusCode, 200)
  const cookie = String(login.headers['set-cookie']).split(';')[0]
  assert.equal(cookie, `token=${JSON.parse(login.body).token}`)
  const me = await request(port, { path: '/me', headers: { cookie } })
  assert.equal(me.statusCode, 200)
  assert.deepEqual(JSON.parse(me.body), { user: 'bob' })
})
