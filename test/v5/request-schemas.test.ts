// Fastify 5's request-part schemas: boolean `false` is a schema, `null` a build error, FSTWRN001
// only for `undefined`, a compiler may return no validator, no shorthand, and the warnings about
// `$ref`s that header-name lowercasing cannot reach (FSTSEC002 / FSTSEC003).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

/** Runs `fn` and returns the [code, message] of every process warning emitted meanwhile. */
async function warningsDuring (fn: () => Promise<void>): Promise<Array<[string, string]>> {
  const seen: Array<[string, string]> = []
  const listener = (w: Error & { code?: string }): void => { seen.push([String(w.code), w.message]) }
  process.on('warning', listener)
  try {
    await fn()
    await new Promise((resolve) => setImmediate(resolve)) // process warnings are emitted on the next tick
  } finally {
    process.off('warning', listener)
  }
  return seen
}

for (const [name, factory] of v5Targets) {
  test(`${name}: a false request-part schema rejects every request before the handler`, async () => {
    const app = factory({ exposeHeadRoutes: false })
    const ran: string[] = []
    app.post('/body', { schema: { body: false } }, async () => { ran.push('body'); return 'ran' })
    app.get('/query', { schema: { query: false } }, async () => { ran.push('query'); return 'ran' })
    app.post('/params/:id', { schema: { params: false } }, async () => { ran.push('params'); return 'ran' })
    app.get('/headers', { schema: { headers: false } }, async () => { ran.push('headers'); return 'ran' })
    for (const [method, url] of [['POST', '/body'], ['GET', '/query?x=1'], ['POST', '/params/1'], ['GET', '/headers']]) {
      const res = await app.inject({ method, url, payload: method === 'POST' ? {} : undefined })
      assert.equal(res.statusCode, 400, url)
      assert.equal(res.json().code, 'FST_ERR_VALIDATION', url)
    }
    assert.deepEqual(ran, [])
    assert.equal(typeof app.validatorCompiler, 'function')
    await app.close()
  })

  test(`${name}: a custom compiler gets the literal false; query and querystring together still throw`, async () => {
    const received: unknown[] = []
    const app = factory({ exposeHeadRoutes: false })
    app.post('/', {
      schema: { body: false },
      validatorCompiler: ({ schema }: any) => { received.push(schema); return () => true }
    }, async () => 'ok')
    await app.ready()
    assert.deepEqual(received, [false])
    await app.close()

    const both = factory()
    both.get('/', { schema: { query: false, querystring: false } }, async () => 'ok')
    await assert.rejects(both.ready(), { code: 'FST_ERR_SCH_DUPLICATE' })
  })

  test(`${name}: a null request-part schema fails the build`, async () => {
    const app = factory()
    app.post('/', { schema: { body: null } }, async () => 'ok')
    await assert.rejects(app.ready(), { code: 'FST_ERR_SCH_VALIDATION_BUILD' })
  })

  test(`${name}: FSTWRN001 for a part set to undefined, not for false`, async () => {
    const app = factory({ exposeHeadRoutes: false })
    app.post('/false', { schema: { body: false } }, async () => 'ok')
    app.post('/undefined', { schema: { body: undefined } }, async () => 'ok')
    const seen = await warningsDuring(() => app.ready())
    assert.deepEqual(seen.filter(([code]) => code === 'FSTWRN001').map(([, message]) => message),
      ['The body schema for POST: /undefined is missing. This may indicate the schema is not well specified.'])
    assert.equal((await app.inject({ method: 'POST', url: '/undefined', payload: {} })).statusCode, 200)
    await app.close()
  })

  test(`${name}: a validator compiler that returns nothing leaves that part unvalidated`, async () => {
    const app = factory()
    app.post('/', {
      schema: { body: { type: 'object', required: ['a'] } },
      validatorCompiler: () => undefined
    }, async (req: any) => req.body)
    const res = await app.inject({ method: 'POST', url: '/', payload: { b: 1 } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { b: 1 })
    await app.close()
  })

  test(`${name}: no shorthand: a part schema is given to the compiler as written`, async () => {
    const received: unknown[] = []
    const app = factory({ exposeHeadRoutes: false })
    app.get('/:id', {
      schema: { params: { id: { type: 'integer' } } },
      validatorCompiler: ({ schema }: any) => { received.push(schema); return () => true }
    }, async (req: any) => req.params)
    assert.deepEqual((await app.inject('/42')).json(), { id: '42' })
    assert.deepEqual(received, [{ id: { type: 'integer' } }])
    await app.close()
  })

  test(`${name}: FSTSEC002 for an external $ref in a headers schema, FSTSEC003 for a $ref under propertyNames`, async () => {
    const app = factory({ exposeHeadRoutes: false })
    app.addSchema({ $id: 'http://example.com/h', type: 'object', properties: { 'X-Admin': { type: 'string' } } })
    app.get('/external', { schema: { headers: { allOf: [{ $ref: 'http://example.com/h#' }] } } }, async () => 'ok')
    app.get('/names', {
      schema: {
        headers: {
          type: 'object',
          propertyNames: { not: { $ref: '#/definitions/denied' } },
          definitions: { denied: { enum: ['X-Debug'] } }
        }
      }
    }, async () => 'ok')
    app.get('/inline', { schema: { headers: { type: 'object', $ref: '#/definitions/h', definitions: { h: { type: 'object' } } } } }, async () => 'ok')
    const seen = await warningsDuring(() => app.ready())
    const sec = seen.filter(([code]) => code.startsWith('FSTSEC'))
    assert.equal(sec.length, 2)
    assert.equal(sec[0][0], 'FSTSEC002')
    assert.match(sec[0][1], /^The headers schema for GET: \/external references an external \$ref \(http:\/\/example\.com\/h#\)/)
    assert.equal(sec[1][0], 'FSTSEC003')
    assert.match(sec[1][1], /^The headers schema for GET: \/names uses a \$ref \(#\/definitions\/denied\) inside propertyNames/)
    await app.close()
  })
}

test('trellis (v4 line): false is no schema (FSTWRN001), a compiler returning nothing fails the build', async () => {
  const app = v4({ exposeHeadRoutes: false })
  app.post('/', { schema: { body: false } }, async (req: any) => req.body)
  const seen = await warningsDuring(() => app.ready())
  assert.deepEqual(seen.filter(([code]) => code === 'FSTWRN001').map(([, message]) => message),
    ['The body schema for POST: / is missing. This may indicate the schema is not well specified.'])
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })).statusCode, 200)
  await app.close()

  const refused = v4()
  refused.post('/', { schema: { body: { type: 'object' } }, validatorCompiler: () => undefined }, async () => 'ok')
  await assert.rejects(refused.ready(), { code: 'FST_ERR_SCH_VALIDATION_BUILD' })
})

test('trellis (v4 line): the shorthand is expanded, and not with jsonShorthand: false', async () => {
  for (const [options, expected] of [[{}, { type: 'object', properties: { id: { type: 'integer' } } }], [{ jsonShorthand: false }, { id: { type: 'integer' } }]] as const) {
    const received: unknown[] = []
    const app = v4({ ...options, exposeHeadRoutes: false })
    app.get('/:id', {
      schema: { params: { id: { type: 'integer' } } },
      validatorCompiler: ({ schema }: any) => { received.push(schema); return () => true }
    }, async (req: any) => req.params)
    await app.ready()
    assert.deepEqual(received, [expected])
    await app.close()
  }
})
