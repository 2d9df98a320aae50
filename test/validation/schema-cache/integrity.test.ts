/**
 * What the cache reads is checked before it runs: a truncated, altered, empty, foreign or
 * unknown-format pack, or an entry listed under another key, is a miss (compiled again and written
 * again), never a crash; cached code gets only Ajv's runtime helpers and ajv-formats as `require`;
 * an unusable directory turns the cache off with a warning.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import trellis from '../../../src/index'
import { createValidatorCodeCache } from '../../../src/schema/validation/compile-cache/validator-code-cache'
import { effectiveAjvOptions } from '../../../src/schema/validation/index'
import { entries, forgePack, packFiles, restart, storedContent, storedEntries, tempCacheDir, unreadablePacks } from './helpers'

const SCHEMA = { type: 'object', properties: { n: { type: 'integer', maximum: 5 } } }
const OTHER = { type: 'object', properties: { s: { type: 'string' } } }

function keyOf (dir: string, schema: unknown): string {
  const key = createValidatorCodeCache({ dir }, {}, effectiveAjvOptions({}), {}, [])?.keyOf(schema)
  assert.ok(key !== undefined)
  return key
}

/** Boots a server (as a restarted process) using SCHEMA and OTHER and returns the answers to n=5 and n=9. */
async function boot (dir: string): Promise<number[]> {
  restart()
  const app = trellis({ logger: false, schemaCache: { dir } })
  app.post('/', { schema: { body: structuredClone(SCHEMA) } }, async (r) => r.body)
  app.post('/other', { schema: { body: structuredClone(OTHER) } }, async (r) => r.body)
  await app.ready()
  const ok = await app.inject({ method: 'POST', url: '/', payload: { n: 5 } })
  const bad = await app.inject({ method: 'POST', url: '/', payload: { n: 9 } })
  await app.close()
  return [ok.statusCode, bad.statusCode]
}

const CORRUPTIONS: Record<string, (file: string, dir: string) => void> = {
  truncated: (file) => { const bytes = readFileSync(file); writeFileSync(file, bytes.subarray(0, bytes.length - 40)) },
  'cut after the index': (file) => { const bytes = readFileSync(file); writeFileSync(file, bytes.subarray(0, bytes.indexOf('\n', bytes.indexOf('\n') + 1) + 1)) },
  'one byte of code changed': (file) => { writeFileSync(file, readFileSync(file, 'latin1').replace(/> 5\b/, '> 9'), 'latin1') },
  'index changed': (file) => { writeFileSync(file, readFileSync(file, 'latin1').replace('"validator"', '"serializer"'), 'latin1') },
  'bytes appended': (file) => { writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from('\n')])) },
  empty: (file) => { writeFileSync(file, '') },
  'not a pack': (file) => { writeFileSync(file, 'module.exports = () => true\n') }
}

for (const [name, corrupt] of Object.entries(CORRUPTIONS)) {
  test(`a ${name} pack is ignored: the boot succeeds, validates correctly, and writes the entry again`, async (t) => {
    const dir = tempCacheDir(t)
    assert.deepEqual(await boot(dir), [200, 400])
    const key = keyOf(dir, SCHEMA)
    assert.match(String(storedContent(dir, key)), /> 5\b/)
    const [pack] = packFiles(dir)
    corrupt(join(dir, pack), dir)
    assert.equal(storedContent(dir, key), undefined)
    assert.deepEqual(await boot(dir), [200, 400])
    assert.match(String(storedContent(dir, key)), /> 5\b/, 'written again, and it verifies')
    assert.deepEqual(unreadablePacks(dir), [], 'a broken pack is replaced or removed')
    assert.deepEqual(await boot(dir), [200, 400])
  })
}

test('files under a pack name that are not packs (empty, garbage, a broken header) are removed; the boot is fine', async (t) => {
  const dir = tempCacheDir(t)
  writeFileSync(join(dir, 'e'.repeat(64) + '.pack'), '')
  writeFileSync(join(dir, 'f'.repeat(64) + '.pack'), 'garbage\n')
  writeFileSync(join(dir, 'd'.repeat(64) + '.pack'), 'trellis-schema-pack 2 10 0 ' + '0'.repeat(64) + '\n[]')
  assert.deepEqual(await boot(dir), [200, 400])
  assert.equal(packFiles(dir).length, 1)
  assert.deepEqual(unreadablePacks(dir), [])
})

