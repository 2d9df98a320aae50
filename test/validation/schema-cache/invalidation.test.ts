/**
 * Invalidation: every input of a cache key (schema content, the shared schemas it reaches, the Ajv
 * options, the versions) changes the key; an unchanged input keeps it.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../../src/index'
import { createValidatorCodeCache, currentVersions } from '../../../src/schema/validation/compile-cache/validator-code-cache'
import { effectiveAjvOptions } from '../../../src/schema/validation/index'
import { packFiles, storedEntries, tempCacheDir } from './helpers'
import { USER } from './app'

const PLAIN = { type: 'object', properties: { n: { type: 'integer', maximum: 5 } } }
const REFS = { type: 'object', properties: { u: { $ref: 'user#' } } }

function cacheFor (dir: string, shared: Record<string, unknown> = { user: USER }, custom: Record<string, unknown> = {}, versions = currentVersions()) {
  const cache = createValidatorCodeCache({ dir }, shared, effectiveAjvOptions(custom), custom, [], versions)
  assert.ok(cache !== undefined)
  return cache
}

test('the key changes with the schema content (also key order), and not with the schema object', (t) => {
  const cache = cacheFor(tempCacheDir(t))
  const key = cache.keyOf(PLAIN)
  assert.match(String(key), /^[0-9a-f]{64}$/)
  assert.equal(cache.keyOf(structuredClone(PLAIN)), key)
  assert.notEqual(cache.keyOf({ type: 'object', properties: { n: { type: 'integer', maximum: 6 } } }), key)
  assert.notEqual(cache.keyOf({ properties: { n: { type: 'integer', maximum: 5 } }, type: 'object' }), key)
})

test('the key includes the shared schemas only for a schema that can reach them', (t) => {
  const dir = tempCacheDir(t)
  const a = cacheFor(dir)
  const changedUser = { ...USER, required: ['name', 'age'] }
  const b = cacheFor(dir, { user: changedUser })
  const c = cacheFor(dir, { user: USER, other: { $id: 'other', type: 'string' } })
  assert.notEqual(a.keyOf(REFS), b.keyOf(REFS), 'a changed shared schema')
  assert.notEqual(a.keyOf(REFS), c.keyOf(REFS), 'an added shared schema')
  assert.equal(a.keyOf(PLAIN), b.keyOf(PLAIN), 'a schema without $ref/$id does not depend on shared schemas')
  const withId = { $id: 'local', type: 'object', properties: { n: { $ref: '#/definitions/n' } }, definitions: { n: { type: 'integer' } } }
  assert.notEqual(a.keyOf(withId), b.keyOf(withId), 'a schema with an $id counts as reaching them')
})

test('the key changes with the Ajv options and with each version', (t) => {
  const dir = tempCacheDir(t)
  const base = cacheFor(dir).keyOf(PLAIN)
  assert.notEqual(cacheFor(dir, { user: USER }, { coerceTypes: false }).keyOf(PLAIN), base)
  assert.notEqual(cacheFor(dir, { user: USER }, { code: { optimize: true } }).keyOf(PLAIN), base)
  assert.equal(cacheFor(dir, { user: USER }, { code: { optimize: false } }).keyOf(PLAIN), base, 'the default code.optimize restated')
  assert.equal(cacheFor(dir, { user: USER }, { allErrors: false }).keyOf(PLAIN), base, 'the baseline value restated')
  const v = currentVersions()
  for (const changed of [{ ...v, format: v.format + 1 }, { ...v, trellis: v.trellis + '-x' }, { ...v, ajv: '8.0.0' }, { ...v, ajvFormats: '2.1.1' }, { ...v, nodeMajor: '99' }]) {
    assert.notEqual(cacheFor(dir, { user: USER }, {}, changed).keyOf(PLAIN), base, JSON.stringify(changed))
  }
})

test('a server with a changed schema, shared schema or option compiles (writes) again and validates by the new input', async (t) => {
  const dir = tempCacheDir(t)
  async function boot (options: Record<string, unknown>, user: Record<string, unknown>, max: number) {
    const app = trellis({ logger: false, schemaCache: { dir }, ...options })
    app.addSchema(structuredClone(user))
    app.post('/p', { schema: { body: { type: 'object', properties: { n: { type: 'integer', maximum: max } } } } }, async (r) => r.body)
    app.post('/u', { schema: { body: { $ref: 'user#' } } }, async (r) => r.body)
    await app.ready()
    const p = await app.inject({ method: 'POST', url: '/p', payload: { n: '5' } })
    const u = await app.inject({ method: 'POST', url: '/u', payload: { name: 'ann' } })
    await app.close()
    return [p.statusCode, p.body, u.statusCode]
  }
  // servers booted one after another in one process: each writes what it compiled as one new pack
  const stored = (): number => storedEntries(dir).length
  assert.deepEqual(await boot({}, USER, 5), [200, '{"n":5}', 200])
  const first = stored()
  assert.equal(packFiles(dir).length, 1)
  assert.deepEqual(await boot({}, USER, 4), [400, '{"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"body/n must be <= 4"}', 200])
  assert.equal(stored(), first + 1, 'the changed route schema: one new entry')
  assert.equal(packFiles(dir).length, 2)
  const second = stored()
  assert.deepEqual(await boot({}, { ...USER, required: ['name', 'age'] }, 4), [400, '{"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"body/n must be <= 4"}', 400])
  assert.equal(stored(), second + 2, 'the $ref route schema and the new shared set marker')
  const third = stored()
  assert.deepEqual(await boot({ ajv: { customOptions: { coerceTypes: false } } }, USER, 4), [400, '{"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"body/n must be integer"}', 200])
  assert.equal(stored(), third + 3, 'new options: both route schemas and the shared set marker')
  assert.equal(packFiles(dir).length, 4)
})
