/** The JSON nesting limit (`jsonDepthLimit`): what counts as nesting, the option, the public parser. */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { jsonDepthExceeds } from '../../src/lifecycle/json-depth'

const nest = (n: number): string => '['.repeat(n) + ']'.repeat(n)

test('jsonDepthExceeds counts open arrays/objects, not brackets inside strings (escaped quotes and backslashes handled)', () => {
  assert.equal(jsonDepthExceeds(nest(3), 3), false)
  assert.equal(jsonDepthExceeds(nest(4), 3), true)
  assert.equal(jsonDepthExceeds('[{"a":[1]},{"b":[2]},[[3]]]', 3), false)
  assert.equal(jsonDepthExceeds('[[[[', 3), true)
  assert.equal(jsonDepthExceeds('["[[[[[\\"[[[[", 1]', 1), false)
  assert.equal(jsonDepthExceeds('["\\\\", [[[1]]]]', 3), true, 'an escaped backslash ends before the closing quote')
  assert.equal(jsonDepthExceeds('["\\\\\\"[[[[[["]', 1), false, 'an escaped quote after an escaped backslash stays in the string')
  assert.equal(jsonDepthExceeds('"[[[[[[[[[', 2), false, 'an unterminated string is left to the parser')
  assert.equal(jsonDepthExceeds(nest(1000), 0), false, '0 is no limit')
})

test('jsonDepthLimit option: a custom limit, 0 for none; the error is a 400 with its own code', async () => {
  const app = trellis({ jsonDepthLimit: 3 })
  app.post('/', async (req) => ({ ok: Array.isArray(req.body) }))
  const ok = await app.inject({ method: 'POST', url: '/', payload: nest(3), headers: { 'content-type': 'application/json' } })
  assert.equal(ok.statusCode, 200)
  const deep = await app.inject({ method: 'POST', url: '/', payload: nest(4), headers: { 'content-type': 'application/json' } })
  assert.equal(deep.statusCode, 400)
  assert.deepEqual(deep.json(), { statusCode: 400, code: 'FST_ERR_CTP_JSON_TOO_DEEP', error: 'Bad Request', message: 'JSON body is nested deeper than 3 levels' })
  const off = trellis({ jsonDepthLimit: 0 })
  off.post('/', async () => ({ ok: true }))
  assert.equal((await off.inject({ method: 'POST', url: '/', payload: nest(5000), headers: { 'content-type': 'application/json' } })).statusCode, 200)
  assert.equal((app.initialConfig as Record<string, unknown>).jsonDepthLimit, 3)
})

test('getDefaultJsonParser() keeps the instance limit and accepts Buffers', async () => {
  const app = trellis({ jsonDepthLimit: 2 })
  const parser = app.getDefaultJsonParser('error', 'error') as (req: unknown, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => void
  const run = (body: string | Buffer): Promise<{ err: (Error & { code?: string }) | null, body?: unknown }> =>
    new Promise((resolve) => parser({}, body, (err, value) => resolve({ err: err as never, body: value })))
  assert.deepEqual((await run(Buffer.from('[[1]]'))).body, [[1]])
  assert.equal((await run(Buffer.from('[[[1]]]'))).err?.code, 'FST_ERR_CTP_JSON_TOO_DEEP')
})

test('bodies shorter than 2 × (limit + 1) are parsed first; a malformed one deeper than the limit still answers FST_ERR_CTP_JSON_TOO_DEEP', async () => {
  const app = trellis({ jsonDepthLimit: 3 })
  app.post('/', async (req) => ({ body: req.body }))
  const post = (payload: string) => app.inject({ method: 'POST', url: '/', payload, headers: { 'content-type': 'application/json' } })
  // 7 characters, malformed, 4 levels open: the depth error, as when every body was scanned before parsing
  assert.equal((await post('[[[[1]]')).json().code, 'FST_ERR_CTP_JSON_TOO_DEEP')
  // short and malformed but not too deep: the parser's error
  const bad = await post('[[1]')
  assert.equal(bad.statusCode, 400)
  assert.notEqual(bad.json().code, 'FST_ERR_CTP_JSON_TOO_DEEP')
  // short, valid, at the limit
  assert.deepEqual((await post('[[[1]]]')).json(), { body: [[[1]]] })
  // exactly 2 × (limit + 1) characters, too deep: scanned before parsing
  assert.equal((await post(nest(4))).json().code, 'FST_ERR_CTP_JSON_TOO_DEEP')
  await app.close()
})
