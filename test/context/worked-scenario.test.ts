/**
 * Encapsulation rule 5 (the worked scenario): root request decorator `answer`; context A with bearer
 * authentication and `/one`; context B with `foo` and `/two`; grandchild C with `bar` and `/three`.
 * C unwrapped, then wrapped (with trellis/plugin and with the real fastify-plugin@4), checked over
 * inject and over a real socket with fetch.
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import realFp from 'fastify-plugin'
import trellis from '../../src/index'
import fp from '../../src/plugin'
import bearerAuth from '../../src/bearer-auth'

const API_KEY = 'worked-scenario-key'
type Wrap = ((fn: any) => any) | null

function build (wrapC: Wrap): any {
  const app: any = trellis()
  const view = async (req: any): Promise<unknown> => ({ answer: req.answer, foo: req.foo, bar: req.bar })
  app.decorateRequest('answer', 42)
  app.register(async function A (a: any) {
    a.register(bearerAuth, { keys: [API_KEY] })
    a.get('/one', view)
  })
  app.register(async function B (b: any) {
    b.decorateRequest('foo', 'foo')
    b.get('/two', view)
    const C = async (c: any): Promise<void> => {
      c.decorateRequest('bar', 'bar')
      c.get('/three', view)
    }
    b.register(wrapC === null ? C : wrapC(C))
  })
  return app
}

const unwrapped = {
  '/one': { answer: 42 },
  '/two': { answer: 42, foo: 'foo' },
  '/three': { answer: 42, foo: 'foo', bar: 'bar' }
}
const wrapped = { ...unwrapped, '/two': { answer: 42, foo: 'foo', bar: 'bar' } }

const variants: Array<[string, Wrap, Record<string, unknown>]> = [
  ['C unwrapped', null, unwrapped],
  ['C wrapped with trellis/plugin', fp, wrapped],
  ['C wrapped with fastify-plugin@4', realFp, wrapped]
]

type Get = (path: string, authorization?: string) => Promise<{ status: number; body: unknown }>

async function checkScenario (get: Get, expected: Record<string, unknown>): Promise<void> {
  for (const [path, body] of Object.entries(expected)) {
    const auth = path === '/one' ? `Bearer ${API_KEY}` : undefined
    assert.deepEqual(await get(path, auth), { status: 200, body }, path)
  }
  // authentication applies to context A only
  assert.equal((await get('/one')).status, 401)
  assert.equal((await get('/one', 'Bearer wrong-key')).status, 401)
  assert.equal((await get('/two')).status, 200)
  assert.equal((await get('/three')).status, 200)
}

for (const [label, wrapC, expected] of variants) {
  describe(`worked scenario, ${label}`, () => {
    test('over inject', async () => {
      const app = build(wrapC)
      const get: Get = async (url, authorization) => {
        const res = await app.inject({ url, headers: authorization === undefined ? {} : { authorization } })
        return { status: res.statusCode, body: res.statusCode === 200 ? res.json() : null }
      }
      try {
        await checkScenario(get, expected)
      } finally {
        await app.close()
      }
    })

    test('over a real socket with fetch', async () => {
      const app = build(wrapC)
      await app.listen({ port: 0, host: '127.0.0.1' })
      try {
        const { port } = app.server.address()
        const get: Get = async (path, authorization) => {
          const res = await fetch(`http://127.0.0.1:${String(port)}${path}`, { headers: authorization === undefined ? {} : { authorization } })
          const text = await res.text()
          assert.match(res.headers.get('content-type') ?? '', /^application\/json/)
          return { status: res.status, body: res.status === 200 ? JSON.parse(text) : null }
        }
        await checkScenario(get, expected)
      } finally {
        await app.close()
      }
      assert.equal(app.server.listening, false)
    })
  })
}
