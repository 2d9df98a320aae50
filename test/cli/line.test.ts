/**
 * The CLI follows the application's Fastify line: `trellis start` (one process and --workers),
 * `trellis build` and the start of a build, with the line from --line, TRELLIS_FASTIFY_LINE or the
 * application's package.json. The built command (dist/bin/trellis.js), over real sockets.
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { appLine, installedLine } from '../../src/cli/line'
import { UsageError } from '../../src/cli/args'
import { BIN, ROOT, freePort, listeningLine, request, runTrellis, stop, tempApp, tempDir, type Running } from '../production/helpers'

const fixtures = join(__dirname, 'fixtures')
const v5App = join(fixtures, 'v5-app', 'app.js')
const aotApp = join(fixtures, 'aot-app', 'app.js')

async function started (args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<{ run: Running, port: number }> {
  const port = await freePort()
  const run = runTrellis(['start', '-a', '127.0.0.1', '-p', String(port), ...args], { env, cwd })
  await run.waitFor(listeningLine)
  return { run, port }
}

test('the line: --line, else TRELLIS_FASTIFY_LINE, else the nearest package.json that sets it (up to the package), else the installed package\'s, else 4', () => {
  const dir = tempDir('trellis-line-')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', trellis: { fastifyLine: 5 } }))
  mkdirSync(join(dir, 'src', 'dist'), { recursive: true })
  writeFileSync(join(dir, 'src', 'dist', 'package.json'), JSON.stringify({ type: 'commonjs' })) // no name: not the package root
  const file = join(dir, 'src', 'dist', 'app.js')
  const fromPackage = appLine(file, undefined, {})
  assert.equal(fromPackage.line, 5)
  assert.match(fromPackage.from, /package\.json "trellis\.fastifyLine"$/)
  assert.deepEqual(appLine(file, undefined, { TRELLIS_FASTIFY_LINE: '4' }), { line: 4, from: 'TRELLIS_FASTIFY_LINE' })
  assert.deepEqual(appLine(file, '4', { TRELLIS_FASTIFY_LINE: '5' }), { line: 4, from: 'the --line flag' })
  assert.deepEqual(appLine(file, '5', {}), { line: 5, from: 'the --line flag' })

  // a package.json with a name is the application's own: nothing above it is read
  const inner = join(dir, 'packages', 'api')
  mkdirSync(inner, { recursive: true })
  writeFileSync(join(inner, 'package.json'), JSON.stringify({ name: 'api' }))
  assert.deepEqual(appLine(join(inner, 'app.js'), undefined, {}), { line: 4, from: 'the default' })

  assert.throws(() => appLine(file, '6', {}), (err: Error) => err instanceof UsageError && err.message === '--line must be 4 or 5, got "6"')
  assert.throws(() => appLine(file, undefined, { TRELLIS_FASTIFY_LINE: 'five' }), (err: Error) => err instanceof UsageError && err.message === 'TRELLIS_FASTIFY_LINE must be 4 or 5, got "five"')
  // nothing declared by the application: the installed package's line (trellis-fastify5 says 5)
  const v5Package = join(dir, 'trellis-fastify5.json')
  writeFileSync(v5Package, JSON.stringify({ name: 'trellis-fastify5', trellis: { fastifyLine: 5 } }))
  assert.deepEqual(appLine(join(inner, 'app.js'), undefined, {}, () => installedLine(v5Package)), { line: 5, from: 'the installed package (trellis-fastify5)' })
  assert.deepEqual(appLine(file, '4', {}, () => installedLine(v5Package)), { line: 4, from: 'the --line flag' })
  assert.equal(installedLine(join(__dirname, '..', '..', 'package.json')), undefined) // trellis itself declares no line
  writeFileSync(join(inner, 'package.json'), JSON.stringify({ name: 'api', trellis: { fastifyLine: '5.x' } }))
  assert.throws(() => appLine(join(inner, 'app.js'), undefined, {}), (err: Error) => err instanceof UsageError && /package\.json "trellis\.fastifyLine" must be 4 or 5, got "5\.x"$/.test(err.message))
})

describe('trellis start', { concurrency: true }, () => {
  test('a Fastify 5 application (its package.json declares the line) starts with @fastify/cors 11 and reports version 5.12.8', async (t) => {
    const { run, port } = await started([v5App])
    t.after(() => stop(run))
    const res = await request(port, '/version', { headers: { origin: 'http://web.example' } })
    assert.equal(res.status, 200)
    assert.equal(JSON.parse(res.body).version, '5.12.8')
    assert.equal(res.headers['access-control-allow-origin'], 'http://web.example', '@fastify/cors 11 is loaded')
  })

  test('the same application on the Fastify 4 line (--line 4, or TRELLIS_FASTIFY_LINE=4) fails with the plugin\'s version error, exit 1', async () => {
    for (const [args, env] of [[['--line', '4', v5App], {}], [[v5App], { TRELLIS_FASTIFY_LINE: '4' }]] as Array<[string[], Record<string, string>]>) {
      const run = runTrellis(['start', '-a', '127.0.0.1', '-p', String(await freePort()), ...args], { env })
      const { code } = await run.exited
      assert.equal(code, 1)
      assert.match(run.stderr(), /expected '5\.x' fastify version, '4\.29\.1' is installed/)
    }
  })

  test('an application that declares no line runs on the Fastify 4 line; TRELLIS_FASTIFY_LINE=5 or --line 5 moves it', async (t) => {
    const dir = tempApp({ 'package.json': JSON.stringify({ name: 'plain' }), 'app.cjs': "module.exports = async (app) => { app.get('/version', async () => ({ version: app.version })) }\n" })
    const versions: string[] = []
    for (const [args, env] of [[[], {}], [[], { TRELLIS_FASTIFY_LINE: '5' }], [['--line', '5'], { TRELLIS_FASTIFY_LINE: '4' }]] as Array<[string[], Record<string, string>]>) {
      const { run, port } = await started([...args, 'app.cjs'], env, dir)
      t.after(() => stop(run))
      versions.push(JSON.parse((await request(port, '/version')).body).version)
    }
    assert.deepEqual(versions, ['4.29.1', '5.12.8', '5.12.8'])
  })

  test('--options on the Fastify 5 line: an exported loggerInstance is the logger (each worker logs through a child of it)', async (t) => {
    const dir = tempApp({
      'package.json': JSON.stringify({ name: 'v5-logger', trellis: { fastifyLine: 5 } }),
      'app.cjs': "module.exports = async (app) => { app.get('/version', async (request) => { request.log.info('from the handler'); return { version: app.version } }) }\n" +
        "module.exports.options = { loggerInstance: require('pino')({ base: { app: 'v5-logger' } }) }\n"
    })
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
    for (const workers of ['1', '2']) {
      const { run, port } = await started(['--options', '--workers', workers, 'app.cjs'], {}, dir)
      t.after(() => stop(run))
      assert.equal(JSON.parse((await request(port, '/version')).body).version, '5.12.8')
      const line = await run.waitFor((l) => l.msg === 'from the handler')
      assert.equal(line.app, 'v5-logger', 'the exported instance wrote it')
      assert.equal(typeof line.worker, workers === '1' ? 'undefined' : 'number')
    }
  })

  test('under the package alias, the application\'s own require(\'fastify\') gives the line the command runs (--line 5)', async (t) => {
    // an install aliased as `fastify`: trellis' package.json and dist/ in node_modules/fastify
    const dir = tempApp({
      'package.json': JSON.stringify({ name: 'aliased', dependencies: { fastify: 'file:/abs/trellis-0.1.0.tgz' } }),
      'app.cjs': "const fastify = require('fastify')\nmodule.exports = async (app) => { app.get('/version', async () => ({ server: app.version, own: fastify().version })) }\n"
    })
    const installed = join(dir, 'node_modules', 'fastify')
    mkdirSync(installed, { recursive: true })
    cpSync(join(ROOT, 'package.json'), join(installed, 'package.json'))
    cpSync(join(ROOT, 'dist'), join(installed, 'dist'), { recursive: true })
    symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules')) // trellis' own dependencies
    const port = await freePort()
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', String(port), '--line', '5', 'app.cjs'], { cwd: dir, command: join(installed, 'dist', 'bin', 'trellis.js') })
    t.after(() => stop(run))
    await run.waitFor(listeningLine)
    assert.deepEqual(JSON.parse((await request(port, '/version')).body), { server: '5.12.8', own: '5.12.8' })
  })

  test('--workers 2: every worker runs the application\'s line; the primary logs it', async (t) => {
    const port = await freePort()
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', String(port), '--workers', '2', v5App])
    t.after(() => stop(run))
    const starting = await run.waitFor((l) => l.msg === 'starting workers')
    assert.equal(starting.fastifyLine, 5)
    assert.match(starting.lineFrom, /v5-app\/package\.json "trellis\.fastifyLine"$/)
    await run.waitFor(() => run.lines.filter((l) => l.msg === 'worker listening').length >= 2)
    const seen = new Map<number, string>()
    for (let i = 0; i < 40 && seen.size < 2; i++) {
      const body = JSON.parse((await request(port, '/version')).body) as { version: string, pid: number }
      seen.set(body.pid, body.version)
    }
    assert.equal(seen.size, 2, 'both workers answered')
    assert.deepEqual([...seen.values()], ['5.12.8', '5.12.8'])
  })
})

test('a build records its line; a start on the other line does not use it (TRLAOT002 names both), one on the same line does', async (t) => {
  const out = join(tempDir('trellis-line-build-'), 'build')
  const made = spawnSync(process.execPath, [BIN, 'build', '--line', '5', aotApp, '--out', out], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 180000 })
  assert.equal(made.status, 0, made.stdout + made.stderr)
  assert.match(made.stdout, /^trellis build .*app\.js \(Fastify 5 line\): 4 validators, 3 serializers/)
  assert.match(made.stdout, /on the Fastify 5 line and this Node version/)
  assert.equal(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).fastifyLine, 5)

  const body = '{"name":"abcdefghijklmnop"}'
  const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body }
  const other = await started([aotApp], { TRELLIS_AOT_DIR: out })
  t.after(() => stop(other.run))
  const refused = await request(other.port, '/users', post)
  assert.equal(refused.status, 400, 'the schemas are compiled at start instead')
  const warnings = other.run.stderr().split('\n').filter((l) => l.includes('TRLAOT'))
  assert.deepEqual(warnings.map((l) => l.replace(/^\(node:\d+\) /, '')), [
    `[TRLAOT002] TrellisWarning: the build in ${out} is not used: it was built on the Fastify 5 line and this application runs on the Fastify 4 line; rerun trellis build on the Fastify 4 line (--line 4); every schema is compiled at start`
  ])

  const same = await started(['--line', '5', aotApp], { TRELLIS_AOT_DIR: out })
  t.after(() => stop(same.run))
  assert.equal((await request(same.port, '/users', post)).status, 400)
  assert.equal((await request(same.port, '/users', { ...post, body: '{"name":"ann"}' })).body, '{"id":7,"name":"ann"}')
  assert.deepEqual(same.run.stderr().split('\n').filter((l) => l.includes('TRLAOT')), [], same.run.stderr())
})