test('an entry listed under another key (a foreign entry) is ignored; the rest of its pack is used', async (t) => {
  const dir = tempCacheDir(t)
  const key = keyOf(dir, SCHEMA)
  const g = globalThis as { __trellisForeignRan?: boolean }
  delete g.__trellisForeignRan
  const foreign = 'globalThis.__trellisForeignRan = true; module.exports = () => true'
  // SCHEMA's key holds an entry whose hash was made for OTHER's key: a pack assembled wrongly
  forgePack(dir, [{ key, content: foreign, hashKey: keyOf(dir, OTHER) }, { key: keyOf(dir, OTHER), content: 'module.exports = function v () { return true }' }])
  assert.deepEqual(await boot(dir), [200, 400])
  assert.equal(g.__trellisForeignRan, undefined, 'never run')
  // the pack's other entry (right key, right hash) was used: OTHER was not compiled, so not written again
  assert.equal(storedEntries(dir).filter((e) => e.key === keyOf(dir, OTHER)).length, 1)
})

test('code whose hash does not match is never run', async (t) => {
  const dir = tempCacheDir(t)
  const g = globalThis as { __trellisCacheRan?: boolean }
  delete g.__trellisCacheRan
  forgePack(dir, [{ key: keyOf(dir, SCHEMA), content: 'globalThis.__trellisCacheRan = true; module.exports = () => true\n', hash: '0'.repeat(64) }])
  assert.deepEqual(await boot(dir), [200, 400])
  assert.equal(g.__trellisCacheRan, undefined)
})

test('a pack of another format (another trellis version) is neither read nor removed', async (t) => {
  const dir = tempCacheDir(t)
  const file = forgePack(dir, [{ key: keyOf(dir, SCHEMA), content: 'module.exports = () => true' }], undefined, 3)
  assert.deepEqual(await boot(dir), [200, 400])
  assert.ok(readdirSync(dir).includes(file.split('/').pop() as string))
  assert.equal(packFiles(dir).length, 2)
})

test('cached code may require only Ajv\'s runtime helpers and ajv-formats; otherwise it is compiled again', async (t) => {
  const dir = tempCacheDir(t)
  const key = keyOf(dir, SCHEMA)
  forgePack(dir, [{ key, content: 'const cp = require("node:child_process"); module.exports = () => true\n', time: Date.now() - 1000 }])
  assert.deepEqual(await boot(dir), [200, 400])
  assert.doesNotMatch(String(storedContent(dir, key)), /child_process/, 'superseded by the compiled code (a newer copy)')
  assert.deepEqual(await boot(dir), [200, 400])
  forgePack(dir, [{ key, content: 'const p = require("../../../../package.json"); module.exports = () => true\n', time: Date.now() + 60_000 }])
  assert.deepEqual(await boot(dir), [200, 400])
})

test('what the directory holds with a valid hash is run: a verified entry is used as is (the directory is trusted like code)', async (t) => {
  const dir = tempCacheDir(t)
  forgePack(dir, [{ key: keyOf(dir, SCHEMA), content: 'const eq = require("ajv/dist/runtime/equal").default; module.exports = function v () { return eq(1, 1) }\n' }])
  assert.deepEqual(await boot(dir), [200, 200])
})

test('a directory writable by others is not used (a warning says why), and validation still works', async (t) => {
  const dir = tempCacheDir(t)
  chmodSync(dir, 0o777)
  const warnings: string[] = []
  t.mock.method(process, 'emitWarning', (message: string) => { warnings.push(String(message)) })
  assert.deepEqual(await boot(dir), [200, 400])
  assert.equal(readdirSync(dir).length, 0)
  assert.equal(warnings.length, 1)
  assert.match(warnings[0], /writable by group or others/)
})

test('a cache directory that cannot be created turns the cache off; the server still boots', async (t) => {
  const dir = tempCacheDir(t)
  writeFileSync(join(dir, 'file'), 'x')
  t.mock.method(process, 'emitWarning', () => {})
  assert.deepEqual(await boot(join(dir, 'file', 'sub')), [200, 400])
  assert.deepEqual([...entries(dir).keys()], ['file'])
})
