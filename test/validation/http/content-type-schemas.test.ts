import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../../src/index'
import { warnings } from '../../../src/base/warnings'

test('body schema per content type: the request media type picks the schema; a type without one is not validated', async () => {
  const app: any = trellis()
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req: unknown, body: string, done: (e: null, v: string) => void) => done(null, body))
  app.post('/', {
    schema: {
      body: {
        content: {
          'application/json': { schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
          'text/plain': { schema: { type: 'string', maxLength: 3 } }
        }
      }
    }
  }, async (req: any) => ({ body: req.body }))
  app.addContentTypeParser('application/x-other', { parseAs: 'string' }, (_req: unknown, body: string, done: (e: null, v: string) => void) => done(null, body))
  const ok = await app.inject({ method: 'POST', url: '/', payload: { n: '7' } })
  assert.deepEqual(ok.json(), { body: { n: 7 } }, 'JSON body validated and coerced by the JSON schema')
  const bad = await app.inject({ method: 'POST', url: '/', payload: {} })
  assert.equal(bad.statusCode, 400)
  assert.deepEqual(bad.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: "body must have required property 'n'" })
  const text = await app.inject({ method: 'POST', url: '/', payload: 'toolong', headers: { 'content-type': 'text/plain; charset=utf-8' } })
  assert.equal(text.statusCode, 400)
  assert.equal(text.json().message, 'body must NOT have more than 3 characters')
  const other = await app.inject({ method: 'POST', url: '/', payload: 'anything', headers: { 'content-type': 'application/x-other' } })
  assert.deepEqual(other.json(), { body: 'anything' })
})

test('async validators: a rejecting validator is a 400 for its part, then the following parts are still validated', async () => {
  const app: any = trellis()
  const seen: string[] = []
  app.setValidatorCompiler(({ httpPart }: { httpPart: string }) => (data: any) => {
    seen.push(httpPart)
    if (httpPart === 'body') {
      return Promise.resolve().then(() => {
        if (data.name === 'taken') { const err: any = new Error('name is taken'); throw err }
        return true
      })
    }
    if (httpPart === 'querystring') return data.q === 'bad' ? { error: new Error('bad q') } : true
    return true
  })
  app.post('/', { schema: { body: { type: 'object' }, querystring: { type: 'object' } } }, async (req: any) => ({ ok: req.body.name }))
  const ok = await app.inject({ method: 'POST', url: '/?q=1', payload: { name: 'free' } })
  assert.deepEqual(ok.json(), { ok: 'free' })
  assert.deepEqual(seen, ['body', 'querystring'])
  const taken = await app.inject({ method: 'POST', url: '/', payload: { name: 'taken' } })
  assert.equal(taken.statusCode, 400)
  assert.deepEqual(taken.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'name is taken' })
  const badQuery = await app.inject({ method: 'POST', url: '/?q=bad', payload: { name: 'free' } })
  assert.equal(badQuery.statusCode, 400)
  assert.equal(badQuery.json().message, 'bad q', 'the part after an async one is validated too')
})

test('Ajv $async schemas are awaited', async () => {
  const app: any = trellis({ ajv: { customOptions: { allErrors: false } } })
  app.post('/', { schema: { body: { $async: true, type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } } }, async (req: any) => req.body)
  assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { n: 1 } })).json(), { n: 1 })
  const bad = await app.inject({ method: 'POST', url: '/', payload: {} })
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().code, 'FST_ERR_VALIDATION')
})

test('FSTWRN001: a request part declared undefined warns once per route (GET and its HEAD), every time', async () => {
  const got: Array<{ name: string, code: string, message: string }> = []
  const onWarning = (w: any): void => { if (w.code === 'FSTWRN001') got.push({ name: w.name, code: w.code, message: w.message }) }
  process.on('warning', onWarning)
  try {
    const app: any = trellis()
    app.get('/a/:id', { schema: { params: undefined } }, async () => 'x')
    app.post('/b', { schema: { body: undefined, headers: undefined } }, async () => 'x')
    await app.ready()
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(got.map((w) => w.message), [
      'The params schema for GET: /a/:id is missing. This may indicate the schema is not well specified.',
      'The params schema for HEAD: /a/:id is missing. This may indicate the schema is not well specified.',
      'The headers schema for POST: /b is missing. This may indicate the schema is not well specified.',
      'The body schema for POST: /b is missing. This may indicate the schema is not well specified.'
    ])
    assert.ok(got.every((w) => w.name === 'FastifyWarning'))
  } finally {
    process.removeListener('warning', onWarning)
  }
})

test('deprecations are emitted once until `emitted` is reset (as process-warning)', async () => {
  const codes: string[] = []
  const onWarning = (w: any): void => { if (w.name === 'DeprecationWarning' && typeof w.code === 'string' && w.code.startsWith('FSTDEP')) codes.push(w.code) }
  process.on('warning', onWarning)
  try {
    warnings.FSTDEP008.emitted = false
    for (let i = 0; i < 2; i++) trellis().get('/', { version: '1.0.0' } as any, async () => 'x')
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(codes, ['FSTDEP008'])
    assert.equal(warnings.FSTDEP008.emitted, true)
    warnings.FSTDEP008.emitted = false
    trellis().get('/', { version: '1.0.0' } as any, async () => 'x')
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(codes, ['FSTDEP008', 'FSTDEP008'])
  } finally {
    process.removeListener('warning', onWarning)
  }
})

test('response schema per content type: the reply content type picks the serializer; a missing schema fails ready()', async () => {
  const app: any = trellis()
  app.get('/', {
    schema: {
      response: {
        200: {
          content: {
            'application/json': { schema: { type: 'object', properties: { a: { type: 'string' } } } },
            'application/vnd.v2+json': { schema: { type: 'object', properties: { b: { type: 'string' } } } }
          }
        }
      }
    }
  }, async (req: any, reply: any) => {
    if (req.query.v === '2') reply.type('application/vnd.v2+json')
    return { a: 'A', b: 'B', secret: 'S' }
  })
  assert.equal((await app.inject('/')).payload, '{"a":"A"}')
  assert.equal((await app.inject('/?v=2')).payload, '{"b":"B"}')
  const broken: any = trellis()
  broken.get('/', { schema: { response: { 200: { content: { 'application/json': { schema: { type: 'object' } }, 'text/plain': {} } } } } }, async () => 'x')
  await assert.rejects(broken.ready(), { code: 'FST_ERR_SCH_CONTENT_MISSING_SCHEMA', message: "Schema is missing for the content type 'text/plain'" })
})
