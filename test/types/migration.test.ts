/**
 * The worked migration of docs/typescript.md: the Fastify 4 application ("Before") and the same
 * application on trellis ("After") are read from the document, must differ only in their import
 * lines (and the `declare module` line naming the module), and must compile: Before against
 * fastify@4.3.0 (the `fastify43` devDependency) with fastify-plugin, After against the built trellis
 * package, as CommonJS and as an ES module (migration-after-*.test.ts: one tsc run per test file).
 * Needs `npm run build` first (`npm test` builds).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { after, before, project, root, tsc } from './migration-project'
import { join } from 'node:path'

test('before and after differ only in the import lines (and the module the declarations extend)', () => {
  const a = before.split('\n')
  const b = after.split('\n')
  assert.equal(a.length, b.length)
  const changed = a.flatMap((line, i) => line === b[i] ? [] : [[line, b[i]]])
  assert.ok(changed.length > 0)
  for (const [was, now] of changed) {
    assert.match(was, /^(import .* from '(fastify|fastify-plugin)'|declare module 'fastify' \{)$/)
    assert.match(now, /^(import .* from '(trellis|trellis\/plugin)'|declare module 'trellis' \{)$/)
  }
})

test('the Fastify 4 application compiles against fastify@4.3.0 (the document shows working Fastify code)', async () => {
  const dir = project('before', { 'app.ts': before }, {
    fastify: join(root, 'node_modules', 'fastify43'),
    'fastify-plugin': join(root, 'node_modules', 'fastify-plugin')
  })
  const { status, output } = await tsc(dir, 'app.ts')
  assert.equal(status, 0, output)
})
