import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

// The JSON parser skips secure-json-parse only when the body cannot spell __proto__ or constructor
// (src/lifecycle/content-type-parsers.ts): escaped spellings and a BOM must still take the careful path.

const post = (app: ReturnType<typeof trellis>, payload: string) => app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload })

test('escaped __proto__ / constructor keys are refused like literal ones', async () => {
  const app = trellis()
  app.post('/', async (req) => req.body)
  for (const payload of ['{"\\u005f_proto__":{"admin":true}}', '{"__pr\\u006fto__":{"admin":true}}', '{"a":{"\\u0063onstructor":{"prototype":{"admin":true}}}}']) {
    const res = await post(app, payload)
    assert.equal(res.statusCode, 400, payload)
  }
  assert.equal(({} as Record<string, unknown>).admin, undefined)
  await app.close()
})

test('bodies that merely mention the words, or start with a BOM, parse as before', async () => {
  const app = trellis()
  app.post('/', async (req) => req.body)
  assert.deepEqual((await post(app, '{"role":"constructor","note":"__proto__ is a word","u":"\\u00e9"}')).json(), { role: 'constructor', note: '__proto__ is a word', u: 'é' })
  assert.deepEqual((await post(app, '\uFEFF{"a":1}')).json(), { a: 1 })
  assert.equal((await post(app, '{"a":')).statusCode, 400)
  await app.close()
})

test('onProtoPoisoning: remove still removes an escaped key', async () => {
  const app = trellis({ onProtoPoisoning: 'remove' })
  app.post('/', async (req) => ({ keys: Object.keys(req.body as object), own: Object.prototype.hasOwnProperty.call(req.body, '__proto__') }))
  assert.deepEqual((await post(app, '{"\\u005f_proto__":{"x":1},"b":2}')).json(), { keys: ['b'], own: false })
  await app.close()
})
