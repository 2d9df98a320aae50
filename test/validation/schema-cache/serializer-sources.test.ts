/**
 * Response serializer sources in the schema cache: stored on the first boot, loaded on the next,
 * same answers as without the cache; keyed by the generator's fingerprint (a changed generator
 * never loads an older source), the shared schemas, the options; invalid schemas still fail at
 * ready(); constants that cannot be stored keep a schema out of the cache.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import trellis from '../../../src/index'
import { createSerializerSourceCache, currentSourceCacheVersions, generatorFingerprint } from '../../../src/schema/serialization/source-cache'
import { entries, forgePack, packFiles, restart, storedEntries, tempCacheDir } from './helpers'

const SERIALIZATION_DIR = join(__dirname, '..', '..', '..', 'src', 'schema', 'serialization')

const ADDRESS = { $id: 'address', type: 'object', properties: { city: { type: 'string' }, zip: { type: 'integer' } } }
const RESPONSES: Record<string, unknown> = {
  // straight-line object (its constants: arrays of strings)
  '/flat': { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, ok: { type: 'boolean' }, score: { type: 'number' } } },
  // additionalProperties false + patternProperties (constants: a Set and a RegExp)
  '/pattern': { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } }, patternProperties: { '^x-': { type: 'integer' } } },
  // array of objects, a $ref to a shared schema, a date-time
  '/list': { type: 'array', items: { type: 'object', properties: { at: { type: 'string', format: 'date-time' }, where: { $ref: 'address#' } } } }
}
const PAYLOADS: Record<string, unknown> = {
  '/flat': { id: 7.9, name: 'ann "q"', ok: 1, score: '2.5', extra: true },
  '/pattern': { a: 'x', 'x-n': 4.2, 'y-n': 1, b: 2 },
  '/list': [{ at: new Date(0).toISOString(), where: { city: 'Oslo', zip: '0150', other: 1 } }, { where: null }]
}

/** The serializer entries stored (verified), newest copy of each key. */
function serializerEntries (dir: string) {
  const newest = new Map<string, ReturnType<typeof storedEntries>[number]>()
  for (const e of storedEntries(dir)) {
    if (e.kind !== 'serializer' || !e.verified) continue
    const seen = newest.get(e.key)
    if (seen === undefined || seen.time < e.time) newest.set(e.key, e)
  }
  return [...newest.values()]
}

/** Cache writes made outside ready() (a direct compile) are flushed at the end of the task. */
const endOfTask = async (): Promise<void> => { await new Promise((resolve) => setImmediate(resolve)) }

/** A server with the response schemas above (each boot adds a new copy of the shared schema, so nothing comes from the in-process caches). */
async function answers (options: Record<string, unknown>, extra?: (app: any) => void): Promise<string[]> {
  const app = trellis({ logger: false, ...options })
  app.addSchema(structuredClone(ADDRESS))
  for (const url of Object.keys(RESPONSES)) {
    app.get(url, { schema: { response: { 200: structuredClone(RESPONSES[url]) } } }, async () => PAYLOADS[url])
  }
  extra?.(app)
  await app.ready()
  const out: string[] = []
  for (const url of Object.keys(RESPONSES)) {
    const res = await app.inject({ method: 'GET', url })
    out.push(`${url} ${res.statusCode} ${res.body}`)
  }
  await app.close()
  return out
}

test('serializer sources are stored on the first boot and loaded on the next: same answers, nothing written again', async (t) => {
  const dir = tempCacheDir(t)
  const uncached = await answers({})
  const cold = await answers({ schemaCache: { dir } })
  assert.equal(serializerEntries(dir).length, Object.keys(RESPONSES).length, 'one entry per response schema')
  assert.equal(packFiles(dir).length, 1, 'all in one pack with the validators\' marker')
  restart()
  const before = entries(dir)
  const warm = await answers({ schemaCache: { dir } })
  assert.deepEqual(entries(dir), before, 'a warm boot writes nothing: every serializer came from the cache')
  assert.deepEqual(cold, uncached)
  assert.deepEqual(warm, uncached)
  assert.equal(uncached[0], '/flat 200 {"id":7,"name":"ann \\"q\\"","ok":true,"score":2.5}')
})

test('the stored source is the code that runs (so a changed generator must not load it)', async (t) => {
  const dir = tempCacheDir(t)
  await answers({ schemaCache: { dir } })
  const forged = serializerEntries(dir).map((e) => {
    const entry = JSON.parse(e.content)
    entry.source = "'use strict'\nreturn function main () { return '\"from the cache\"' }\n"
    return { key: e.key, kind: 'serializer' as const, content: JSON.stringify(entry), time: e.time + 1 }
  })
  forgePack(dir, forged)
  restart()
  const warm = await answers({ schemaCache: { dir } })
  assert.deepEqual(warm.map((a) => a.split(' ').slice(2).join(' ')), Object.keys(RESPONSES).map(() => '"from the cache"'))

  // the same schemas under another generator fingerprint: other keys, generated again
  const other = createSerializerSourceCache(dir, { address: ADDRESS }, { ...currentSourceCacheVersions(), generator: 'another generator' })
  assert.ok(other !== undefined)
  const count = serializerEntries(dir).length
  const fn = other.compile(RESPONSES['/flat'], {})
  assert.ok(fn !== undefined)
  assert.equal(fn(PAYLOADS['/flat']), '{"id":7,"name":"ann \\"q\\"","ok":true,"score":2.5}')
  await endOfTask()
  assert.equal(serializerEntries(dir).length, count + 1, 'a new entry under the new key')
})

