import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import trellis from '../../src/index'
import trellisV5 from '../../src/v5'
import { VERSION } from '../../src/base/version'
import { aotBuildStats } from '../../src/schema/aot/load-build'
import { listen, request } from '../helpers'
import { freePort, runTrellis, stop, listeningLine, BIN } from '../production/helpers'

// `trellis build` end to end: a build of test/cli/fixtures/aot-app, then servers started with it.
// The in-process servers run the sources, so their build is made from the sources too (a build
// made by dist/ is another serializer generator's); the last test runs the built command throughout.
const root = join(__dirname, '..', '..')
const fixture = join(__dirname, 'fixtures', 'aot-app', 'app.js')
const work = mkdtempSync(join(tmpdir(), 'trellis-aot-'))
after(() => rmSync(work, { recursive: true, force: true }))

function buildFromSources (out: string, env: Record<string, string> = {}): { status: number | null, out: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src', 'cli', 'bin.ts'), 'build', fixture, '--out', out],
    { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...env }, timeout: 120000 })
  return { status: run.status, out: run.stdout + run.stderr }
}

const built = join(work, 'build')
const building = buildFromSources(built)

interface Started { app: any, warnings: Array<Error & { code?: string }> }

/** The fixture on a server created with `options`, ready; the TRLAOT warnings its start raised. */
async function start (options: Record<string, unknown>, env: Record<string, string> = {}): Promise<Started> {
  const warnings: Array<Error & { code?: string }> = []
  const onWarning = (w: Error & { code?: string }): void => { if (String(w.code).startsWith('TRLAOT')) warnings.push(w) }
  process.on('warning', onWarning)
  const saved = { ...process.env }
  Object.assign(process.env, env)
  const app = trellis(options as never)
  try {
    app.register(require(fixture))
    await app.ready()
    await new Promise((resolve) => setImmediate(resolve)) // warnings are emitted on the next tick
  } finally {
    for (const key of Object.keys(env)) { if (saved[key] === undefined) delete process.env[key]; else process.env[key] = saved[key] }
    process.off('warning', onWarning)
  }
  return { app, warnings }
}

function listing (dir: string): string {
  return readdirSync(dir).sort().map((f) => `${f} ${statSync(join(dir, f)).size} ${statSync(join(dir, f)).mtimeMs}`).join('\n')
}

async function post (app: any, url: string, payload: unknown): Promise<{ statusCode: number, body: any }> {
  const res = await app.inject({ method: url.endsWith('address') ? 'PUT' : 'POST', url, payload })
  return { statusCode: res.statusCode, body: res.json() }
}

test('trellis build writes every validator and serializer; a start with TRELLIS_AOT_DIR takes them from it and answers as without', async (t) => {
  assert.equal(building.status, 0, building.out)
  assert.match(building.out, /4 validators, 3 serializers; 1 cannot be stored and compile at every start/)
  for (const file of ['manifest.json', 'compiled.js', 'compiled.v8cache']) assert.ok(existsSync(join(built, file)), file)
  const before = listing(built)
  process.env.TRELLIS_AOT_DIR = built
  let started: Started
  try { started = await start({}) } finally { delete process.env.TRELLIS_AOT_DIR }
  const { app, warnings } = started
  t.after(() => app.close())
  assert.deepEqual(warnings, [])
  assert.deepEqual(aotBuildStats(built), { validators: 4, serializers: 3, codeCacheRejected: false })

  const long = await post(app, '/users', { name: 'abcdefghijklmnop' })
  assert.equal(long.statusCode, 400)
  assert.equal(long.body.message, 'body/name must NOT have more than 10 characters')
  assert.deepEqual(await post(app, '/users', { name: 'ann' }), { statusCode: 201, body: { id: 7, name: 'ann' } })
  const short = await app.inject('/users/5?fields=short')
  assert.equal(short.body, '{"id":5,"fields":"short"}') // params coerced to an integer; password not in the schema
  assert.equal((await app.inject('/users/0')).statusCode, 400)
  assert.equal((await app.inject('/users/5?fields=none')).statusCode, 400)
  assert.equal((await post(app, '/users/1/address', { city: 'X' })).statusCode, 400) // the shared schema's minLength
  assert.deepEqual(await post(app, '/users/1/address', { city: 'Oslo' }), { statusCode: 200, body: { city: 'Oslo' } })
  assert.equal((await app.inject('/mixed')).body, '{"n":1}')

  const { port } = await listen(app)
  const res = await request(port, { method: 'POST', path: '/users', headers: { 'content-type': 'application/json' }, body: '{"name":"bob","x":1}' })
  assert.equal(res.statusCode, 201)
  assert.equal(res.body, '{"id":7,"name":"bob"}')
  assert.equal(listing(built), before, 'a start never writes the build directory')
})

