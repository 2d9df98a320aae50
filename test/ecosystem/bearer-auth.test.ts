/**
 * @fastify/bearer-auth 9 (`fastify: '4.x'`; on the Fastify 5 line its major 10, `fastify: '5.x'`)
 * registered on the framework of the line: a request without a token, with a wrong one or with a
 * malformed header is a 401 with the plugin's JSON body; a known key passes; `addHook: false` leaves the check to a route through `verifyBearerAuth`. Its
 * whole case list runs against trellis/bearer-auth in test/bearer-auth/.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

const KEY = 'a-key-of-the-ecosystem-test'

test('no token, a wrong token or a malformed header: a JSON 401; a known key: 200', async (t) => {
  const app: any = trellis()
  await app.register(plugin('@fastify/bearer-auth'), { keys: new Set([KEY]) })
  app.get('/secret', async () => ({ ok: true }))
  t.after(() => app.close())
  const cases: Array<[Record<string, string>, number, unknown]> = [
    [{}, 401, { error: 'missing authorization header' }],
    [{ authorization: 'Bearer wrong-key' }, 401, { error: 'invalid authorization header' }],
    [{ authorization: `Basic ${KEY}` }, 401, { error: 'invalid authorization header' }],
    [{ authorization: `Bearer ${KEY}` }, 200, { ok: true }]
  ]
  for (const [headers, status, body] of cases) {
    const res = await app.inject({ url: '/secret', headers })
    assert.equal(res.statusCode, status, JSON.stringify(headers))
    assert.deepEqual(res.json(), body)
    assert.match(String(res.headers['content-type']), /^application\/json/)
  }
  // over a real socket too
  const { port } = await listen(app)
  assert.equal((await request(port, { path: '/secret' })).statusCode, 401)
  const ok = await request(port, { path: '/secret', headers: { authorization: `Bearer ${KEY}` } })
  assert.deepEqual([ok.statusCode, JSON.parse(ok.body)], [200, { ok: true }])
})

test('addHook: false: only the routes that call verifyBearerAuth are guarded', async (t) => {
  const app: any = trellis()
  await app.register(plugin('@fastify/bearer-auth'), { keys: new Set([KEY]), addHook: false })
  app.get('/open', async () => ({ open: true }))
  app.get('/guarded', { onRequest: app.verifyBearerAuth }, async () => ({ guarded: true }))
  t.after(() => app.close())
  assert.equal((await app.inject({ url: '/open' })).statusCode, 200)
  assert.equal((await app.inject({ url: '/guarded' })).statusCode, 401)
  const ok = await app.inject({ url: '/guarded', headers: { authorization: `Bearer ${KEY}` } })
  assert.deepEqual([ok.statusCode, ok.json()], [200, { guarded: true }])
})