test('the generator fingerprint changes with any change of the generator files or of the $ref resolver', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'trellis-fingerprint-'))
  t.after(() => rmSync(root, { recursive: true, force: true }))
  const copy = join(root, 'serialization')
  mkdirSync(copy)
  cpSync(SERIALIZATION_DIR, copy, { recursive: true })
  cpSync(join(SERIALIZATION_DIR, '..', 'ref-resolver.ts'), join(root, 'ref-resolver.ts'))
  const real = generatorFingerprint(SERIALIZATION_DIR)
  assert.match(String(real), /^[0-9a-f]{64}$/)
  assert.equal(generatorFingerprint(copy), real, 'same files, same fingerprint')
  const file = join(copy, 'generate-object.ts')
  const text = readFileSync(file, 'utf8')
  writeFileSync(file, text + ' ')
  const changed = generatorFingerprint(copy)
  assert.notEqual(changed, real, 'one byte more in one file')
  writeFileSync(file, text)
  assert.equal(generatorFingerprint(copy), real)
  writeFileSync(join(root, 'ref-resolver.ts'), readFileSync(join(root, 'ref-resolver.ts'), 'utf8') + '\n')
  assert.notEqual(generatorFingerprint(copy), real, 'the $ref resolver changed')
  assert.equal(generatorFingerprint(join(root, 'missing')), undefined, 'unreadable: no fingerprint (the cache is not used for serializers)')
  assert.equal(createSerializerSourceCache(root, {}, { ...currentSourceCacheVersions(), generator: undefined }), undefined)
})

test('the key includes the shared schemas, the rounding option and the versions', async (t) => {
  const dir = tempCacheDir(t)
  const versions = currentSourceCacheVersions()
  const schema = RESPONSES['/flat']
  const compileWith = async (shared: Record<string, unknown>, rounding?: 'floor', v = versions): Promise<void> => {
    const cache = createSerializerSourceCache(dir, shared, v)
    assert.ok(cache !== undefined)
    assert.ok(cache.compile(schema, { rounding, sharedSchemas: shared }) !== undefined)
    await endOfTask()
  }
  await compileWith({ address: ADDRESS })
  assert.equal(serializerEntries(dir).length, 1)
  await compileWith({ address: structuredClone(ADDRESS) })
  assert.equal(serializerEntries(dir).length, 1, 'equal shared schemas, equal content: the same key')
  await compileWith({ address: { ...ADDRESS, properties: { city: { type: 'string' } } } })
  assert.equal(serializerEntries(dir).length, 2, 'another shared set')
  await compileWith({ address: ADDRESS }, 'floor')
  assert.equal(serializerEntries(dir).length, 3, 'another rounding')
  await compileWith({ address: ADDRESS }, undefined, { ...versions, trellis: versions.trellis + '-x' })
  await compileWith({ address: ADDRESS }, undefined, { ...versions, v8: '0.0' })
  await compileWith({ address: ADDRESS }, undefined, { ...versions, format: versions.format + 1 })
  assert.equal(serializerEntries(dir).length, 6, 'each version')
})

test('an invalid response schema and an invalid shared schema still fail at ready() with a warm cache', async (t) => {
  const dir = tempCacheDir(t)
  await answers({ schemaCache: { dir } })
  const bad = trellis({ logger: false, schemaCache: { dir } })
  bad.get('/bad', { schema: { response: { 200: { type: 'strnig' } } } }, async () => 'x')
  await assert.rejects(bad.ready(), /schema is invalid/)
  await assert.rejects(answers({ schemaCache: { dir } }, (app) => app.addSchema({ $id: 'broken', type: 'object', required: 'name' })), /schema is invalid/)
})

test('a schema whose constants cannot be stored (anyOf matchers) is generated on every boot and still serializes', async (t) => {
  const dir = tempCacheDir(t)
  const schema = { anyOf: [{ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'string' } } }] }
  for (let boot = 0; boot < 2; boot++) {
    const app = trellis({ logger: false, schemaCache: { dir } })
    app.addSchema(structuredClone(ADDRESS))
    app.get('/', { schema: { response: { 200: structuredClone(schema) } } }, async () => ({ b: 'x', c: 1 }))
    await app.ready()
    assert.equal((await app.inject('/')).body, '{"b":"x"}')
    await app.close()
  }
  assert.deepEqual(serializerEntries(dir), [], 'nothing stored')
})

test('an entry that is not a serializer entry is ignored, generated again and rewritten', async (t) => {
  const dir = tempCacheDir(t)
  const uncached = await answers({})
  await answers({ schemaCache: { dir } })
  const stored = serializerEntries(dir)
  assert.equal(stored.length, 3)
  forgePack(dir, stored.map((e) => ({ key: e.key, kind: 'serializer' as const, content: 'not json', time: e.time + 1 })))
  restart()
  assert.deepEqual(await answers({ schemaCache: { dir } }), uncached)
  assert.equal(serializerEntries(dir).length, 3)
  for (const e of serializerEntries(dir)) assert.notEqual(e.content, 'not json', 'written again, and the newer copy')
})
