/**
 * The `trellis` commands of README.md and docs/, run as shown in an application with the Fastify 4
 * alias installed (doc-commands.ts): `trellis start --workers auto` (README.md), the three ways of
 * choosing the Fastify 5 line (docs/deployment.md), `trellis check` (docs/migrating-to-v5.md) and the
 * Workers build with esbuild installed as docs/runtimes.md shows.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { run } from './packed'
import { aliasApp, endGroup, getJson, NPM_QUIET, PATH_ENV, runShown, setup, shownCommand, startShown, VERSION_APP, words } from './doc-commands'

let app = ''
const s = setup(async (s) => { app = await aliasApp(s, 4, 'npm install fastify@file:./trellis-0.1.0.tgz') })

test('trellis start --workers auto serves the application from every worker', { timeout: 120_000 }, async (t) => {
  if (s.skip !== undefined) return t.skip(s.skip)
  writeFileSync(join(app, 'app.js'), VERSION_APP)
  // loopback and a free port instead of every interface and 3000
  const started = await startShown(s.children, 'npx trellis start --workers auto --address 0.0.0.0 --port 3000 app.js', app, {
    replace: (w, port) => w.map((x, i) => w[i - 1] === '--address' ? '127.0.0.1' : w[i - 1] === '--port' ? String(port) : x)
  })
  const workers = /"workers":(\d+)/.exec(started.output())
  assert.ok(workers !== null, started.output())
  const pids = new Set<number>()
  for (let i = 0; i < 40 && pids.size < Number(workers[1]); i++) {
    const answer = await getJson(started.port)
    assert.equal(answer.version, '4.29.1')
    pids.add(answer.pid)
  }
  assert.equal(pids.size, Number(workers[1]), 'each worker answered')
  await endGroup(started.child)
})

test('the three ways docs/deployment.md chooses the Fastify 5 line for trellis start', { timeout: 120_000 }, async (t) => {
  if (s.skip !== undefined) return t.skip(s.skip)
  writeFileSync(join(app, 'app.js'), VERSION_APP)
  // the package.json setting of the comment, beside the same installed packages (a link)
  const withSetting = join(s.workDir, 'alias-4-line-5')
  mkdirSync(withSetting)
  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
  writeFileSync(join(withSetting, 'package.json'), JSON.stringify({ ...manifest, trellis: { fastifyLine: 5 } }, null, 2))
  writeFileSync(join(withSetting, 'app.js'), VERSION_APP)
  symlinkSync(join(app, 'node_modules'), join(withSetting, 'node_modules'), 'dir')
  const ways = [
    { command: 'npx trellis start app.js', cwd: withSetting },
    { command: 'TRELLIS_FASTIFY_LINE=5 npx trellis start app.js', cwd: app },
    { command: 'npx trellis start --line 5 app.js', cwd: app }
  ]
  for (const { command, cwd } of ways) {
    const started = await startShown(s.children, command, cwd)
    assert.equal((await getJson(started.port)).version, '5.12.8', command)
    await endGroup(started.child)
  }
  // and without any of them, the installed package's line
  const plain = await startShown(s.children, 'npx trellis start app.js', app)
  assert.equal((await getJson(plain.port)).version, '4.29.1')
  await endGroup(plain.child)
})

test('trellis check, as docs/migrating-to-v5.md starts the migration', { timeout: 120_000 }, async (t) => {
  if (s.skip !== undefined) return t.skip(s.skip)
  // a Fastify 4 application using what Fastify 5 removed
  writeFileSync(join(app, 'app.js'), "module.exports = async function (app) {\n  app.get('/', async (request) => ({ path: request.routerPath }))\n}\n")
  const [cmd, ...args] = words(shownCommand('npx trellis check app.js'))
  const r = await run(cmd, args, app, PATH_ENV)
  assert.match(r.stdout + r.stderr, /routerPath/, r.stdout + r.stderr)
  assert.equal(r.status, 1, 'a finding that breaks on Fastify 5 exits 1')
})

test('the Workers build, as docs/runtimes.md shows it', { timeout: 180_000 }, async (t) => {
  if (s.skip !== undefined) return t.skip(s.skip)
  writeFileSync(join(app, 'app.mjs'), "export default async function (app) {\n  app.get('/', async () => ({ version: app.version }))\n}\n")
  await runShown('npm install --save-dev esbuild', app, NPM_QUIET)
  await runShown('npx trellis build --target worker app.mjs --out worker', app)
  for (const file of ['worker.mjs', 'workerd.capnp', 'wrangler.toml']) assert.ok(existsSync(join(app, 'worker', file)), `worker/${file}`)
  // the bundle answers through its fetch entry (workerd serving it is test/runtimes/workerd.test.ts)
  const script = "const { default: w } = await import(process.argv[1]); const res = await w.fetch(new Request('http://x/')); process.stdout.write(await res.text())"
  const r = await run(process.execPath, ['--input-type=module', '-e', script, join(app, 'worker', 'worker.mjs')], app)
  assert.equal(r.status, 0, r.stderr)
  assert.deepEqual(JSON.parse(r.stdout), { version: '4.29.1' })
})
