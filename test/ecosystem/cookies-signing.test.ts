/**
 * @fastify/cookie 9 (`fastify: '4.x'`) on trellis: request cookies parsed, signed cookies set and
 * verified (a tampered value is refused), cookie options serialized, several Set-Cookie headers on
 * one reply over a real socket, and clearCookie.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin, byLine } from './target'
import { listen, request } from '../helpers'

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/cookie'), { secret: 'a-secret-with-enough-length', parseOptions: { path: '/' } })
  app.get('/set', async (_req: any, reply: any) => {
    reply.setCookie('session', 'abc', { signed: true, httpOnly: true, sameSite: 'lax' })
    reply.setCookie('theme', 'dark', { maxAge: 60 })
    return { set: true }
  })
  app.get('/read', async (req: any) => {
    const unsigned = req.unsignCookie(req.cookies.session ?? '')
    return { cookies: req.cookies, session: unsigned }
  })
  app.get('/clear', async (_req: any, reply: any) => { reply.clearCookie('theme'); return { cleared: true } })
  return app
}

test('setCookie writes a signed, httpOnly cookie and a plain one; both round-trip', async () => {
  const app = await build()
  const res = await app.inject({ url: '/set' })
  assert.equal(res.statusCode, 200)
  const setCookie = res.headers['set-cookie'] as string[]
  assert.equal(setCookie.length, 2)
  assert.match(setCookie[0], /^session=abc\.[A-Za-z0-9+/%_-]+; Path=\/; HttpOnly; SameSite=Lax$/)
  // @fastify/cookie 11 makes `sameSite: 'lax'` the default of every cookie it sets
  assert.match(setCookie[1], byLine(/^theme=dark; Max-Age=60; Path=\/$/, /^theme=dark; Max-Age=60; Path=\/; SameSite=Lax$/))
  const session = res.cookies.find((c: any) => c.name === 'session').value
  const back = await app.inject({ url: '/read', cookies: { session, theme: 'dark' } })
  assert.deepEqual(back.json(), {
    cookies: { session, theme: 'dark' },
    session: { valid: true, renew: false, value: 'abc' }
  })
  await app.close()
})

test('a tampered signed cookie is reported invalid', async () => {
  const app = await build()
  const res = await app.inject({ url: '/read', headers: { cookie: 'session=abd.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' } })
  assert.deepEqual(res.json().session, { valid: false, renew: false, value: null })
  assert.equal(app.unsignCookie('abc.wrong').valid, false)
  await app.close()
})

test('clearCookie expires the cookie', async () => {
  const app = await build()
  const res = await app.inject({ url: '/clear' })
  // @fastify/cookie 11's clearCookie also sends Max-Age=0, and its default SameSite=Lax
  assert.match(String(res.headers['set-cookie']), byLine(
    /^theme=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT$/,
    /^theme=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax$/
  ))
  await app.close()
})

test('over a real socket: two Set-Cookie headers, then the cookies sent back are parsed', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const res = await request(port, { path: '/set' })
  assert.equal(res.headers['set-cookie']?.length, 2)
  const jar = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ')
  const back = await request(port, { path: '/read', headers: { cookie: jar } })
  assert.equal(JSON.parse(back.body).session.value, 'abc')
  assert.equal(JSON.parse(back.body).cookies.theme, 'dark')
})
