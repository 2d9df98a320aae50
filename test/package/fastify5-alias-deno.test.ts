/**
 * The Fastify 5 application of fastify5-alias.test.ts (test/package/fixtures/fastify5-app, `fastify`
 * aliased to the packed trellis-fastify5) under Deno: `deno check` type-checks its ES modules and its
 * CommonJS test file against the declarations Deno resolves through the installed node_modules
 * (trellis's v5 line, and the @fastify/* plugins' declarations that import and augment 'fastify'),
 * and `deno test` runs its eight node:test tests. The fixture's deno.json is what a Deno user of a
 * Node project adds: its `compilerOptions` make Deno use its own libraries instead of the Node-only
 * tsconfig.json, and `sloppy-imports` lets `../src/app.js` name the `.ts` file.
 *
 * The same fixture with `"fastify": "5.12.8"` passes both (checked 2026-11-27, deno 2.9.6); installed
 * with the trellis tarball whose `.` is the v4 line's declarations instead, `deno check` reports 30
 * errors. Deno is the npm package `deno` of test/runtimes (installed on first use into a cache outside
 * the repository): where it cannot be installed or does not run, the tests are skipped, saying why.
 *
 * node-line: independent (Deno's verdict, whatever Node line runs the test: the older lines' pass of
 * .ci/run leaves this file out; Node 24 and 26 run it)
 */
import { before, test } from 'node:test'
import assert from 'node:assert/strict'
import { installedFixture, npmMissing, run } from './packed'

let skip: string | undefined
let app = ''
let deno = ''

// the first run installs the runtimes' packages (about 200 MB from npm)
before(async () => {
  skip = await npmMissing()
  if (skip !== undefined) return
  const { runtimeBinary } = await import('../runtimes/install.mjs')
  const found = runtimeBinary('deno')
  if (found.bin === undefined) { skip = found.reason; return }
  deno = found.bin
  app = await installedFixture('fastify5-app')
}, { timeout: 300_000 })

const env = { NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1' }
const files = ['src/app.ts', 'test/app.spec.ts', 'test/cjs.spec.cts']

test('deno check: the app, its ES module and CommonJS tests type-check against trellis-fastify5', { timeout: 600_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  const r = await run(deno, ['check', ...files], app, env)
  assert.equal(r.status, 0, r.stdout + r.stderr)
  assert.doesNotMatch(r.stdout + r.stderr, /\bTS\d+\b/)
})

test('deno check --all: no error in trellis\'s declarations or the plugins\' (the one left is Deno\'s lib against @types/node, as on fastify@5.12.8)', { timeout: 600_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  const r = await run(deno, ['check', '--all', ...files], app, env)
  // each diagnostic ends with the place it is at: `    at <url>:<line>:<column>`
  const places = [...(r.stdout + r.stderr).matchAll(/^\s+at (\S+?):\d+:\d+$/gm)].map((m) => m[1])
  assert.ok(places.every((place) => place.startsWith('asset:///lib.deno')), `errors outside Deno's own libraries:\n${r.stdout}${r.stderr}`)
})

test('deno test: the app\'s own eight tests pass', { timeout: 600_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  const r = await run(deno, ['test', '-A', 'test/app.spec.ts', 'test/cjs.spec.cts'], app, env)
  assert.equal(r.status, 0, r.stdout + r.stderr)
  assert.match(r.stdout, /^ok \| 8 passed \| 0 failed/m)
})
