import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, request, rawRequest, parseRaw } from '../helpers'

function echo (opts: Record<string, unknown> = {}) {
  const app = trellis(opts)
  app.post('/', async (req) => ({ body: req.body ?? null, type: typeof req.body }))
  return app
}

test('default JSON parser', async () => {
  const app = echo()
  const res = await app.inject({ method: 'POST', url: '/', payload: { a: [1, 2] } })
  assert.deepEqual(res.json(), { body: { a: [1, 2] }, type: 'object' })
  await app.close()
})

test('default text/plain parser', async () => {
  const app = echo()
  const res = await app.inject({ method: 'POST', url: '/', payload: 'hello', headers: { 'content-type': 'text/plain' } })
  assert.deepEqual(res.json(), { body: 'hello', type: 'string' })
  await app.close()
})

test('JSON media type matching: parameters and case do not matter', async () => {
  const app = echo()
  for (const ct of ['application/json; charset=utf-8', 'Application/JSON', 'application/json ; charset="utf-8"']) {
    const res = await app.inject({ method: 'POST', url: '/', payload: '{"x":1}', headers: { 'content-type': ct } })
    assert.equal(res.statusCode, 200, ct)
    assert.deepEqual(res.json().body, { x: 1 }, ct)
  }
  await app.close()
})

test('lookalike media types are 415 (strict parsing, CVE-2022-41919)', async () => {
  const app = echo()
  for (const ct of ['application/jsonx', 'application/json garbage', 'constructor', 'application/json-patch', 'json', 'application/json, text/plain', '']) {
    const res = await app.inject({ method: 'POST', url: '/', payload: '{"x":1}', headers: { 'content-type': ct } })
    assert.equal(res.statusCode, 415, ct)
    assert.equal(res.json().code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE', ct)
  }
  await app.close()
})

test('text/plain; x="application/json" is never parsed as JSON (CVE-2022-41919)', async () => {
  // trellis matches on the media type essence, so this is text/plain: the text parser gets it,
  // and without a text parser it is 415. (4.3 matched by substring and parsed it as JSON.)
  const ct = 'text/plain; x="application/json"'
  const app = echo()
  const res = await app.inject({ method: 'POST', url: '/', payload: '{"x":1}', headers: { 'content-type': ct } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { body: '{"x":1}', type: 'string' })
  await app.close()

  const jsonOnly = trellis()
  jsonOnly.removeContentTypeParser('text/plain')
  jsonOnly.post('/', async (req) => ({ body: req.body }))
  const refused = await jsonOnly.inject({ method: 'POST', url: '/', payload: '{"x":1}', headers: { 'content-type': ct } })
  assert.equal(refused.statusCode, 415)
  assert.equal(refused.json().code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
  await jsonOnly.close()
})

test('__proto__ and constructor.prototype in JSON are 400 by default', async () => {
  const app = echo()
  for (const payload of ['{"__proto__":{"admin":true}}', '{"a":{"constructor":{"prototype":{"admin":true}}}}']) {
    const res = await app.inject({ method: 'POST', url: '/', payload, headers: { 'content-type': 'application/json' } })
    assert.equal(res.statusCode, 400, payload)
    assert.equal(res.json().error, 'Bad Request')
  }
  assert.equal(({} as any).admin, undefined)
  await app.close()
})

test('empty JSON body is 400 FST_ERR_CTP_EMPTY_JSON_BODY; invalid JSON is 400', async () => {
  const app = echo()
  const empty = await app.inject({ method: 'POST', url: '/', payload: '', headers: { 'content-type': 'application/json' } })
  assert.equal(empty.statusCode, 400)
  assert.equal(empty.json().code, 'FST_ERR_CTP_EMPTY_JSON_BODY')
  const bad = await app.inject({ method: 'POST', url: '/', payload: '{"a":', headers: { 'content-type': 'application/json' } })
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().statusCode, 400)
  assert.equal(bad.json().error, 'Bad Request')
  await app.close()
})

test('a body without content type is 415; no body without content type is fine', async () => {
  const app = echo()
  const withBody = await app.inject({ method: 'POST', url: '/', payload: 'data', headers: { 'content-type': undefined as never } })
  assert.equal(withBody.statusCode, 415)
  const none = await app.inject({ method: 'POST', url: '/' })
  assert.equal(none.statusCode, 200)
  assert.deepEqual(none.json(), { body: null, type: 'undefined' })
  await app.close()
})

test('GET bodies are not parsed', async () => {
  const app = trellis()
  app.get('/', async (req) => ({ body: req.body ?? null }))
  const res = await app.inject({ method: 'GET', url: '/', payload: '{"a":1}', headers: { 'content-type': 'application/json' } })
  assert.deepEqual(res.json(), { body: null })
  await app.close()
})

test('DELETE and OPTIONS bodies are parsed when they carry a content type', async () => {
  const app = trellis()
  app.delete('/', async (req) => ({ body: req.body ?? null }))
  app.options('/', async (req) => ({ body: req.body ?? null }))
  for (const method of ['DELETE', 'OPTIONS'] as const) {
    const res = await app.inject({ method, url: '/', payload: { a: 1 } })
    assert.deepEqual(res.json(), { body: { a: 1 } }, method)
  }
  await app.close()
})

test('addContentTypeParser with a string, parseAs string and buffer', async () => {
  const app = trellis()
  app.addContentTypeParser('application/x-upper', { parseAs: 'string' }, (_req: unknown, body: string, done: (e: Error | null, v?: unknown) => void) => { done(null, body.toUpperCase()) })
  app.addContentTypeParser('application/x-bytes', { parseAs: 'buffer' }, async (_req: unknown, body: Buffer) => ({ length: body.length, isBuffer: Buffer.isBuffer(body) }))
  app.post('/', async (req) => ({ body: req.body }))
  assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: 'abc', headers: { 'content-type': 'application/x-upper' } })).json(), { body: 'ABC' })
  assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: Buffer.from([0, 1, 2, 3]), headers: { 'content-type': 'application/x-bytes' } })).json(), { body: { length: 4, isBuffer: true } })
  await app.close()
})

