/**
 * Workers sharing one cache directory: several processes booting the same server at once (all
 * writing the same entries) all boot, and leave only whole, verifiable packs and no temporary files.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync } from 'node:fs'
import { entries, packFiles, storedEntries, tempCacheDir } from './helpers'
import { runWorker } from './fixtures/run-worker'

test('4 processes booting into one empty cache directory at once: all boot, every entry verifies, no temporary files', { timeout: 120_000 }, async (t) => {
  const dir = tempCacheDir(t)
  const results = await Promise.all([1, 2, 3, 4].map(async () => await runWorker(dir)))
  for (const r of results) assert.equal(r.code, 0, r.out)
  // (a worker that starts late may find another's pack already there)
  for (const r of results) assert.match(r.out, /^ok ajv=(?:yes|no)\n$/)
  const names = readdirSync(dir)
  assert.deepEqual(names.filter((n) => !n.endsWith('.pack')), [], 'only packs: no temporary files')
  const packs = packFiles(dir)
  // each worker writes one pack; workers that wrote the same entries wrote the same file name
  assert.ok(packs.length >= 1 && packs.length <= 4, String(packs.length))
  const stored = storedEntries(dir)
  assert.ok(stored.every((e) => e.verified))
  assert.equal(new Set(stored.map((e) => e.key)).size, 41, '40 route schemas and the shared-set marker')
  // and a fifth, warm, writes nothing and never loads Ajv
  const before = entries(dir)
  assert.deepEqual(await runWorker(dir), { code: 0, out: 'ok ajv=no\n' })
  assert.deepEqual(entries(dir), before)
})

test('workers booting at once while another compacts: all boot (a pack that disappears is a miss)', { timeout: 120_000 }, async (t) => {
  const dir = tempCacheDir(t)
  assert.equal((await runWorker(dir)).code, 0)
  // 9 packs of entries nobody uses: the next flush compacts them away (and removes them under readers' feet)
  const { forgePack } = await import('./helpers')
  for (let p = 0; p < 9; p++) {
    forgePack(dir, Array.from({ length: 20 }, (_, i) => ({ key: (p * 100 + i).toString(16).padStart(64, '0'), content: 'module.exports = () => true' })))
  }
  const results = await Promise.all([1, 2, 3].map(async () => await runWorker(dir)))
  for (const r of results) assert.equal(r.code, 0, r.out)
  for (const r of results) assert.match(r.out, /^ok ajv=(?:yes|no)\n$/)
  assert.ok(packFiles(dir).length <= 3, packFiles(dir).join(' '))
  assert.deepEqual(await runWorker(dir), { code: 0, out: 'ok ajv=no\n' }, 'the packs left hold every entry')
})
