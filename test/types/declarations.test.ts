/**
 * The generated declarations, reached through the package "exports" like a user's TypeScript
 * would: an ES module (node16) and a CommonJS module must both type-check, including their
 * @ts-expect-error lines. Needs `npm run build` first (`npm test` builds before testing). The CommonJS
 * fixtures are compiled by declarations-cjs.test.ts (one tsc run per test file keeps each file well
 * inside the runner's per-file timeout on a loaded machine).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { compile } from './compile-fixtures'

const root = join(__dirname, '..', '..')

test('declarations exist (npm run build ran)', () => {
  for (const file of ['dist/entry/index.d.ts', 'dist/lib/index.d.ts', 'dist/lib/plugin.d.ts', 'dist/lib/bearer-auth.d.ts']) {
    assert.ok(existsSync(join(root, file)), `${file} is missing: run \`npm run build\` first`)
  }
})

test('an ES module importing trellis, trellis/plugin and trellis/bearer-auth type-checks', async () => {
  const { status, output } = await compile('esm-usage.mts')
  assert.equal(status, 0, output)
})

test('module augmentation under the Fastify or the trellis name extends the same interface (ES module)', async () => {
  const { status, output } = await compile('esm-augment.mts')
  assert.equal(status, 0, output)
})
