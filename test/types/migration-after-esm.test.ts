/** The migrated application of docs/typescript.md compiles against the built trellis package as an ES module. */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { after, project, root, tsc } from './migration-project'

test('the migrated application compiles against trellis as an ES module', async () => {
  const dir = project('after-esm', { 'app-esm.mts': after }, { trellis: root })
  const { status, output } = await tsc(dir, 'app-esm.mts')
  assert.equal(status, 0, output)
})