test('a schema changed since the build is compiled at start and named in one warning; every other one comes from the build', async (t) => {
  // a copy: compilers are pooled per directory, and this process already compiled from `built`
  const copy = join(work, 'changed')
  cpSync(built, copy, { recursive: true })
  const { app, warnings } = await start({ aot: { dir: copy } }, { AOT_FIXTURE_CHANGE: '1' })
  t.after(() => app.close())
  assert.equal(warnings.length, 1, warnings.map((w) => w.message).join('\n'))
  assert.equal(warnings[0].code, 'TRLAOT001')
  assert.equal(warnings[0].message, '1 schema not in the build (POST /users body): compiled at start; rerun trellis build')
  assert.deepEqual(aotBuildStats(copy), { validators: 3, serializers: 3, codeCacheRejected: false })
  const four = await post(app, '/users', { name: 'abcd' })
  assert.equal(four.statusCode, 400)
  assert.equal(four.body.message, 'body/name must NOT have more than 3 characters')
  assert.equal((await post(app, '/users', { name: 'abc' })).statusCode, 201)
  assert.equal((await app.inject('/users/0')).statusCode, 400)
})

test('an invalid schema fails trellis build (nothing is written) and ready() of a start with a build', async () => {
  const out = join(work, 'invalid')
  const failed = buildFromSources(out, { AOT_FIXTURE_INVALID: '1' })
  assert.equal(failed.status, 1, failed.out)
  assert.match(failed.out, /trellis: the application failed to build: .*GET: \/broken/)
  assert.equal(existsSync(out), false)

  const app = trellis({ aot: { dir: built } } as never)
  process.env.AOT_FIXTURE_INVALID = '1'
  try {
    app.register(require(fixture))
    await assert.rejects(app.ready(), (err: Error & { code?: string }) => err.code === 'FST_ERR_SCH_VALIDATION_BUILD' && /\/broken/.test(err.message))
  } finally {
    delete process.env.AOT_FIXTURE_INVALID
  }
})

test('a build made for another trellis version, or a directory without a build, is ignored with a warning and every schema compiles', async (t) => {
  const other = join(work, 'other-version')
  cpSync(built, other, { recursive: true })
  const manifest = JSON.parse(readFileSync(join(other, 'manifest.json'), 'utf8'))
  writeFileSync(join(other, 'manifest.json'), JSON.stringify({ ...manifest, trellis: '0.0.0-other' }))
  const { app, warnings } = await start({ aot: { dir: other } })
  t.after(() => app.close())
  assert.equal(warnings.length, 1)
  assert.equal(warnings[0].code, 'TRLAOT002')
  assert.equal(warnings[0].message, `the build in ${other} is not used: it was built for another version: trellis 0.0.0-other (here ${VERSION}); rerun trellis build; every schema is compiled at start`)
  assert.equal(aotBuildStats(other), undefined)
  assert.equal((await post(app, '/users', { name: 'abcdefghijklmnop' })).statusCode, 400)
  assert.equal((await app.inject('/users/5')).body, '{"id":5,"fields":"all"}')

  const empty = mkdtempSync(join(work, 'empty-'))
  const second = await start({ aot: { dir: empty } })
  t.after(() => second.app.close())
  assert.deepEqual(second.warnings.map((w) => [w.code, w.message]), [['TRLAOT002', `the build in ${empty} is not used: it holds no manifest.json (run trellis build); every schema is compiled at start`]])
  assert.equal((await post(second.app, '/users', { name: 'abc' })).statusCode, 201)
})

