/**
 * `trellis/otel` through the package "exports": an ES module and a CommonJS module type-check against
 * the BUILT declarations (`npm test` builds first), and require() and import load the same plugin.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { runTsc, TscResult } from '../run-tsc'

const root = join(__dirname, '..', '..')

function compile (file: string): TscResult {
  return runTsc([
    '--noEmit', '--strict', '--skipLibCheck', '--types', 'node', '--target', 'es2022',
    '--module', 'node16', '--moduleResolution', 'node16', join('test', 'otel', 'types', file)
  ], root)
}

test('an ES module importing trellis/otel type-checks', () => {
  const { status, output } = compile('esm-usage.mts')
  assert.equal(status, 0, output)
})

test('a CommonJS module requiring trellis/otel type-checks', () => {
  const { status, output } = compile('cjs-usage.cts')
  assert.equal(status, 0, output)
})

test('require and import load the same plugin from the built entries', async () => {
  const cjs = require(join(root, 'dist', 'entry', 'otel.cjs'))
  const esm = await import(join(root, 'dist', 'entry', 'otel.mjs'))
  assert.equal(typeof cjs, 'function')
  assert.equal(esm.default, cjs)
  assert.equal(esm.otel, cjs)
  assert.equal(cjs.default, cjs)
})
