import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

const noop = (_req: unknown, body: unknown, done: (err: Error | null, body?: unknown) => void): void => { done(null, body) }

for (const [name, factory] of v5Targets) {
  test(`${name}: invalid JSON is FST_ERR_CTP_INVALID_JSON_BODY`, async () => {
    const app = factory()
    app.post('/', async (req: any) => req.body)
    for (const payload of [']', '{"a":', '{"__proto__":{"x":1}}']) {
      const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload })
      assert.equal(res.statusCode, 400, payload)
      assert.deepEqual(res.json(), {
        statusCode: 400,
        code: 'FST_ERR_CTP_INVALID_JSON_BODY',
        error: 'Bad Request',
        message: "Body is not valid JSON but content-type is set to 'application/json'"
      })
    }
    await app.close()
  })

  test(`${name}: an unsupported media type's message does not name the type`, async () => {
    const app = factory()
    app.post('/', async () => 'ok')
    const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/x-unknown' }, payload: 'x' })
    assert.equal(res.statusCode, 415)
    assert.deepEqual(res.json(), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', error: 'Unsupported Media Type', message: 'Unsupported Media Type' })
    await app.close()
  })

  test(`${name}: a parser's type must be a media type, and is named lowercased when repeated`, () => {
    const app = factory()
    assert.throws(() => app.addContentTypeParser('type-only', noop), { code: 'FST_ERR_CTP_INVALID_TYPE' })
    assert.throws(() => app.hasContentTypeParser(123), { code: 'FST_ERR_CTP_INVALID_TYPE' })
    app.addContentTypeParser('text/html', noop)
    assert.throws(() => app.addContentTypeParser('  TEXT/html', noop), { code: 'FST_ERR_CTP_ALREADY_PRESENT', message: "Content type parser 'text/html' already present." })
    assert.equal(app.hasContentTypeParser('  text/HTML '), true)
  })
}

test('trellis (v4 line): invalid JSON is the parser\'s SyntaxError with status 400, the 415 names the type', async () => {
  const app = v4()
  app.post('/', async (req: any) => req.body)
  const bad = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: ']' })
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().code, undefined)
  const unknown = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/x-unknown' }, payload: 'x' })
  assert.equal(unknown.json().message, 'Unsupported Media Type: application/x-unknown')
  assert.equal(app.hasContentTypeParser(123 as never), false)
  await app.close()
})
