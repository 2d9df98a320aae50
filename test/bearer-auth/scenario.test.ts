/**
 * The spec's worked scenario (encapsulation rule 5) over a real socket with fetch: root decorator
 * `answer`; context A with bearer auth and `/one`; context B with `foo` and `/two`; grandchild C with
 * `bar` and `/three` (plain, then wrapped with trellis/plugin). Run with trellis/bearer-auth and with
 * the real @fastify/bearer-auth@9: in both, only `/one` needs the header.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { type TrellisInstance } from '../../src/index'
import fp from '../../src/plugin'
import bearerAuth from '../../src/bearer-auth'
import realBearerAuth = require('@fastify/bearer-auth')

const API_KEY = 'scenario-key-7f3a'

type Req = Record<string, unknown>
const view = (request: unknown, req = request as Req): Record<string, unknown> => ({ answer: req.answer, foo: req.foo, bar: req.bar })

function buildScenario (authPlugin: any, wrapC: boolean): TrellisInstance {
  const app = trellis()
  app.decorateRequest('answer', 42)
  app.register(async function contextA (a: TrellisInstance) {
    a.register(authPlugin, { keys: [API_KEY] })
    a.get('/one', async (req) => view(req))
  })
  app.register(async function contextB (b: TrellisInstance) {
    b.decorateRequest('foo', 'foo-value')
    b.get('/two', async (req) => view(req))
    const contextC = async (c: TrellisInstance): Promise<void> => {
      c.decorateRequest('bar', 'bar-value')
      c.get('/three', async (req) => view(req))
    }
    b.register(wrapC ? fp(contextC) : contextC)
  })
  return app
}

async function withServer (app: TrellisInstance, fn: (base: string) => Promise<void>): Promise<void> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  assert.ok(address !== null && typeof address === 'object')
  try {
    await fn(`http://127.0.0.1:${address.port}`)
  } finally {
    await app.close()
  }
}

async function fetchJson (url: string, authorization?: string): Promise<{ status: number; body: unknown; challenge: string | null }> {
  const res = await fetch(url, { headers: authorization === undefined ? {} : { authorization } })
  return { status: res.status, body: await res.json(), challenge: res.headers.get('www-authenticate') }
}

const plugins = [['trellis/bearer-auth', bearerAuth], ['@fastify/bearer-auth@9', realBearerAuth]] as const

for (const [label, authPlugin] of plugins) {
  describe(`worked scenario over HTTP with ${label}`, () => {
    it('only /one needs the key; decorators follow the context tree', async () => {
      await withServer(buildScenario(authPlugin, false), async (base) => {
        const missing = await fetchJson(`${base}/one`)
        assert.equal(missing.status, 401)
        assert.deepEqual(missing.body, { error: 'missing authorization header' })
        const wrong = await fetchJson(`${base}/one`, 'Bearer not-the-key')
        assert.equal(wrong.status, 401)
        assert.deepEqual(wrong.body, { error: 'invalid authorization header' })
        if (label === 'trellis/bearer-auth') {
          assert.equal(missing.challenge, 'Bearer')
          assert.equal(wrong.challenge, 'Bearer error="invalid_token"')
        }
        assert.deepEqual(await fetchJson(`${base}/one`, `Bearer ${API_KEY}`), { status: 200, body: { answer: 42 }, challenge: null })
        assert.deepEqual(await fetchJson(`${base}/two`), { status: 200, body: { answer: 42, foo: 'foo-value' }, challenge: null })
        assert.deepEqual(await fetchJson(`${base}/three`), { status: 200, body: { answer: 42, foo: 'foo-value', bar: 'bar-value' }, challenge: null })
      })
    })

    it('with C wrapped, /two also sees bar; /three unchanged; still only /one protected', async () => {
      await withServer(buildScenario(authPlugin, true), async (base) => {
        assert.equal((await fetchJson(`${base}/one`)).status, 401)
        assert.deepEqual((await fetchJson(`${base}/one`, `Bearer ${API_KEY}`)).body, { answer: 42 })
        assert.deepEqual(await fetchJson(`${base}/two`), { status: 200, body: { answer: 42, foo: 'foo-value', bar: 'bar-value' }, challenge: null })
        assert.deepEqual(await fetchJson(`${base}/three`), { status: 200, body: { answer: 42, foo: 'foo-value', bar: 'bar-value' }, challenge: null })
      })
    })
  })
}
