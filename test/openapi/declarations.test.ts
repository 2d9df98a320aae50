/**
 * `trellis/openapi` through the package "exports", as a user's TypeScript sees it: an ES module and a
 * CommonJS module type-check against the BUILT declarations (`npm test` builds first), and
 * require() and import load the same plugin.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { runTscAsync, TscResult } from '../run-tsc'

const root = join(__dirname, '..', '..')

function compile (file: string): Promise<TscResult> {
  return runTscAsync([
    '--noEmit', '--strict', '--skipLibCheck', '--types', 'node', '--target', 'es2022',
    '--module', 'node16', '--moduleResolution', 'node16', join('test', 'openapi', 'types', file)
  ], root)
}

// both programs, checked side by side from the first test
let checks: Record<'esm' | 'cjs', Promise<TscResult>> | undefined
const programs = (): NonNullable<typeof checks> => (checks ??= { esm: compile('esm-usage.mts'), cjs: compile('cjs-usage.cts') })

test('an ES module importing trellis/openapi type-checks', async () => {
  const { status, output } = await programs().esm
  assert.equal(status, 0, output)
})

test('a CommonJS module requiring trellis/openapi type-checks', async () => {
  const { status, output } = await programs().cjs
  assert.equal(status, 0, output)
})

test('require and import load the same plugin from the built entries', async () => {
  const cjs = require(join(root, 'dist', 'entry', 'openapi.cjs'))
  const esm = await import(join(root, 'dist', 'entry', 'openapi.mjs'))
  assert.equal(typeof cjs, 'function')
  assert.equal(esm.default, cjs)
  assert.equal(esm.openapi, cjs)
  assert.equal(cjs.default, cjs)
})