test('an application on the Fastify 5 line does not use a build made on the Fastify 4 line: one TRLAOT002 names both lines', async (t) => {
  const copy = join(work, 'v4-build-read-on-v5')
  cpSync(built, copy, { recursive: true })
  assert.equal(JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')).fastifyLine, 4)
  const warnings: Array<Error & { code?: string }> = []
  const onWarning = (w: Error & { code?: string }): void => { if (String(w.code).startsWith('TRLAOT')) warnings.push(w) }
  process.on('warning', onWarning)
  t.after(() => process.off('warning', onWarning))
  const app = trellisV5({ aot: { dir: copy } } as never) as any
  t.after(() => app.close())
  app.register(require(fixture))
  await app.ready()
  await new Promise((resolve) => setImmediate(resolve))
  assert.deepEqual(warnings.map((w) => [w.code, w.message]), [['TRLAOT002', `the build in ${copy} is not used: it was built on the Fastify 4 line and this application runs on the Fastify 5 line; rerun trellis build on the Fastify 5 line (--line 5); every schema is compiled at start`]])
  assert.equal(aotBuildStats(copy, 5), undefined)
  assert.equal((await post(app, '/users', { name: 'abcdefghijklmnop' })).statusCode, 400)

  // the same directory read by a Fastify 4 application in the same process: used
  const v4 = await start({ aot: { dir: copy } })
  t.after(() => v4.app.close())
  assert.deepEqual(v4.warnings, [])
  assert.deepEqual(aotBuildStats(copy), { validators: 4, serializers: 3, codeCacheRejected: false })
})

test('a build made under another runtime (Bun, Deno) is ignored with a warning that names both runtimes', async (t) => {
  const deno = join(work, 'built-under-deno')
  cpSync(built, deno, { recursive: true })
  const manifest = JSON.parse(readFileSync(join(deno, 'manifest.json'), 'utf8'))
  assert.equal(manifest.runtime, 'node')
  writeFileSync(join(deno, 'manifest.json'), JSON.stringify({ ...manifest, runtime: 'deno' }))
  const { app, warnings } = await start({ aot: { dir: deno } })
  t.after(() => app.close())
  assert.deepEqual(warnings.map((w) => [w.code, w.message]), [['TRLAOT002', `the build in ${deno} is not used: it was built under Deno and this process runs Node.js; rerun trellis build under Node.js; every schema is compiled at start`]])
  assert.equal(aotBuildStats(deno), undefined)
  assert.equal((await post(app, '/users', { name: 'abcdefghijklmnop' })).statusCode, 400)
})

test('a build whose module is not the one its manifest describes, or that anyone may write, is ignored; without its code cache it is parsed', async (t) => {
  const swapped = join(work, 'swapped')
  cpSync(built, swapped, { recursive: true })
  const text = readFileSync(join(swapped, 'compiled.js'), 'utf8')
  writeFileSync(join(swapped, 'compiled.js'), text.replace(/^\/\/ trellis build [0-9a-f]{16}/, '// trellis build 0000000000000000'))
  const open = join(work, 'open')
  cpSync(built, open, { recursive: true })
  chmodSync(open, 0o777)
  const uncached = join(work, 'uncached')
  cpSync(built, uncached, { recursive: true })
  rmSync(join(uncached, 'compiled.v8cache'))
  const reasons: Array<[string, string]> = [
    [swapped, 'compiled.js is not the module manifest.json describes (a file of another build?)'],
    [open, 'the directory is writable by anyone (a build is code the server runs)']
  ]
  for (const [dir, reason] of reasons) {
    const { app, warnings } = await start({ aot: { dir } })
    t.after(() => app.close())
    assert.deepEqual(warnings.map((w) => [w.code, w.message]), [['TRLAOT002', `the build in ${dir} is not used: ${reason}; every schema is compiled at start`]])
    assert.equal(aotBuildStats(dir), undefined)
    assert.equal((await post(app, '/users', { name: 'abcdefghijklmnop' })).statusCode, 400)
  }
  const { app, warnings } = await start({ aot: { dir: uncached } })
  t.after(() => app.close())
  assert.deepEqual(warnings, [])
  assert.deepEqual(aotBuildStats(uncached), { validators: 4, serializers: 3, codeCacheRejected: true })
  assert.equal((await app.inject('/users/5?fields=short')).body, '{"id":5,"fields":"short"}')
})

test('the aot option: { dir } or false (false ignores TRELLIS_AOT_DIR); anything else is refused', async (t) => {
  assert.throws(() => trellis({ aot: 'dir' } as never), /"aot" must be \{ dir: string \} or false/)
  const copy = join(work, 'ignored')
  cpSync(built, copy, { recursive: true })
  process.env.TRELLIS_AOT_DIR = copy
  let started: Started
  try { started = await start({ aot: false }) } finally { delete process.env.TRELLIS_AOT_DIR }
  t.after(() => started.app.close())
  assert.equal(aotBuildStats(copy), undefined)
  assert.deepEqual(started.warnings, [])
})

test('the built command: trellis help lists build; trellis start with TRELLIS_AOT_DIR warns about the changed schema and serves', async (t) => {
  const help = spawnSync(process.execPath, [BIN, 'help'], { encoding: 'utf8' })
  assert.match(help.stdout, /build \[--out <dir>\] \[--line 4\|5\] <app-file>/)
  const out = join(work, 'dist-build')
  const made = spawnSync(process.execPath, [BIN, 'build', fixture, '--out', out], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 120000 })
  assert.equal(made.status, 0, made.stdout + made.stderr)
  const port = await freePort()
  const run = runTrellis(['start', '--port', String(port), '--address', '127.0.0.1', fixture], { env: { TRELLIS_AOT_DIR: out, AOT_FIXTURE_CHANGE: '1' } })
  t.after(() => stop(run))
  await run.waitFor(listeningLine)
  const res = await request(port, { method: 'POST', path: '/users', headers: { 'content-type': 'application/json' }, body: '{"name":"abcd"}' })
  assert.equal(res.statusCode, 400)
  assert.match(res.body, /must NOT have more than 3 characters/)
  const warning = run.stderr().split('\n').filter((l) => l.includes('TRLAOT'))
  assert.equal(warning.length, 1, run.stderr())
  assert.match(warning[0], /\[TRLAOT001\] TrellisWarning: 1 schema not in the build \(POST \/users body\): compiled at start; rerun trellis build/)
})
