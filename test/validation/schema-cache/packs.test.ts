/**
 * Storage of the schema cache: one pack file per boot (not one file per entry), written once and
 * whole; read back by a restarted process; bounded by compaction; old per-entry files removed.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import trellis from '../../../src/index'
import { createValidatorCodeCache } from '../../../src/schema/validation/compile-cache/validator-code-cache'
import { KEEP_UNUSED_MS, MAX_PACKS } from '../../../src/schema/validation/compile-cache/pack-store'
import { effectiveAjvOptions } from '../../../src/schema/validation/index'
import { answers, buildApp } from './app'
import { entries, forgePack, packFiles, restart, storedEntries, tempCacheDir, validatorKeys } from './helpers'
import { runWorker } from './fixtures/run-worker'

const body = (max: number) => ({ type: 'object', properties: { n: { type: 'integer', maximum: max } } })

/** A restarted server with routes /0 … /(count-1), route i allowing n <= limits(i); answers n=limit and n=limit+1 on each. */
async function bootRoutes (dir: string, count: number, limit: (i: number) => number = (i) => i): Promise<string> {
  restart()
  const app = trellis({ logger: false, schemaCache: { dir } })
  for (let i = 0; i < count; i++) app.post('/' + String(i), { schema: { body: body(limit(i)) } }, async (r) => r.body)
  await app.ready()
  let out = ''
  for (let i = 0; i < count; i++) {
    const ok = await app.inject({ method: 'POST', url: '/' + String(i), payload: { n: limit(i) } })
    const bad = await app.inject({ method: 'POST', url: '/' + String(i), payload: { n: limit(i) + 1 } })
    out += `${ok.statusCode}${bad.statusCode} `
  }
  await app.close()
  return out.trim()
}
const expected = (count: number): string => Array.from({ length: count }, () => '200400').join(' ')

function keyOf (dir: string, schema: unknown): string {
  const key = createValidatorCodeCache({ dir }, {}, effectiveAjvOptions({}), {}, [])?.keyOf(schema)
  assert.ok(key !== undefined)
  return key
}

test('a boot writes one pack file, whatever the number of entries; a boot that compiles nothing writes nothing', async (t) => {
  const dir = tempCacheDir(t)
  assert.equal(await bootRoutes(dir, 30), expected(30))
  assert.deepEqual(readdirSync(dir), packFiles(dir))
  assert.equal(packFiles(dir).length, 1)
  assert.equal(storedEntries(dir).length, 31, '30 validators and the shared-set marker')
  const before = entries(dir)
  assert.equal(await bootRoutes(dir, 30), expected(30))
  assert.deepEqual(entries(dir), before)
  // one route changed, one added: one more pack with the two new entries
  assert.equal(await bootRoutes(dir, 31, (i) => i === 3 ? 99 : i), expected(31))
  assert.equal(packFiles(dir).length, 2)
  assert.equal(storedEntries(dir).length, 33)
})

test('a restarted process loads every validator from the pack: Ajv is not even loaded, nothing is written', { timeout: 60_000 }, async (t) => {
  const dir = tempCacheDir(t)
  assert.deepEqual(await runWorker(dir), { code: 0, out: 'ok ajv=yes\n' })
  assert.equal(packFiles(dir).length, 1)
  const before = entries(dir)
  assert.deepEqual(await runWorker(dir), { code: 0, out: 'ok ajv=no\n' })
  assert.deepEqual(entries(dir), before)
})

test('a server created later in the same process hits what earlier ones wrote and writes what it adds', async (t) => {
  const dir = tempCacheDir(t)
  const first = await answers(buildApp({ schemaCache: { dir } }))
  assert.equal(packFiles(dir).length, 1)
  const before = entries(dir)
  // no restart(): same process, the pool of compilers cleared only so that the server compiles again
  const { clearValidatorCompilerPool } = await import('../../../src/schema/validation/index')
  clearValidatorCompilerPool()
  assert.deepEqual(await answers(buildApp({ schemaCache: { dir } })), first)
  assert.deepEqual(entries(dir), before, 'all hits')
  const app = buildApp({ schemaCache: { dir } })
  app.post('/late', { schema: { body: body(7) } }, async (r) => r.body)
  await app.ready()
  assert.equal((await app.inject({ method: 'POST', url: '/late', payload: { n: 8 } })).statusCode, 400)
  await app.close()
  assert.equal(packFiles(dir).length, 2)
  assert.ok(validatorKeys(dir).includes(keyOf(dir, body(7))))
})

test('a schema compiled after ready() (compileValidationSchema) is written at the end of its task', async (t) => {
  const dir = tempCacheDir(t)
  const app = trellis({ logger: false, schemaCache: { dir } })
  app.get('/', async (req) => {
    const validate = req.compileValidationSchema(body(11))
    return { ok: validate({ n: 11 }), bad: validate({ n: 12 }) }
  })
  await app.ready()
  assert.deepEqual((await app.inject('/')).json(), { ok: true, bad: false })
  await new Promise((resolve) => setImmediate(resolve))
  await app.close()
  assert.ok(validatorKeys(dir).includes(keyOf(dir, body(11))))
})

test('a process that dies during ready() writes nothing (no pack, no temporary file); the next boot is fine', { timeout: 60_000 }, async (t) => {
  const dir = tempCacheDir(t)
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'crash-worker.ts'), dir], { stdio: 'ignore' })
    child.on('close', resolve)
  })
  assert.equal(code, 3)
  assert.deepEqual(readdirSync(dir), [])
  assert.equal(await bootRoutes(dir, 10), expected(10))
  assert.equal(packFiles(dir).length, 1)
})

