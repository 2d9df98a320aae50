/**
 * What the cache reads is checked before it runs: a corrupt, truncated, foreign or altered entry is
 * a miss (compiled again and rewritten); cached code gets only Ajv's runtime helpers and ajv-formats
 * as `require`; an unusable directory turns the cache off with a warning.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { chmodSync, copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import trellis from '../../../src/index'
import { createValidatorCodeCache } from '../../../src/schema/validation/compile-cache/validator-code-cache'
import { readEntry } from '../../../src/schema/validation/compile-cache/store'
import { effectiveAjvOptions, clearValidatorCompilerPool } from '../../../src/schema/validation/index'
import { entries, tempCacheDir, writeVerifiedEntry } from './helpers'

const SCHEMA = { type: 'object', properties: { n: { type: 'integer', maximum: 5 } } }
const OTHER = { type: 'object', properties: { s: { type: 'string' } } }

function keyOf (dir: string, schema: unknown): string {
  const key = createValidatorCodeCache({ dir }, {}, effectiveAjvOptions({}), {}, [])?.keyOf(schema)
  assert.ok(key !== undefined)
  return key
}

/** Boots a server using SCHEMA and OTHER and returns the answers to n=5 and n=9. */
async function boot (dir: string): Promise<number[]> {
  clearValidatorCompilerPool()
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
  truncated: (file) => { const text = readFileSync(file, 'utf8'); writeFileSync(file, text.slice(0, text.length >> 1)) },
  'one byte changed': (file) => { writeFileSync(file, readFileSync(file, 'utf8').replace(/> 5\b/, '> 9')) },
  empty: (file) => { writeFileSync(file, '') },
  'not a cache file': (file) => { writeFileSync(file, 'module.exports = () => true\n') },
  'another key\'s entry': (file, dir) => { copyFileSync(join(dir, keyOf(dir, OTHER) + '.js'), file) }
}

for (const [name, corrupt] of Object.entries(CORRUPTIONS)) {
  test(`a ${name} entry is ignored, compiled again and rewritten`, async (t) => {
    const dir = tempCacheDir(t)
    assert.deepEqual(await boot(dir), [200, 400])
    const key = keyOf(dir, SCHEMA)
    const file = join(dir, key + '.js')
    const good = readEntry(dir, key)
    assert.match(String(good), /> 5\b/)
    corrupt(file, dir)
    assert.equal(readEntry(dir, key), undefined)
    assert.deepEqual(await boot(dir), [200, 400])
    assert.equal(typeof readEntry(dir, key), 'string', 'rewritten, and it verifies')
  })
}

test('code whose hash does not match is never run', async (t) => {
  const dir = tempCacheDir(t)
  const key = keyOf(dir, SCHEMA)
  const g = globalThis as { __trellisCacheRan?: boolean }
  delete g.__trellisCacheRan
  writeFileSync(join(dir, key + '.js'), `// trellis-schema-cache 1 ${key} ${'0'.repeat(64)}\nglobalThis.__trellisCacheRan = true; module.exports = () => true\n`)
  assert.deepEqual(await boot(dir), [200, 400])
  assert.equal(g.__trellisCacheRan, undefined)
})

test('cached code may require only Ajv\'s runtime helpers and ajv-formats; otherwise it is compiled again', async (t) => {
  const dir = tempCacheDir(t)
  const key = keyOf(dir, SCHEMA)
  writeVerifiedEntry(dir, key, 'const cp = require("node:child_process"); module.exports = () => true\n')
  assert.deepEqual(await boot(dir), [200, 400])
  assert.doesNotMatch(String(readEntry(dir, key)), /child_process/, 'replaced by the compiled code')
  writeVerifiedEntry(dir, key, 'const p = require("../../../../package.json"); module.exports = () => true\n')
  assert.deepEqual(await boot(dir), [200, 400])
})

test('what the directory holds with a valid hash is run: a verified entry is used as is (the directory is trusted like code)', async (t) => {
  const dir = tempCacheDir(t)
  writeVerifiedEntry(dir, keyOf(dir, SCHEMA), 'const eq = require("ajv/dist/runtime/equal").default; module.exports = function v () { return eq(1, 1) }\n')
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
