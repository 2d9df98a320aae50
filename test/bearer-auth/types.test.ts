/**
 * The generated declarations (dist/lib/*.d.ts, reached through the package's "exports" as a
 * TypeScript user would) type every bearer-auth option: fixtures/types-usage.cts must compile,
 * including its @ts-expect-error lines. Needs `npm run build` first (`npm test` builds first).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { runTscAsync } from '../run-tsc'

const root = join(__dirname, '..', '..')

test('trellis/bearer-auth declarations type every option (compiled against dist/)', async () => {
  const dts = join(root, 'dist', 'lib', 'bearer-auth.d.ts')
  if (!existsSync(dts)) throw new Error(`${dts} is missing: run \`npm run build\` before this test (\`npm test\` builds first)`)
  const result = await runTscAsync([
    '--noEmit', '--strict', '--esModuleInterop', '--skipLibCheck', '--types', 'node', '--target', 'es2022',
    '--module', 'node16', '--moduleResolution', 'node16', join('test', 'bearer-auth', 'fixtures', 'types-usage.cts')
  ], root)
  assert.equal(result.status, 0, `tsc reported:\n${result.output}`)
})