test(`packs do not pile up: with a schema changing on every boot, never more than ${MAX_PACKS} packs, and what the last boot used is all kept`, async (t) => {
  const dir = tempCacheDir(t)
  for (let boot = 0; boot < 2 * MAX_PACKS + 3; boot++) {
    assert.equal(await bootRoutes(dir, 3, (i) => i === 0 ? 100 + boot : i), expected(3))
    assert.ok(packFiles(dir).length <= MAX_PACKS, `boot ${boot}: ${packFiles(dir).length} packs`)
  }
  // the changed schemas of earlier boots are kept for a while (another server may use them), but in few packs
  assert.ok(storedEntries(dir).length <= 2 * MAX_PACKS + 3 + 3, String(storedEntries(dir).length))
  const before = entries(dir)
  assert.equal(await bootRoutes(dir, 3, (i) => i === 0 ? 100 + 2 * MAX_PACKS + 2 : i), expected(3))
  assert.deepEqual(entries(dir), before, 'the last boot\'s entries all survived compaction')
})

test('entries nobody used for longer than the retention are dropped once they are many; recent and used ones are kept', async (t) => {
  const dir = tempCacheDir(t)
  assert.equal(await bootRoutes(dir, 3), expected(3))
  const old = Date.now() - KEEP_UNUSED_MS - 60_000
  const fake = (n: number): string => n.toString(16).padStart(64, 'a')
  forgePack(dir, Array.from({ length: 200 }, (_, i) => ({ key: fake(i), content: 'module.exports = () => true', time: old })))
  forgePack(dir, Array.from({ length: 20 }, (_, i) => ({ key: fake(1000 + i), content: 'module.exports = () => true' })))
  assert.equal(packFiles(dir).length, 3)
  assert.equal(await bootRoutes(dir, 3), expected(3))
  assert.equal(packFiles(dir).length, 1, 'compacted into one pack')
  const keys = new Set(storedEntries(dir).map((e) => e.key))
  assert.equal(keys.size, 4 + 20, 'the 3 validators and the marker this boot used, and the 20 recent unused entries')
  assert.ok(!keys.has(fake(0)))
  assert.ok(keys.has(fake(1000)))
  const before = entries(dir)
  assert.equal(await bootRoutes(dir, 3), expected(3))
  assert.deepEqual(entries(dir), before, 'and no compaction again')
})

test('copies of one key are merged by a compaction', async (t) => {
  const dir = tempCacheDir(t)
  assert.equal(await bootRoutes(dir, 2), expected(2))
  const entry = storedEntries(dir)[0]
  for (let p = 0; p < MAX_PACKS; p++) forgePack(dir, [{ key: entry.key, kind: entry.kind, content: entry.content, time: entry.time - p - 1 }])
  assert.equal(await bootRoutes(dir, 2), expected(2))
  assert.equal(packFiles(dir).length, 1)
  assert.equal(storedEntries(dir).length, 3)
})

test('files of the old per-entry format are not read, and are removed; stale temporary files go at a compaction', async (t) => {
  const dir = tempCacheDir(t)
  const g = globalThis as { __trellisLegacyRan?: boolean }
  delete g.__trellisLegacyRan
  const legacyCode = 'globalThis.__trellisLegacyRan = true; module.exports = () => true'
  for (const schema of [body(0), body(1)]) {
    const key = keyOf(dir, schema)
    writeFileSync(join(dir, key + '.js'), `// trellis-schema-cache 1 ${key} ${'0'.repeat(64)}\n${legacyCode}`)
    writeFileSync(join(dir, key + '.json'), `// trellis-schema-cache 1 ${key} ${'0'.repeat(64)}\n{}`)
  }
  writeFileSync(join(dir, 'a'.repeat(64) + '.js.123.abc.1.tmp'), 'half')
  writeFileSync(join(dir, 'notes.txt'), 'not ours')
  assert.equal(await bootRoutes(dir, 2), expected(2))
  assert.equal(g.__trellisLegacyRan, undefined)
  assert.deepEqual(readdirSync(dir).filter((n) => n.endsWith('.js') || n.endsWith('.json')), [])
  assert.ok(readdirSync(dir).includes('notes.txt'), 'other files are left alone')

  // a temporary file an hour old is a crashed writer's; a fresh one may be a live writer's
  const fresh = join(dir, 'b'.repeat(64) + '.pack.1.x.1.tmp')
  writeFileSync(fresh, 'half')
  const stale = join(dir, 'a'.repeat(64) + '.js.123.abc.1.tmp')
  utimesSync(stale, new Date(Date.now() - 2 * 3_600_000), new Date(Date.now() - 2 * 3_600_000))
  for (let p = 0; p < MAX_PACKS; p++) forgePack(dir, [{ key: (p + 1).toString(16).padStart(64, 'c'), content: 'module.exports = () => true' }])
  assert.equal(await bootRoutes(dir, 2), expected(2))
  assert.equal(packFiles(dir).length, 1, 'compacted')
  assert.throws(() => statSync(stale))
  assert.ok(statSync(fresh).isFile())
})

test('the directory replaced by a file while the process runs: every read and write fails, boots still succeed', async (t) => {
  const dir = tempCacheDir(t)
  assert.equal(await bootRoutes(dir, 3), expected(3))
  const { rmSync } = await import('node:fs')
  rmSync(dir, { recursive: true })
  writeFileSync(dir, 'not a directory')
  t.after(() => rmSync(dir, { force: true }))
  assert.equal(await bootRoutes(dir, 4), expected(4), 'the directory was checked earlier in this process; now all misses')
})
