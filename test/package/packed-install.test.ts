/**
 * The published package, as a user installs it: `npm pack` of a clean tree of HEAD (dist/ built by
 * npm's `prepare`), `npm install <tarball>` into an empty application, then every entry of the
 * package's "exports" map loaded with require and with import, and the `trellis` command run.
 */
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { installApp, npmMissing, packedTarball, run, type Run } from './packed'

let skip: string | undefined
let tarball = ''
let app = ''
let install: Run
let pkg: { version: string, license: string, engines: { node: string }, exports: Record<string, unknown>, bin: Record<string, string> }

before(async () => {
  skip = await npmMissing()
  if (skip !== undefined) return
  tarball = await packedTarball()
  const installed = await installApp('trellis-empty-app-', { name: 'empty-app', version: '1.0.0', private: true }, [tarball])
  app = installed.dir
  install = installed.install
  pkg = JSON.parse(readFileSync(join(app, 'node_modules', 'trellis', 'package.json'), 'utf8'))
}, { timeout: 240_000 })

after(() => { if (app !== '') rmSync(app, { recursive: true, force: true }) })

test('the tarball holds the build, LICENSE, README, CHANGELOG and docs, and no sources or tests', async (t) => {
  if (skip !== undefined) return t.skip(skip)
  const r = await run('tar', ['-tzf', tarball], app)
  assert.equal(r.status, 0, r.stderr)
  const files = r.stdout.split('\n').filter((f) => f !== '').map((f) => f.replace(/^package\//, ''))
  for (const f of ['package.json', 'LICENSE', 'README.md', 'CHANGELOG.md', 'docs/typescript.md', 'docs/deployment.md',
    'dist/entry/index.cjs', 'dist/entry/index.mjs', 'dist/entry/index.d.ts', 'dist/lib/index.js', 'dist/lib/index.d.ts', 'dist/bin/trellis.js']) {
    assert.ok(files.includes(f), `${f} is not in the tarball`)
  }
  assert.deepEqual(files.filter((f) => /^(src|test|conformance|bench|scripts|node_modules)\//.test(f)), [])
  const license = readFileSync(join(app, 'node_modules', 'trellis', 'LICENSE'), 'utf8')
  assert.equal(pkg.license, 'MIT')
  assert.match(license, /^MIT License\n\nCopyright \(c\) \d{4} the trellis authors\n/)
})

test('npm install of the tarball warns of no unsupported engine on this Node line', (t) => {
  if (skip !== undefined) return t.skip(skip)
  const output = install.stdout + install.stderr
  assert.doesNotMatch(output, /EBADENGINE/, `npm install on Node ${process.version} (package engines ${pkg.engines.node}):\n${output}`)
})

test('README states the Node.js lines of package.json "engines"', (t) => {
  if (skip !== undefined) return t.skip(skip)
  const readme = readFileSync(join(app, 'node_modules', 'trellis', 'README.md'), 'utf8').replace(/\s+/g, ' ')
  assert.ok(readme.includes(`\`engines\`: \`${pkg.engines.node}\``), `README.md does not name engines ${pkg.engines.node}`)
})

// Loads every entry of the installed package's "exports" map (read from it, not listed here) and
// prints what it found; the known entries are also used: an app with bearer auth, a wrapped plugin
// and the OpenAPI document answers a request.
const common = `
const specs = Object.keys(pkg.exports).filter((k) => k !== './package.json' && !k.includes('*'))
  .map((k) => k === '.' ? 'trellis' : 'trellis/' + k.slice(2))
async function use (trellis, fp, bearerAuth, openapi) {
  const app = trellis()
  app.register(fp(async (i) => { i.decorate('answer', 42) }))
  app.register(openapi, { openapi: { info: { title: 'packed', version: '1.0.0' } } })
  app.register(async (api) => {
    api.register(bearerAuth, { keys: ['k'] })
    api.get('/one', async function () { return { answer: this.answer } })
  })
  const denied = await app.inject('/one')
  const allowed = await app.inject({ url: '/one', headers: { authorization: 'Bearer k' } })
  const doc = app.openapi()
  await app.close()
  return { version: app.version, denied: denied.statusCode, allowed: allowed.json(), paths: Object.keys(doc.paths) }
}
`

function entryReport (r: Run): { loaded: Record<string, { keys?: number, defaultType?: string, error?: string }>, [k: string]: unknown } {
  assert.equal(r.status, 0, r.stdout + r.stderr)
  return JSON.parse(r.stdout)
}

function checkEntries (report: { loaded: Record<string, { keys?: number, defaultType?: string, error?: string }>, [k: string]: unknown }): void {
  // the `./lib/*` patterns (Fastify's lib/ paths) are loaded by test/package/fastify-alias.test.ts
  const specs = Object.keys(pkg.exports).filter((k) => k !== './package.json' && !k.includes('*')).map((k) => k === '.' ? 'trellis' : 'trellis/' + k.slice(2))
  for (const known of ['trellis', 'trellis/plugin', 'trellis/bearer-auth', 'trellis/openapi']) assert.ok(specs.includes(known), `exports lost ${known}`)
  assert.deepEqual(Object.keys(report.loaded).sort(), specs.sort())
  const optionalPeers = Object.entries((pkg as { peerDependenciesMeta?: Record<string, { optional?: boolean }> }).peerDependenciesMeta ?? {})
    .filter(([, meta]) => meta.optional === true).map(([name]) => name)
  for (const [spec, found] of Object.entries(report.loaded)) {
    // an entry of an optional peer the app has not installed says which and how, and nothing else fails
    if (found.error !== undefined) {
      assert.ok(optionalPeers.some((peer) => found.error?.includes(`needs ${peer}, its peer dependency: npm install ${peer}`)), `${spec}: ${found.error}`)
      continue
    }
    assert.ok((found.keys ?? 0) > 0, `${spec} exports nothing`)
  }
  for (const known of ['trellis', 'trellis/plugin', 'trellis/bearer-auth', 'trellis/openapi']) assert.equal(report.loaded[known].defaultType, 'function', known)
  assert.deepEqual(report.used, { version: '4.29.1', denied: 401, allowed: { answer: 42 }, paths: ['/one'] })
}

test('require() loads every exported entry, and the factory is also .default and .trellis', async (t) => {
  if (skip !== undefined) return t.skip(skip)
  writeFileSync(join(app, 'check.cjs'), `'use strict'
const pkg = require('trellis/package.json')
${common}
;(async () => {
  const loaded = {}
  for (const spec of specs) {
    try {
      const m = require(spec)
      loaded[spec] = { keys: Object.keys(m).length, defaultType: typeof m.default }
    } catch (err) { loaded[spec] = { error: err.message } }
  }
  const trellis = require('trellis')
  const used = await use(trellis, require('trellis/plugin'), require('trellis/bearer-auth'), require('trellis/openapi'))
  // this app has not installed trellis/otel's optional peer: registering the plugin says so
  let otelWithoutPeer = 'registered'
  try { await trellis().register(require('trellis/otel')).ready() } catch (err) { otelWithoutPeer = err.message }
  process.stdout.write(JSON.stringify({ loaded, used, otelWithoutPeer, callable: typeof trellis, dflt: trellis.default === trellis, named: trellis.trellis === trellis }))
})().catch((err) => { console.error(err); process.exit(1) })
`)
  const report = entryReport(await run(process.execPath, ['check.cjs'], app))
  checkEntries(report)
  assert.deepEqual({ callable: report.callable, dflt: report.dflt, named: report.named }, { callable: 'function', dflt: true, named: true })
  assert.equal(report.otelWithoutPeer, 'trellis/otel needs @opentelemetry/api, its peer dependency: npm install @opentelemetry/api')
})

test('import loads every exported entry: default and named trellis, the same objects require gives', async (t) => {
  if (skip !== undefined) return t.skip(skip)
  writeFileSync(join(app, 'check.mjs'), `import { createRequire } from 'node:module'
import trellis, { trellis as named } from 'trellis'
import fp from 'trellis/plugin'
import bearerAuth from 'trellis/bearer-auth'
import openapi from 'trellis/openapi'
const require = createRequire(import.meta.url)
const pkg = require('trellis/package.json')
${common}
const loaded = {}
for (const spec of specs) {
  try {
    const m = await import(spec)
    loaded[spec] = { keys: Object.keys(m).length, defaultType: typeof m.default }
  } catch (err) { loaded[spec] = { error: err.message } }
}
const used = await use(trellis, fp, bearerAuth, openapi)
process.stdout.write(JSON.stringify({ loaded, used, named: named === trellis, sameAsRequire: trellis === require('trellis') && fp === require('trellis/plugin') }))
`)
  const report = entryReport(await run(process.execPath, ['check.mjs'], app))
  checkEntries(report)
  assert.deepEqual({ named: report.named, sameAsRequire: report.sameAsRequire }, { named: true, sameAsRequire: true })
})

test('every "types" file of the exports map is in the package', (t) => {
  if (skip !== undefined) return t.skip(skip)
  const typesFiles: string[] = []
  const walk = (v: unknown, key: string): void => {
    if (typeof v === 'string') { if (key === 'types') typesFiles.push(v); return }
    if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k)
  }
  walk(pkg.exports, '')
  assert.ok(typesFiles.length >= 8, `only ${typesFiles.length} types conditions`)
  for (const f of typesFiles) {
    const star = f.indexOf('*')
    if (star === -1) { assert.ok(existsSync(join(app, 'node_modules', 'trellis', f)), `${f} is missing`); continue }
    // a pattern (`./types/*`: ./dist/fastify-types/v4/*.d.ts): its folder holds files it maps to
    const folder = join(app, 'node_modules', 'trellis', f.slice(0, star))
    const suffix = f.slice(star + 1)
    assert.ok(existsSync(folder) && readdirSync(folder).some((name) => name.endsWith(suffix)), `no ${suffix} file for ${f}`)
  }
})

test('the trellis command runs: --help points to the docs the package ships, --version prints its version', async (t) => {
  if (skip !== undefined) return t.skip(skip)
  const bin = join(app, 'node_modules', '.bin', 'trellis')
  const help = await run(bin, ['--help'], app)
  assert.equal(help.status, 0, help.stderr)
  assert.match(help.stdout, /^Usage: trellis <command>/)
  const docs = /^Documentation: (\S+) and (\S+)\/ /m.exec(help.stdout)
  assert.ok(docs !== null, help.stdout)
  assert.ok(existsSync(docs[1]) && docs[1].startsWith(join(app, 'node_modules', 'trellis')), docs[1])
  assert.ok(existsSync(join(docs[2], 'deployment.md')), docs[2])
  const startHelp = await run(bin, ['start', '--help'], app)
  assert.equal(startHelp.status, 0, startHelp.stderr)
  assert.ok(startHelp.stdout.includes(docs[0]), startHelp.stdout)
  const version = await run(bin, ['--version'], app)
  assert.equal(version.status, 0, version.stderr)
  assert.equal(version.stdout, `${pkg.version}\n`)
})

// Vercel's Node functions (and Netlify's, whose bundler traces the same way) ship only the files a
// function's imports reach, as @vercel/nft finds them: every entry must lead it to the modules it
// loads, so the traced files alone, copied elsewhere, serve the application.
test('a file tracer (@vercel/nft) finds every module the entries load: the traced files alone serve', async (t) => {
  if (skip !== undefined) return t.skip(skip)
  writeFileSync(join(app, 'function.mjs'), `import trellis from 'trellis'
import trellisV5 from 'trellis/v5'
import fp from 'trellis/plugin'
import fpV5 from 'trellis/v5/plugin'
import bearerAuth from 'trellis/bearer-auth'
import openapi from 'trellis/openapi'
const answers = []
for (const [factory, plugin] of [[trellis, fp], [trellisV5, fpV5]]) {
  const app = factory()
  app.register(plugin(async (i) => { i.decorate('answer', 42) }))
  app.register(openapi, { openapi: { info: { title: 'traced', version: '1.0.0' } }, ui: false })
  app.register(async (api) => {
    api.register(bearerAuth, { keys: ['k'] })
    api.post('/one', {
      schema: {
        body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
        response: { 200: { type: 'object', properties: { answer: { type: 'integer' }, n: { type: 'integer' } } } }
      }
    }, async function (request) { return { answer: this.answer, n: request.body.n, hidden: true } })
  })
  const ask = (body, key) => app.fetch(new Request('http://localhost/one', { method: 'POST', headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' }, body }))
  const ok = await ask('{"n":"7"}', 'k')
  const invalid = await ask('{}', 'k')
  const denied = await ask('{"n":1}', 'nope')
  const injected = await app.inject({ method: 'POST', url: '/one', headers: { authorization: 'Bearer k' }, payload: { n: 2 } })
  answers.push({ version: app.version, ok: [ok.status, await ok.json()], invalid: invalid.status, denied: denied.status, injected: injected.json(), paths: Object.keys(app.openapi().paths) })
}
process.stdout.write(JSON.stringify(answers))
`)
  const { nodeFileTrace } = await import('@vercel/nft')
  // swagger-ui-dist is left out: only the docs page (`ui`, off here) reads its files, and tracing its
  // multi-megabyte bundles would take nft some 15 s of this test
  const { fileList } = await nodeFileTrace([join(app, 'function.mjs')], { base: app, ignore: (file: string) => file.startsWith('node_modules/swagger-ui-dist/') })
  const copy = mkdtempSync(join(tmpdir(), 'trellis-traced-'))
  try {
    for (const file of fileList) {
      mkdirSync(dirname(join(copy, file)), { recursive: true })
      cpSync(join(app, file), join(copy, file))
    }
    assert.ok(fileList.has('node_modules/trellis/dist/lib/index.js') && fileList.has('node_modules/trellis/dist/lib/v5.js'), 'the lines\' implementations are traced')
    const r = await run(process.execPath, ['function.mjs'], copy)
    assert.equal(r.status, 0, `the traced copy failed (${fileList.size} files):\n${r.stderr}`)
    const answer = (version: string): unknown => ({ version, ok: [200, { answer: 42, n: 7 }], invalid: 400, denied: 401, injected: { answer: 42, n: 2 }, paths: ['/one'] })
    assert.deepEqual(JSON.parse(r.stdout), [answer('4.29.1'), answer(JSON.parse(r.stdout)[1].version)])
    assert.match(JSON.parse(r.stdout)[1].version, /^5\./)
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
})
