/** The migrated application of docs/typescript.md compiles against the built trellis package as CommonJS. */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { after, project, root, tsc } from './migration-project'

test('the migrated application compiles against trellis as CommonJS', async () => {
  const dir = project('after-cjs', { 'app.ts': after }, { trellis: root })
  const { status, output } = await tsc(dir, 'app.ts')
  assert.equal(status, 0, output)
})
