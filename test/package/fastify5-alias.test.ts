/**
 * The package alias on the Fastify 5 line, `"fastify": "npm:trellis-fastify5@…"`: a Fastify 5
 * TypeScript application (test/package/fixtures/fastify5-app: ES modules with one CommonJS test
 * file, @fastify/cors 11, @fastify/rate-limit 11, @fastify/bearer-auth 10, @fastify/swagger 9,
 * @fastify/swagger-ui 6 and fastify-plugin 6 in one program) installed with `fastify` pointing at the
 * trellis-fastify5 tarball packed from HEAD (scripts/pack-v5.mjs), then type-checked (`tsc`, strict,
 * module nodenext, skipLibCheck off: the plugins' declarations import and augment 'fastify', and
 * must merge with trellis's v5 line declarations) and its tests run unchanged. The fixture is
 * Fastify 5 code: installed with `"fastify": "5.12.8"` instead, it type-checks and its eight tests
 * pass (checked 2026-11-27). The type check is fastify5-alias-types.test.ts (each file has its own time
 * limit): this file emits the app with `tsc --noCheck` and runs its tests.
 */
import { before, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, rmSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { installedFixture, npmMissing, run } from './packed'

let skip: string | undefined
let app = ''

before(async () => {
  skip = await npmMissing()
  if (skip !== undefined) return
  // installed once per commit and fixture content (scripts/run-tests.mjs does it before the test files)
  app = await installedFixture('fastify5-app')
  rmSync(join(app, 'dist'), { recursive: true, force: true })
}, { timeout: 240_000 })

test('node_modules/fastify is trellis-fastify5: the v5 line from require and import, trellis/plugin typed for it', async (t) => {
  if (skip !== undefined) return t.skip(skip)
  const installed = JSON.parse(readFileSync(join(app, 'node_modules', 'fastify', 'package.json'), 'utf8'))
  assert.equal(installed.name, 'trellis-fastify5')
  assert.equal(installed.types, './dist/entry/v5.d.ts')
  assert.equal(installed.exports['.'].import.types, './dist/entry/v5.d.ts')
  assert.equal(installed.exports['.'].require.types, './dist/entry/v5.d.ts')
  assert.equal(installed.exports['./plugin'].require.types, './dist/lib/plugin-v5.d.ts')
  const script = `const cjs = require('fastify')
import('fastify').then((esm) => process.stdout.write(JSON.stringify({ same: esm.default === cjs, version: cjs().version, plugin: typeof require('fastify/plugin') })))`
  // the app's package.json says nothing of the line: the package is the line
  assert.equal(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).trellis, undefined)
  const r = await run(process.execPath, ['-e', script], app)
  assert.equal(r.status, 0, r.stderr)
  assert.deepEqual(JSON.parse(r.stdout), { same: true, version: '5.12.8', plugin: 'function' })
})

test('the app\'s own tests pass unchanged', { timeout: 120_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc')
  const built = await run(process.execPath, [tsc, '-p', '.', '--noCheck'], app)
  assert.equal(built.status, 0, built.stdout + built.stderr)
  const r = await run('npm', ['test'], app, { PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` })
  assert.equal(r.status, 0, r.stdout + r.stderr)
  assert.match(r.stdout, /^(?:#|ℹ) pass 8$/m)
  assert.match(r.stdout, /^(?:#|ℹ) fail 0$/m)
})
