/**
 * The generated declarations, reached through the package "exports" like a user's TypeScript
 * would: an ES module (node16) and a CommonJS module must both type-check, including their
 * @ts-expect-error lines. Needs `npm run build` first (`npm test` builds before testing).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

const root = join(__dirname, '..', '..')

function compile (file: string): { status: number | null; output: string } {
  const tsc = require.resolve('typescript/bin/tsc')
  const result = spawnSync(process.execPath, [
    tsc, '--noEmit', '--strict', '--skipLibCheck', '--types', 'node', '--target', 'es2022',
    '--module', 'node16', '--moduleResolution', 'node16', join('test', 'types', 'fixtures', file)
  ], { cwd: root, encoding: 'utf8', timeout: 60000 })
  return { status: result.status, output: result.stdout + result.stderr }
}

test('declarations exist (npm run build ran)', () => {
  for (const file of ['dist/entry/index.d.mts', 'dist/lib/index.d.ts', 'dist/lib/plugin.d.ts', 'dist/lib/bearer-auth.d.ts']) {
    assert.ok(existsSync(join(root, file)), `${file} is missing: run \`npm run build\` first`)
  }
})

test('an ES module importing trellis, trellis/plugin and trellis/bearer-auth type-checks', () => {
  const { status, output } = compile('esm-usage.mts')
  assert.equal(status, 0, output)
})

test('a CommonJS module requiring trellis type-checks', () => {
  const { status, output } = compile('cjs-usage.cts')
  assert.equal(status, 0, output)
})

test('module augmentation under the Fastify or the trellis name extends the same interface (ES module)', () => {
  const { status, output } = compile('esm-augment.mts')
  assert.equal(status, 0, output)
})

test('module augmentation under the Fastify or the trellis name extends the same interface (CommonJS)', () => {
  const { status, output } = compile('cjs-augment.cts')
  assert.equal(status, 0, output)
})
