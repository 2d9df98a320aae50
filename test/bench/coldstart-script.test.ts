/**
 * The cold-start benchmark script (bench/coldstart.mjs) runs end to end at a tiny size: every
 * subject starts, answers its first request (the measured process checks the answer), and the
 * table and the results files carry a figure for each. Not a timing test: no figure is compared.
 * Needs dist/ (npm test builds first).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { envWithoutCoverage } from '../run-tsc'

const root = join(__dirname, '..', '..')

test('bench/coldstart.mjs at 2 routes, one round: a row per subject with its figures, and the results files', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-coldstart-test-'))
  try {
    // waited on without blocking (the test process goes on with other files' tests meanwhile); off
    // coverage: the subjects load dist/, which c8 does not map
    const { stdout: out } = await promisify(execFile)(process.execPath, ['bench/coldstart.mjs', '--routes', '2', '--rounds', '1', '--subjects', 'trellis,trellis-cache,trellis-aot,fastify'], {
      cwd: root, encoding: 'utf8', timeout: 110_000, env: { ...envWithoutCoverage(), BENCH_RESULTS_DIR: dir }
    })
    const rows = out.split('\n').filter((l) => l.startsWith('| 2 |'))
    assert.equal(rows.length, 4, out)
    for (const label of ['trellis, no cache', 'trellis, schema cache warm', 'fastify ']) {
      const row = rows.find((r) => r.includes(label))
      assert.ok(row !== undefined, `no row for ${label}:\n${out}`)
      const cells = row.split('|').slice(3, 9).map((c) => c.trim())
      for (const cell of cells) assert.match(cell, /^\d+(\.\d+)?( s)?$/, `${label}: ${row}`)
    }
    // the ahead-of-time row has figures when this build's CLI has `trellis build`, else says why not
    const aot = rows.find((r) => r.includes('trellis build'))
    assert.ok(aot !== undefined && (/n\/a \(no trellis build\)/.test(aot) || /\| \d+ \|/.test(aot)), String(aot))
    const json = readdirSync(dir).find((f) => f.startsWith('coldstart-node') && f.endsWith('.json'))
    assert.ok(json !== undefined, readdirSync(dir).join(', '))
    const data = JSON.parse(readFileSync(join(dir, json), 'utf8'))
    const trellis = data.results['2'].trellis
    assert.equal(trellis.listen.length, 1)
    assert.ok(trellis.listen[0] > 0 && trellis.first[0] >= trellis.listen[0] && trellis.rss[0] > 0, JSON.stringify(trellis))
    assert.ok(readdirSync(dir).some((f) => f === json.replace(/\.json$/, '.md')))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
