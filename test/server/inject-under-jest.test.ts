/**
 * inject() under jest: jest loads modules through its own registry, which cannot `require` an
 * ES-module-only package, so everything inject loads on first use (light-my-request and its
 * dependencies) must be CommonJS. Runs jest (a devDependency) on one fixture test file that builds an
 * application from dist/ (the v4 line's, then the v5 line's: light-my-request 5, then 6) and injects
 * requests, and asserts that jest ran its three tests and all passed.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runChild } from '../run-child'
import { envWithoutCoverage } from '../run-tsc'

const root = join(__dirname, '..', '..')

for (const line of ['4', '5']) {
  test(`inject() works in a jest test file (jest's module registry), v${line} line`, { timeout: 60_000 }, async () => {
    assert.ok(existsSync(join(root, 'dist', 'entry', 'index.cjs')), 'dist/ is missing: run `npm run build` first (npm test builds before testing)')
    const work = mkdtempSync(join(tmpdir(), 'trellis-jest-'))
    try {
      const results = join(work, 'results.json')
      const config = {
        rootDir: join(__dirname, 'fixtures'),
        testMatch: ['**/inject-under-jest.jest.cjs'],
        cacheDirectory: join(work, 'cache'),
        // the fixture and dist/ are CommonJS already; without a transform jest still loads every module
        // through its registry (and still refuses an ES-module-only dependency), in about a second
        transform: {}
      }
      const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js')
      // awaited (the test process goes on with other files' tests meanwhile); off coverage: jest
      // loads dist/, which c8 does not map
      const run = await runChild(process.execPath, [jest, '--ci', '--no-watchman', '--config', JSON.stringify(config), '--json', '--outputFile', results], {
        cwd: root, env: { ...envWithoutCoverage(), TRELLIS_JEST_LINE: line }
      })
      const output = `${run.stdout}\n${run.stderr}`
      assert.equal(run.status, 0, output)
      const report = JSON.parse(readFileSync(results, 'utf8')) as { numTotalTests: number, numPassedTests: number, numFailedTests: number }
      assert.deepEqual({ total: report.numTotalTests, passed: report.numPassedTests, failed: report.numFailedTests }, { total: 3, passed: 3, failed: 0 }, output)
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  })
}
