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

// One tsc run per module system (each takes seconds): the ES module fixtures together, the CommonJS
// ones together; a test then looks at the errors reported for its own file.
const runs = new Map<string, string>()
function compileGroup (files: string[]): string {
  const key = files.join(' ')
  let output = runs.get(key)
  if (output === undefined) {
    const tsc = require.resolve('typescript/bin/tsc')
    const result = spawnSync(process.execPath, [
      tsc, '--noEmit', '--strict', '--skipLibCheck', '--types', 'node', '--target', 'es2022',
      '--module', 'node16', '--moduleResolution', 'node16', '--pretty', 'false', ...files.map((f) => join('test', 'types', 'fixtures', f))
    ], { cwd: root, encoding: 'utf8', timeout: 120000 })
    output = result.status === 0 ? '' : (result.stdout + result.stderr) || `tsc exited with ${String(result.status)}`
    runs.set(key, output)
  }
  return output
}
const groups = [['esm-usage.mts', 'esm-augment.mts'], ['cjs-usage.cts', 'cjs-augment.cts']]
function compile (file: string): { status: number; output: string } {
  const output = compileGroup(groups.find((g) => g.includes(file)) ?? [file])
  const mine = output.split('\n').filter((line) => line.includes(file) || (output !== '' && !line.includes('test/types/fixtures/'))).join('\n').trim()
  return { status: mine === '' ? 0 : 1, output: mine }
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