test('addContentTypeParser with a stream parser (no parseAs) gets the raw payload', async () => {
  const app = trellis()
  app.addContentTypeParser('application/x-stream', async (_req: unknown, payload: NodeJS.ReadableStream) => {
    let total = ''
    for await (const chunk of payload) total += chunk.toString()
    return { streamed: total }
  })
  app.post('/', async (req) => req.body)
  assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: 'xyz', headers: { 'content-type': 'application/x-stream' } })).json(), { streamed: 'xyz' })
  await app.close()
})

test('addContentTypeParser with a RegExp and with an array', async () => {
  const app = trellis()
  app.addContentTypeParser(/^image\/.*/, { parseAs: 'buffer' }, async (_req: unknown, body: Buffer) => `image:${body.length}`)
  app.addContentTypeParser(['application/a', 'application/b'], { parseAs: 'string' }, async (_req: unknown, body: string) => `ab:${body}`)
  app.post('/', async (req) => ({ body: req.body }))
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: 'pngdata', headers: { 'content-type': 'image/png' } })).json().body, 'image:7')
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: 'x', headers: { 'content-type': 'application/a' } })).json().body, 'ab:x')
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: 'y', headers: { 'content-type': 'application/b' } })).json().body, 'ab:y')
  await app.close()
})

test('a catch-all "*" parser handles unknown and missing content types', async () => {
  const app = trellis()
  app.addContentTypeParser('*', { parseAs: 'string' }, async (_req: unknown, body: string) => `any:${body}`)
  app.post('/', async (req) => ({ body: req.body }))
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: 'q', headers: { 'content-type': 'application/unknown' } })).json().body, 'any:q')
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: 'no type' })).json().body, 'any:no type')
  assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })).json().body, { a: 1 })
  await app.close()
})

test('per-parser bodyLimit', async () => {
  const app = trellis()
  app.addContentTypeParser('application/x-small', { parseAs: 'string', bodyLimit: 5 }, async (_req: unknown, body: string) => body)
  app.post('/', async (req) => ({ body: req.body }))
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: '12345', headers: { 'content-type': 'application/x-small' } })).statusCode, 200)
  const big = await app.inject({ method: 'POST', url: '/', payload: '123456', headers: { 'content-type': 'application/x-small' } })
  assert.equal(big.statusCode, 413)
  assert.equal(big.json().code, 'FST_ERR_CTP_BODY_TOO_LARGE')
  await app.close()
})

test('a parser error reaches the error handler', async () => {
  const app = trellis()
  app.addContentTypeParser('application/x-fail', { parseAs: 'string' }, async () => { throw Object.assign(new Error('cannot parse'), { statusCode: 422 }) })
  app.post('/', async () => 'never')
  const res = await app.inject({ method: 'POST', url: '/', payload: 'x', headers: { 'content-type': 'application/x-fail' } })
  assert.equal(res.statusCode, 422)
  assert.equal(res.json().message, 'cannot parse')
  await app.close()
})

test('hasContentTypeParser, removeContentTypeParser, removeAllContentTypeParsers', async () => {
  const app = trellis()
  assert.equal(app.hasContentTypeParser('application/json'), true)
  assert.equal(app.hasContentTypeParser('text/plain'), true)
  assert.equal(app.hasContentTypeParser('application/xml'), false)
  app.removeContentTypeParser('application/json')
  assert.equal(app.hasContentTypeParser('application/json'), false)
  app.post('/', async (req) => ({ body: req.body }))
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })).statusCode, 415)
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: 't', headers: { 'content-type': 'text/plain' } })).statusCode, 200)
  await app.close()

  const none = trellis()
  none.removeAllContentTypeParsers()
  assert.equal(none.hasContentTypeParser('application/json'), false)
  assert.equal(none.hasContentTypeParser('text/plain'), false)
  none.post('/', async () => 'x')
  assert.equal((await none.inject({ method: 'POST', url: '/', payload: 't', headers: { 'content-type': 'text/plain' } })).statusCode, 415)
  await none.close()
})

