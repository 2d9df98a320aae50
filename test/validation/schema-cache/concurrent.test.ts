/**
 * Workers sharing one cache directory: several processes booting the same server at once (all
 * writing the same entries) all boot, and leave only whole, verifiable entries and no temporary files.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { readEntry } from '../../../src/schema/validation/compile-cache/store'
import { entries, tempCacheDir } from './helpers'

function runWorker (dir: string): Promise<{ code: number | null, out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'boot-worker.ts'), dir], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (c: Buffer) => { out += c.toString() })
    child.stderr.on('data', (c: Buffer) => { out += c.toString() })
    child.on('close', (code) => resolve({ code, out }))
  })
}

test('4 processes booting into one empty cache directory at once: all boot, every entry verifies, no temporary files', { timeout: 120_000 }, async (t) => {
  const dir = tempCacheDir(t)
  const results = await Promise.all([1, 2, 3, 4].map(async () => await runWorker(dir)))
  for (const r of results) assert.deepEqual(r, { code: 0, out: 'ok\n' })
  const names = readdirSync(dir)
  assert.equal(names.filter((n) => n.endsWith('.tmp')).length, 0)
  assert.equal(names.length, 41, '40 route schemas and the shared-set marker')
  for (const name of names) assert.equal(typeof readEntry(dir, name.slice(0, -3)), 'string', name)
  // and a fifth, warm, writes nothing
  const before = entries(dir)
  assert.deepEqual(await runWorker(dir), { code: 0, out: 'ok\n' })
  assert.deepEqual(entries(dir), before)
})
