import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asciiSource, hasUnicodeSpace } from '../../src/module-pack/write-pack'
import { assertBuilt, BIN, ROOT, freePort, listeningLine, request, runTrellis, stop } from '../production/helpers'

// The module pack of `trellis build` (src/module-pack/): trellis' modules in one script with its V8
// code cache, loaded by the public entries when TRELLIS_AOT_DIR names the build. Built by dist/
// (a build from the sources has no modules to pack).
const fixture = join(__dirname, 'fixtures', 'aot-app', 'app.js')
const probe = join(__dirname, 'fixtures', 'module-pack', 'probe.cjs')
const work = mkdtempSync(join(tmpdir(), 'trellis-pack-'))
after(() => rmSync(work, { recursive: true, force: true }))

assertBuilt()
const built = join(work, 'build')
const building = spawnSync(process.execPath, [BIN, 'build', fixture, '--out', built], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 120000 })

interface Probed {
  pack: { modules: number, codeCacheRejected: boolean, evaluated: number, index: boolean } | null
  sameFactory: boolean
  diskFirstShared: boolean | null
  sameErrors: boolean
  otelLoaded: boolean
  shared: number
  answers: string[]
  warnings: string[]
}

function runProbe (env: Record<string, string | undefined>): Probed {
  const run = spawnSync(process.execPath, [probe], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', TRELLIS_AOT_DIR: undefined, ...env }, timeout: 60000 })
  assert.equal(run.status, 0, run.stderr)
  return JSON.parse(run.stdout) as Probed
}

const EXPECTED_ANSWERS = [
  '201 {"id":7,"name":"ann"}',
  '400 {"statusCode":400,"code":"FST_ERR_VALIDATION","error":"Bad Request","message":"body/name must NOT have more than 10 characters"}',
  '200 {"id":5,"fields":"short"}'
]

test('trellis build writes a module pack; the entries load trellis from it, one implementation, answers unchanged', () => {
  assert.equal(building.status, 0, building.stdout + building.stderr)
  assert.match(building.stdout, /module pack: \d+ modules of trellis and its dependencies \([\d.]+ MB\), V8 code cache [\d.]+ MB/)
  for (const file of ['modules.js', 'modules.json', 'modules.v8cache']) assert.ok(existsSync(join(built, file)), file)
  const packed = (JSON.parse(readFileSync(join(built, 'modules.json'), 'utf8')) as { files: Array<{ path: string }> }).files.map((f) => f.path)
  // what a start loads: trellis' entry, its router, the CLI's start path; not what a start does not load
  for (const path of ['index.js', 'routing/router.js', 'cli/bin.js', 'cli/serve.js']) assert.ok(packed.includes(path), path)
  assert.ok(packed.some((p) => p.endsWith('find-my-way/index.js')))
  assert.ok(!packed.some((p) => p.includes('/ajv/') || p.includes('/pino/') || p.startsWith('openapi')), 'loaded when used, never packed')
  // a module with a dynamic import() stays on disk (V8 drops the import callback of cached code);
  // one that only names import() in a comment is packed
  assert.ok(!packed.includes('cli/load-app.js'))
  assert.ok(packed.includes('context/plugins.js'))

  const probed = runProbe({ TRELLIS_AOT_DIR: built })
  assert.deepEqual(probed.warnings, [])
  assert.ok(probed.pack !== null)
  assert.equal(probed.pack.codeCacheRejected, false)
  assert.equal(probed.pack.index, true)
  assert.equal(probed.sameFactory, true)
  assert.equal(probed.sameErrors, true)
  assert.equal(probed.otelLoaded, true) // an entry whose modules are not all in the pack loads the rest from disk
  assert.equal(probed.shared, 1)
  assert.deepEqual(probed.answers, EXPECTED_ANSWERS)

  const without = runProbe({})
  assert.equal(without.pack, null)
  assert.deepEqual(without.answers, EXPECTED_ANSWERS)
})

test('modules loaded from disk before the entries are not loaded again from the pack', () => {
  const probed = runProbe({ TRELLIS_AOT_DIR: built, PROBE_DISK_FIRST: '1' })
  assert.ok(probed.pack !== null)
  assert.equal(probed.pack.index, false)
  assert.equal(probed.diskFirstShared, true)
  assert.equal(probed.sameErrors, true)
  assert.deepEqual(probed.answers, EXPECTED_ANSWERS)
})

test('a pack whose module changed since the build, that anyone may write, or that is not its index\'s is not used: one warning, trellis loads from disk', () => {
  const changed = join(work, 'changed')
  cpSync(built, changed, { recursive: true })
  const indexFile = join(changed, 'modules.json')
  const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { files: Array<{ path: string, mtimeMs: number }> }
  const router = index.files.find((f) => f.path === 'routing/router.js')
  assert.ok(router !== undefined)
  router.mtimeMs -= 1000 // as after a reinstall: the file on disk is not the one packed
  writeFileSync(indexFile, JSON.stringify(index))
  const afterChange = runProbe({ TRELLIS_AOT_DIR: changed })
  assert.equal(afterChange.pack, null)
  assert.equal(afterChange.warnings.length, 1)
  assert.match(afterChange.warnings[0], /^TRLAOT002 the module pack in .* is not used: routing\/router\.js changed since the build \(rerun trellis build\)/)
  assert.deepEqual(afterChange.answers, EXPECTED_ANSWERS)

  const open = join(work, 'open')
  cpSync(built, open, { recursive: true })
  for (const file of ['modules.js', 'modules.v8cache']) {
    chmodSync(join(open, file), 0o666)
    const anyone = runProbe({ TRELLIS_AOT_DIR: open })
    chmodSync(join(open, file), 0o644)
    assert.equal(anyone.pack, null)
    assert.ok(anyone.warnings.some((w) => w.includes(`module pack in ${open} is not used: ${file} is writable by anyone`)), anyone.warnings.join('\n'))
    assert.deepEqual(anyone.answers, EXPECTED_ANSWERS)
  }

  const other = join(work, 'other')
  cpSync(built, other, { recursive: true })
  writeFileSync(join(other, 'modules.js'), readFileSync(join(other, 'modules.js'), 'utf8') + '\n')
  const swapped = runProbe({ TRELLIS_AOT_DIR: other })
  assert.equal(swapped.pack, null)
  assert.match(swapped.warnings.join('\n'), /modules\.js is not the pack modules\.json describes/)
  assert.deepEqual(swapped.answers, EXPECTED_ANSWERS)
})

test('without its code cache the pack is parsed; a build without a pack loads trellis from disk without a warning', () => {
  const parsed = join(work, 'parsed')
  cpSync(built, parsed, { recursive: true })
  rmSync(join(parsed, 'modules.v8cache'))
  const noCache = runProbe({ TRELLIS_AOT_DIR: parsed })
  assert.ok(noCache.pack !== null)
  assert.equal(noCache.pack.codeCacheRejected, true)
  assert.deepEqual(noCache.answers, EXPECTED_ANSWERS)

  const plain = join(work, 'plain')
  cpSync(built, plain, { recursive: true })
  for (const f of ['modules.js', 'modules.json', 'modules.v8cache']) rmSync(join(plain, f))
  const noPack = runProbe({ TRELLIS_AOT_DIR: plain })
  assert.equal(noPack.pack, null)
  assert.deepEqual(noPack.warnings, [])
  assert.deepEqual(noPack.answers, EXPECTED_ANSWERS)
})

test('trellis start with TRELLIS_AOT_DIR runs the CLI and trellis from the pack and serves', async (t) => {
  const port = await freePort()
  const run = runTrellis(['start', '--port', String(port), '--address', '127.0.0.1', fixture], {
    env: { TRELLIS_AOT_DIR: built },
    execArgv: ['-r', join(__dirname, 'fixtures', 'module-pack', 'report-at-exit.cjs')]
  })
  t.after(() => stop(run))
  await run.waitFor(listeningLine)
  const res = await request(port, '/users/5?fields=short')
  assert.equal(res.status, 200)
  assert.equal(res.body, '{"id":5,"fields":"short"}')
  run.child.kill('SIGTERM') // a graceful stop: the exit handler reports
  assert.equal((await run.exited).code, 0)
  const report = run.stderr().split('\n').find((l) => l.startsWith('PACK '))
  assert.deepEqual(JSON.parse(String(report).slice(5)), { serve: true, index: true, codeCacheRejected: false }, run.stderr())
})

test('the pack is ASCII: characters outside it become \\u escapes, the same program', () => {
  // eslint-disable-next-line no-template-curly-in-string -- a template literal inside the source text
  const source = 'const tree = "└─ é"; // — a comment\nconst box = /[├│😀]/u\nconst t = `${1}└`\nmodule.exports = [tree, box.test("│"), box.test("😀"), t]'
  const escaped = asciiSource(source)
  assert.ok(!/[\u0080-\uffff]/.test(escaped))
  const run = (text: string): unknown => { const module = { exports: undefined as unknown }; new Function('module', text)(module); return module.exports } // eslint-disable-line no-new-func
  assert.deepEqual(run(escaped), run(source))
  assert.deepEqual(run(escaped), ['└─ é', true, true, '1└'])
  assert.ok(readFileSync(join(built, 'modules.js')).every((byte) => byte < 0x80))
  // Unicode white space between tokens has no escape: such a module is not packed
  assert.equal(hasUnicodeSpace('const a =\u00a01'), true)
  assert.equal(hasUnicodeSpace(source), false)
})