test('the default JSON/text parsers can be overridden; other duplicates fail with FST_ERR_CTP_ALREADY_PRESENT', async () => {
  const app = trellis()
  app.addContentTypeParser('application/x-once', { parseAs: 'string' }, async (_r: unknown, b: string) => b)
  assert.throws(() => app.addContentTypeParser('application/x-once', { parseAs: 'string' }, async (_r: unknown, b: string) => b), (err: any) => err.code === 'FST_ERR_CTP_ALREADY_PRESENT')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, async (_r: unknown, body: string) => ({ custom: body }))
  assert.throws(() => app.addContentTypeParser('application/json', { parseAs: 'string' }, async (_r: unknown, b: string) => b), { code: 'FST_ERR_CTP_ALREADY_PRESENT' })
  app.post('/', async (req) => req.body)
  assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: '{}', headers: { 'content-type': 'application/json' } })).json(), { custom: '{}' })
  await app.close()
})

test('invalid parser registrations fail with their codes', () => {
  const app = trellis()
  assert.throws(() => app.addContentTypeParser('application/x', { parseAs: 'json' as never }, async () => 1), { code: 'FST_ERR_CTP_INVALID_PARSE_TYPE' })
  assert.throws(() => app.addContentTypeParser('application/x', 'nope' as never), { code: 'FST_ERR_CTP_INVALID_HANDLER' })
  assert.throws(() => app.addContentTypeParser(42 as never, async () => 1), { code: 'FST_ERR_CTP_INVALID_TYPE' })
  assert.throws(() => app.addContentTypeParser('', async () => 1), { code: 'FST_ERR_CTP_EMPTY_TYPE' })
})

test('parsers are encapsulated: a child parser is not visible in the parent or siblings', async () => {
  const app = trellis()
  app.register(async (child) => {
    child.addContentTypeParser('application/x-child', { parseAs: 'string' }, async (_r: unknown, b: string) => `child:${b}`)
    assert.equal(child.hasContentTypeParser('application/x-child'), true)
    child.post('/child', async (req) => ({ body: req.body }))
  })
  app.register(async (sibling) => {
    assert.equal(sibling.hasContentTypeParser('application/x-child'), false)
    sibling.post('/sibling', async (req) => ({ body: req.body }))
  })
  app.post('/parent', async (req) => ({ body: req.body }))
  await app.ready()
  assert.equal(app.hasContentTypeParser('application/x-child'), false)
  const opts = { method: 'POST' as const, payload: 'v', headers: { 'content-type': 'application/x-child' } }
  assert.equal((await app.inject({ ...opts, url: '/child' })).json().body, 'child:v')
  assert.equal((await app.inject({ ...opts, url: '/parent' })).statusCode, 415)
  assert.equal((await app.inject({ ...opts, url: '/sibling' })).statusCode, 415)
  await app.close()
})

test('a parser removed in a child is still used by the parent', async () => {
  const app = trellis()
  app.register(async (child) => {
    child.removeContentTypeParser('application/json')
    child.post('/child', async (req) => ({ body: req.body }))
  })
  app.post('/parent', async (req) => ({ body: req.body }))
  assert.equal((await app.inject({ method: 'POST', url: '/child', payload: { a: 1 } })).statusCode, 415)
  assert.deepEqual((await app.inject({ method: 'POST', url: '/parent', payload: { a: 1 } })).json(), { body: { a: 1 } })
  await app.close()
})

test('body limit 413 over a real socket with a chunked body', async () => {
  const app = trellis({ bodyLimit: 100 })
  let handlerRan = false
  app.post('/', async () => { handlerRan = true; return 'ok' })
  const { port } = await listen(app)
  try {
    const chunks = Array.from({ length: 10 }, () => 'x'.repeat(30))
    const res = await request(port, { method: 'POST', headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, body: chunks })
    assert.equal(res.statusCode, 413)
    assert.equal(JSON.parse(res.body).code, 'FST_ERR_CTP_BODY_TOO_LARGE')
    assert.equal(handlerRan, false)
    const small = await request(port, { method: 'POST', headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, body: ['a', 'b'] })
    assert.equal(small.statusCode, 200)
  } finally { await app.close() }
})

test('body limit 413 over a real socket with a declared content-length', async () => {
  const app = trellis({ bodyLimit: 10 })
  app.post('/', async () => 'ok')
  const { port } = await listen(app)
  try {
    const raw = await rawRequest(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n{"a":"' + 'x'.repeat(100))
    const res = parseRaw(raw)
    assert.equal(res.statusCode, 413)
    assert.equal(JSON.parse(res.body).code, 'FST_ERR_CTP_BODY_TOO_LARGE')
  } finally { await app.close() }
})

test('content-length larger than the body sent over inject is 400', async () => {
  const app = echo()
  const res = await app.inject({ method: 'POST', url: '/', payload: '{"a":1}', headers: { 'content-type': 'application/json', 'content-length': '3' } })
  assert.equal(res.statusCode, 400)
  await app.close()
})
