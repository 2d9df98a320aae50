/**
 * @fastify/csrf-protection 6 (`fastify: '4.x'`) on trellis, with its secret in a @fastify/cookie
 * cookie (the default) and in a @fastify/session: a token from reply.generateCsrf() lets the
 * protected POST through (header in onRequest, or form field in preHandler); a missing secret or a wrong token is a 403.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

async function build (viaSession: boolean): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/cookie'))
  if (viaSession) await app.register(plugin('@fastify/session'), { secret: 'a-secret-of-at-least-thirty-two-characters!', cookie: { secure: false } })
  await app.register(plugin('@fastify/formbody'))
  await app.register(plugin('@fastify/csrf-protection'), viaSession ? { sessionPlugin: '@fastify/session' } : {})
  app.get('/form', async (_req: any, reply: any) => ({ token: await reply.generateCsrf() }))
  app.post('/transfer', { onRequest: app.csrfProtection }, async () => ({ done: true }))
  // a token in a form field needs the parsed body: the check runs as a preHandler there
  app.post('/transfer-form', { preHandler: app.csrfProtection }, async () => ({ done: true }))
  return app
}

for (const viaSession of [false, true]) {
  test(`token checked (secret in ${viaSession ? '@fastify/session' : 'a cookie'}), over a real socket`, async (t) => {
    const app = await build(viaSession)
    t.after(() => app.close())
    const { port } = await listen(app)
    const form = await request(port, { path: '/form' })
    const token = JSON.parse(form.body).token
    const cookie = (form.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ')
    assert.ok(cookie.length > 0)
    const byHeader = await request(port, { method: 'POST', path: '/transfer', headers: { cookie, 'csrf-token': token } })
    assert.equal(byHeader.statusCode, 200)
    assert.deepEqual(JSON.parse(byHeader.body), { done: true })
    const byField = await request(port, { method: 'POST', path: '/transfer-form', body: `_csrf=${encodeURIComponent(token)}`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' } })
    assert.equal(byField.statusCode, 200)
    const wrong = await request(port, { method: 'POST', path: '/transfer', headers: { cookie, 'csrf-token': token.slice(0, -2) + 'xx' } })
    assert.equal(wrong.statusCode, 403)
    assert.equal(JSON.parse(wrong.body).code, 'FST_CSRF_INVALID_TOKEN')
    const noToken = await request(port, { method: 'POST', path: '/transfer', headers: { cookie } })
    assert.equal(noToken.statusCode, 403)
    const noSecret = await request(port, { method: 'POST', path: '/transfer', headers: { 'csrf-token': token } })
    assert.equal(noSecret.statusCode, 403)
    assert.equal(JSON.parse(noSecret.body).code, 'FST_CSRF_MISSING_SECRET')
  })
}
