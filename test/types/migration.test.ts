/**
 * The worked migration of docs/typescript.md: the Fastify 4 application ("Before") and the same
 * application on trellis ("After") are read from the document, must differ only in their import
 * lines (and the `declare module` line naming the module), and must compile: Before against
 * fastify@4.3.0 (the `fastify43` devDependency) with fastify-plugin, After against the built trellis
 * package, as CommonJS and as an ES module. Needs `npm run build` first (`npm test` builds).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(__dirname, '..', '..')
const work = join(root, 'conformance', '.work', 'migration')

function codeBlockAfter (markdown: string, heading: string): string {
  const at = markdown.indexOf(heading)
  assert.ok(at >= 0, `docs/typescript.md has no "${heading}"`)
  const match = /```ts\n([\s\S]*?)```/.exec(markdown.slice(at))
  assert.ok(match !== null, `no ts code block after "${heading}"`)
  return match[1]
}

const doc = readFileSync(join(root, 'docs', 'typescript.md'), 'utf8')
const before = codeBlockAfter(doc, 'Before (Fastify 4):')
const after = codeBlockAfter(doc, 'After (trellis):')

/** A consumer project: the source file, and node_modules entries linking to real packages. */
function project (name: string, files: Record<string, string>, links: Record<string, string>): string {
  const dir = join(work, name)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true }))
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  for (const [pkg, target] of Object.entries(links)) symlinkSync(target, join(dir, 'node_modules', pkg), 'dir')
  return dir
}

function tsc (dir: string, file: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [
    require.resolve('typescript/bin/tsc'), '--noEmit', '--strict', '--skipLibCheck', '--esModuleInterop', '--preserveSymlinks',
    '--types', 'node', '--typeRoots', join(root, 'node_modules', '@types'), '--target', 'es2022',
    '--module', 'node16', '--moduleResolution', 'node16', '--pretty', 'false', file
  ], { cwd: dir, encoding: 'utf8', timeout: 120000 })
  return { status: result.status, output: result.stdout + result.stderr }
}

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

test('the Fastify 4 application compiles against fastify@4.3.0 (the document shows working Fastify code)', () => {
  const dir = project('before', { 'app.ts': before }, {
    fastify: join(root, 'node_modules', 'fastify43'),
    'fastify-plugin': join(root, 'node_modules', 'fastify-plugin')
  })
  const { status, output } = tsc(dir, 'app.ts')
  assert.equal(status, 0, output)
})

test('the migrated application compiles against trellis, as CommonJS and as an ES module', () => {
  const dir = project('after', { 'app.ts': after, 'app-esm.mts': after }, { trellis: root })
  const cjs = tsc(dir, 'app.ts')
  assert.equal(cjs.status, 0, cjs.output)
  const esm = tsc(dir, 'app-esm.mts')
  assert.equal(esm.status, 0, esm.output)
})
