/**
 * Configurations whose generated code depends on more than plain data bypass the cache (nothing is
 * read or written) and compile as without it; invalid schemas fail at ready() with the cache on,
 * cold or warm, exactly as without it.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../../src/index'
import { clearValidatorCompilerPool } from '../../../src/schema/validation/index'
import { entries, packFiles, storedEntries, tempCacheDir } from './helpers'

const BODY = { type: 'object', properties: { n: { type: 'integer', maximum: 5 }, s: { type: 'string', format: 'even' } } }

async function statuses (options: Record<string, unknown>, route: Record<string, unknown> = {}) {
  clearValidatorCompilerPool()
  const app = trellis({ logger: false, ...options })
  app.post('/', { schema: { body: structuredClone(BODY) }, ...route }, async (r) => r.body)
  await app.ready()
  const out = []
  for (const payload of [{ n: 5, s: 'aa' }, { n: 9 }, { s: 'odd' }]) out.push((await app.inject({ method: 'POST', url: '/', payload })).statusCode)
  await app.close()
  return out
}

const evenFormat = (s: string) => s.length % 2 === 0

test('ajv.plugins: bypassed', async (t) => {
  const dir = tempCacheDir(t)
  const addEven = (ajv: { addFormat: (n: string, f: unknown) => void }) => { ajv.addFormat('even', evenFormat) }
  assert.deepEqual(await statuses({ schemaCache: { dir }, ajv: { plugins: [addEven] } }), [200, 400, 400])
  assert.equal(entries(dir).size, 0)
})

test('a custom format given as a function (customOptions.formats): bypassed', async (t) => {
  const dir = tempCacheDir(t)
  assert.deepEqual(await statuses({ schemaCache: { dir }, ajv: { customOptions: { formats: { even: evenFormat } } } }), [200, 400, 400])
  assert.equal(entries(dir).size, 0)
})

test('custom keywords with functions (customOptions.keywords): bypassed', async (t) => {
  const dir = tempCacheDir(t)
  const keywords = [{ keyword: 'even', validate: (_s: unknown, d: unknown) => typeof d === 'string' && d.length % 2 === 0 }]
  const schema = { type: 'object', properties: { s: { type: 'string', even: true } } }
  clearValidatorCompilerPool()
  const app = trellis({ logger: false, schemaCache: { dir }, ajv: { customOptions: { keywords } } })
  app.post('/', { schema: { body: schema } }, async (r) => r.body)
  await app.ready()
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: { s: 'aa' } })).statusCode, 200)
  assert.equal((await app.inject({ method: 'POST', url: '/', payload: { s: 'a' } })).statusCode, 400)
  await app.close()
  assert.equal(entries(dir).size, 0)
})

test('addUsedSchema: true (route schemas with $id referable by later routes): bypassed, cold and warm alike', async (t) => {
  const dir = tempCacheDir(t)
  async function boot () {
    clearValidatorCompilerPool()
    const app = trellis({ logger: false, schemaCache: { dir }, ajv: { customOptions: { addUsedSchema: true } } })
    app.post('/a', { schema: { body: { $id: 'a', type: 'object', properties: { n: { type: 'integer', maximum: 5 } } } } }, async (r) => r.body)
    app.post('/b', { schema: { body: { type: 'object', properties: { a: { $ref: 'a#' } } } } }, async (r) => r.body)
    await app.ready()
    const status = (await app.inject({ method: 'POST', url: '/b', payload: { a: { n: 9 } } })).statusCode
    await app.close()
    return status
  }
  assert.equal(await boot(), 400)
  assert.equal(await boot(), 400)
  assert.equal(entries(dir).size, 0)
})

test('a custom validator compiler (route or setValidatorCompiler) never reaches the cache', async (t) => {
  const dir = tempCacheDir(t)
  let calls = 0
  const validatorCompiler = () => { calls++; return (data: { n?: number }) => (data.n ?? 0) <= 5 }
  assert.deepEqual(await statuses({ schemaCache: { dir } }, { validatorCompiler }), [200, 400, 200])
  assert.equal(calls, 1)
  assert.equal(entries(dir).size, 0)
})

test('a schema holding a value that is not plain JSON is compiled without the cache; the others are cached', async (t) => {
  const dir = tempCacheDir(t)
  clearValidatorCompilerPool()
  const app = trellis({ logger: false, schemaCache: { dir }, ajv: { customOptions: { strict: false } } })
  app.post('/a', { schema: { body: { type: 'object', properties: { n: { type: 'integer', maximum: 5 } }, note: () => 'x' } } }, async (r) => r.body)
  app.post('/b', { schema: { body: { type: 'object', properties: { n: { type: 'integer', maximum: 5 } } } } }, async (r) => r.body)
  await app.ready()
  for (const url of ['/a', '/b']) assert.equal((await app.inject({ method: 'POST', url, payload: { n: 9 } })).statusCode, 400)
  await app.close()
  assert.deepEqual(storedEntries(dir).map((e) => e.kind).sort(), ['marker', 'validator'], 'the shared-set marker and /b')
  assert.equal(packFiles(dir).length, 1)
})

for (const [name, schema] of Object.entries({
  'an unknown type': { type: 'strin' },
  'an unknown format': { type: 'string', format: 'no-such-format' },
  'an unresolvable $ref': { type: 'object', properties: { u: { $ref: 'missing#' } } },
  'an unknown keyword (strict mode)': { type: 'object', minimumLength: 3 }
})) {
  test(`${name} fails at ready() with the cache on, cold and again with a filled cache directory`, async (t) => {
    const dir = tempCacheDir(t)
    async function ready (options: Record<string, unknown>) {
      clearValidatorCompilerPool()
      const app = trellis({ logger: false, ...options })
      app.post('/ok', { schema: { body: { type: 'object', properties: { n: { type: 'integer' } } } } }, async () => 'ok')
      app.post('/bad', { schema: { body: schema } }, async () => 'bad')
      try {
        await app.ready()
        return 'ready'
      } catch (error) {
        return `${(error as { code?: string }).code}: ${(error as Error).message}`
      } finally {
        await app.close().catch(() => {})
      }
    }
    const without = await ready({})
    assert.match(without, /^FST_ERR_SCH_VALIDATION_BUILD: Failed building the validation schema for POST: \/bad/)
    assert.equal(await ready({ schemaCache: { dir } }), without)
    assert.ok(entries(dir).size > 0, 'the valid route was cached')
    assert.equal(await ready({ schemaCache: { dir } }), without)
  })
}

test('an invalid shared schema fails at ready() with the cache on, also after a valid set was cached', async (t) => {
  const dir = tempCacheDir(t)
  async function ready (shared: Record<string, unknown>, cache = true) {
    clearValidatorCompilerPool()
    const app = trellis({ logger: false, schemaCache: cache ? { dir } : false })
    app.addSchema(shared)
    app.post('/', { schema: { body: { type: 'object', properties: { n: { type: 'integer' } } } } }, async () => 'ok')
    try { await app.ready(); return 'ready' } catch (error) { return (error as Error).message } finally { await app.close().catch(() => {}) }
  }
  const without = await ready({ $id: 's', type: 'objec' }, false)
  assert.match(without, /schema is invalid/)
  assert.equal(await ready({ $id: 's', type: 'object' }), 'ready')
  assert.equal(await ready({ $id: 's', type: 'objec' }), without)
  assert.equal(await ready({ $id: 's', type: 'objec' }), without)
})
