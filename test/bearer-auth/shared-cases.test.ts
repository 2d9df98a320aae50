/**
 * The shared case list (cases.ts) against trellis/bearer-auth and against the real
 * @fastify/bearer-auth@9, both registered on trellis, over inject.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import bearerAuth from '../../src/bearer-auth'
import realBearerAuth = require('@fastify/bearer-auth')
import { KEYS, sameCases, differentCases, type BearerCase, type Expectation } from './cases'

type Flavour = 'trellis' | 'fastify'
const plugins: Record<Flavour, any> = { trellis: bearerAuth, fastify: realBearerAuth }

async function run (flavour: Flavour, c: BearerCase, expected: Expectation, checkChallenge: boolean): Promise<void> {
  const app = trellis()
  app.register(plugins[flavour], { keys: new Set(KEYS), ...c.options })
  app.get('/test', async () => ({ hello: 'world' }))
  const headers: Record<string, string> = {}
  if (c.authorization !== undefined) headers.authorization = c.authorization
  const res = await app.inject({ method: 'GET', url: '/test', headers })
  assert.equal(res.statusCode, expected.status, `${flavour}: status (body ${res.body})`)
  if (expected.body !== undefined) assert.deepEqual(JSON.parse(res.body), expected.body)
  if (expected.status === 401 && c.options?.contentType === undefined) {
    assert.match(String(res.headers['content-type']), /^application\/json/)
  }
  if (checkChallenge) assert.equal(res.headers['www-authenticate'], expected.challenge)
  await app.close()
}

for (const flavour of ['trellis', 'fastify'] as const) {
  describe(`bearer auth cases: ${flavour === 'trellis' ? 'trellis/bearer-auth' : '@fastify/bearer-auth@9 on trellis'}`, () => {
    for (const c of sameCases) {
      it(c.name, async () => { await run(flavour, c, c.expect as Expectation, false) })
    }
    for (const c of differentCases) {
      const expected = c[flavour] as Expectation
      it(`[differs] ${c.name}`, async () => { await run(flavour, c, expected, 'challenge' in expected) })
    }
  })
}
