// A handler that throws null: Fastify 5's default error handler answers a 500 whose JSON body is
// `null`; the v4 line answers its JSON error (Fastify 4 crashes the process there).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

const throwsNull = (): never => { throw null } // eslint-disable-line no-throw-literal -- the case under test

for (const [name, factory] of v5Targets) {
  test(`${name}: a thrown null is a 500 with the JSON body null`, async () => {
    const app = factory()
    app.get('/', throwsNull)
    app.get('/async', async () => { throwsNull() })
    for (const url of ['/', '/async']) {
      const res = await app.inject(url)
      assert.equal(res.statusCode, 500, url)
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8', url)
      assert.equal(res.payload, 'null', url)
    }
    await app.close()
  })
}

test('trellis (v4 line): a thrown null is a 500 with FST_ERR_SEND_UNDEFINED_ERR', async () => {
  const app = v4()
  app.get('/', throwsNull)
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().code, 'FST_ERR_SEND_UNDEFINED_ERR')
  await app.close()
})
