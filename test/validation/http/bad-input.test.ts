/**
 * Hostile or malformed input over the server: each request gets ONE 400 validation error
 * (allErrors stays false), and the server keeps answering valid requests afterwards.
 */
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { trellis } from './helpers'

describe('bad input: one 400 error, and the server keeps answering', () => {
  const app = trellis()
  const errors: Array<{ context: string, count: number }> = []
  app.addHook('onError', (_req: unknown, _reply: unknown, err: any, done: () => void) => {
    errors.push({ context: err.validationContext, count: Array.isArray(err.validation) ? err.validation.length : -1 })
    done()
  })
  app.addSchema({ $id: 'node', type: 'object', properties: { child: { $ref: 'node#' } } })
  app.post('/user', { schema: { body: { type: 'object', properties: { name: { type: 'string', maxLength: 20 }, tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 } } }, required: ['name'], additionalProperties: false } } }, async (req: any) => ({ ok: true, name: req.body.name }))
  app.post('/tree', { schema: { body: { $ref: 'node#' } } }, async () => ({ ok: true }))
  app.get('/q', { schema: { querystring: { type: 'object', properties: { ids: { type: 'array', maxItems: 5, items: { type: 'integer' } }, s: { type: 'string', maxLength: 8 } } } } }, async (req: any) => req.query)
  before(() => app.ready())
  after(() => app.close())

  async function expectOne400 (opts: Record<string, unknown>, message: string | RegExp, context = 'body'): Promise<void> {
    errors.length = 0
    const res = await app.inject({ method: 'POST', url: '/user', ...opts } as never)
    assert.equal(res.statusCode, 400, res.body.slice(0, 200))
    const body = res.json()
    assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'message', 'statusCode'])
    if (typeof message === 'string') assert.equal(body.message, message)
    else assert.match(body.message, message)
    assert.ok(body.message.length < 200, 'the message does not echo the input')
    assert.deepEqual(errors, [{ context, count: 1 }])
    const ok = await app.inject({ method: 'POST', url: '/user', payload: { name: 'still here' } })
    assert.deepEqual(ok.json(), { ok: true, name: 'still here' })
  }

  const json = { 'content-type': 'application/json' }
  for (const [label, payload] of [['a string', '"hello"'], ['a number', '42'], ['an array', '[1,2,3]'], ['null', 'null'], ['true', 'true']]) {
    it(`non-object JSON body: ${label}`, () => expectOne400({ payload, headers: json }, 'body must be object'))
  }

  it('a huge array against maxItems', () =>
    expectOne400({ payload: { name: 'a', tags: new Array(100_000).fill('t') } }, 'body/tags must NOT have more than 10 items'))

  it('a huge array of wrong items reports only the first', () =>
    expectOne400({ payload: { name: 'a', tags: new Array(9).fill(1e300).map(() => ({})) } }, 'body/tags/0 must be string'))

  it('a long string against maxLength', () =>
    expectOne400({ payload: { name: 'x'.repeat(500_000) } }, 'body/name must NOT have more than 20 characters'))

  it('deep nesting against a flat schema', () =>
    expectOne400({ payload: '{"n":'.repeat(50_000) + '1' + '}'.repeat(50_000), headers: json }, "body must have required property 'name'"))

  it('many unknown properties: removed (additionalProperties false), then the missing property is the one error', () =>
    expectOne400({ payload: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])) }, "body must have required property 'name'"))

  it('deep nesting against a recursive schema is a 400, not a stack overflow 500', async () => {
    for (const depth of [100, 100_000]) {
      errors.length = 0
      const payload = '{"child":'.repeat(depth) + '{}' + '}'.repeat(depth)
      const res = await app.inject({ method: 'POST', url: '/tree', payload, headers: json })
      if (depth === 100) { assert.equal(res.statusCode, 200); continue }
      assert.equal(res.statusCode, 400, res.body)
      assert.deepEqual(res.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body must NOT be nested this deeply' })
      assert.deepEqual(errors, [{ context: 'body', count: 1 }])
    }
    assert.equal((await app.inject({ method: 'POST', url: '/tree', payload: { child: {} } })).statusCode, 200)
  })

  it('a querystring with many repeated values against maxItems', async () => {
    errors.length = 0
    const url = '/q?' + Array.from({ length: 900 }, (_, i) => `ids=${i}`).join('&')
    const res = await app.inject({ url })
    assert.deepEqual(res.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'querystring/ids must NOT have more than 5 items' })
    assert.deepEqual(errors, [{ context: 'querystring', count: 1 }])
    assert.deepEqual((await app.inject({ url: '/q?ids=1&s=ok' })).json(), { ids: [1], s: 'ok' })
  })

  it('a long querystring value against maxLength', async () => {
    const res = await app.inject({ url: '/q?s=' + 'y'.repeat(50_000) })
    assert.equal(res.json().message, 'querystring/s must NOT have more than 8 characters')
  })

  it('many bad requests in parallel each get their 400; valid ones still succeed', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      app.inject({ method: 'POST', url: '/user', payload: i % 2 === 0 ? { tags: ['x'] } : { name: `n${i}` } })))
    results.forEach((r, i) => assert.equal(r.statusCode, i % 2 === 0 ? 400 : 200))
  })
})
