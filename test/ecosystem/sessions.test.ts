/**
 * Server-side and cookie sessions on trellis: @fastify/session 10 (`fastify: '4.x'`, memory store)
 * keeps data across requests by its signed session-id cookie, regenerates and destroys; and
 * @fastify/secure-session 7 (`fastify: '4.x'`, libsodium-encrypted cookie) round-trips data,
 * ignores a tampered cookie; @fastify/flash 5 on top shows a message once. Over a real socket.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

const SECRET = 'a-secret-of-at-least-thirty-two-characters!'

function cookieOf (setCookie: string[] | undefined, name: string): string {
  const c = (setCookie ?? []).find((x) => x.startsWith(name + '='))
  assert.ok(c, `no ${name} cookie in ${JSON.stringify(setCookie)}`)
  return c.split(';')[0]
}

test('@fastify/session: data kept across requests, regenerate gives a new id, destroy forgets', async (t) => {
  const app: any = trellis()
  await app.register(plugin('@fastify/cookie'))
  await app.register(plugin('@fastify/session'), { secret: SECRET, cookie: { secure: false }, saveUninitialized: false })
  app.post('/login', async (req: any) => { req.session.set('user', req.body.user); return { id: req.session.sessionId } })
  app.get('/me', async (req: any) => ({ user: req.session.get('user') ?? null, id: req.session.sessionId }))
  app.post('/rotate', async (req: any) => { await req.session.regenerate(['user']); return { id: req.session.sessionId } })
  app.post('/logout', async (req: any) => { await req.session.destroy(); return { out: true } })
  t.after(() => app.close())
  const { port } = await listen(app)
  const anon = await request(port, { path: '/me' })
  assert.equal(anon.headers['set-cookie'], undefined) // saveUninitialized: false
  const login = await request(port, { method: 'POST', path: '/login', body: '{"user":"ann"}', headers: { 'content-type': 'application/json' } })
  const sid = cookieOf(login.headers['set-cookie'], 'sessionId')
  assert.match(String(login.headers['set-cookie']), /HttpOnly/)
  const me = JSON.parse((await request(port, { path: '/me', headers: { cookie: sid } })).body)
  assert.deepEqual(me, { user: 'ann', id: JSON.parse(login.body).id })
  const forged = JSON.parse((await request(port, { path: '/me', headers: { cookie: sid.replace(/.$/, (c) => c === 'A' ? 'B' : 'A') } })).body)
  assert.equal(forged.user, null)
  const rotated = await request(port, { method: 'POST', path: '/rotate', headers: { cookie: sid } })
  const sid2 = cookieOf(rotated.headers['set-cookie'], 'sessionId')
  assert.notEqual(sid2, sid)
  assert.equal(JSON.parse((await request(port, { path: '/me', headers: { cookie: sid2 } })).body).user, 'ann')
  // (session 10's regenerate leaves the old id in the store; that is the plugin's behaviour on Fastify too)
  await request(port, { method: 'POST', path: '/logout', headers: { cookie: sid2 } })
  assert.equal(JSON.parse((await request(port, { path: '/me', headers: { cookie: sid2 } })).body).user, null)
})

test('@fastify/secure-session and @fastify/flash: encrypted cookie round-trip, tampering ignored, flash shown once', async (t) => {
  const app: any = trellis()
  await app.register(plugin('@fastify/secure-session'), { key: randomBytes(32), cookie: { path: '/', httpOnly: true } }) // a raw key: deriving one from secret+salt costs ~1.5 s of password hashing
  await app.register(plugin('@fastify/flash'))
  app.post('/put', async (req: any) => { req.session.set('cart', req.body); req.flash('info', 'saved'); return { ok: true } })
  app.get('/get', async (req: any, reply: any) => ({ cart: req.session.get('cart') ?? null, flash: reply.flash('info') }))
  t.after(() => app.close())
  const { port } = await listen(app)
  const put = await request(port, { method: 'POST', path: '/put', body: '{"items":[1,2]}', headers: { 'content-type': 'application/json' } })
  const cookie = cookieOf(put.headers['set-cookie'], 'session')
  assert.ok(!cookie.includes('items'), 'the cookie is encrypted')
  const first = await request(port, { path: '/get', headers: { cookie } })
  assert.deepEqual(JSON.parse(first.body), { cart: { items: [1, 2] }, flash: ['saved'] })
  const next = cookieOf(first.headers['set-cookie'], 'session')
  assert.deepEqual(JSON.parse((await request(port, { path: '/get', headers: { cookie: next } })).body), { cart: { items: [1, 2] }, flash: [] })
  const value = cookie.slice('session='.length)
  const tampered = 'session=' + (value[5] === 'A' ? value.slice(0, 5) + 'B' : value.slice(0, 5) + 'A') + value.slice(6)
  assert.deepEqual(JSON.parse((await request(port, { path: '/get', headers: { cookie: tampered } })).body), { cart: null, flash: [] })
})
