/**
 * The package alias `"fastify": "npm:trellis@…"`: a Fastify 4 TypeScript application with @fastify
 * plugins (test/package/fixtures/fastify4-app, its own package.json and node:test tests; src/live.ts uses
 * @fastify/websocket 10, whose declarations import `fastify/types/*`) installed
 * with `fastify` pointing at the packed trellis tarball, then type-checked (`tsc`, strict, with
 * skipLibCheck off, so the plugins' own declarations, which import 'fastify', are checked against
 * trellis's) and its tests run unchanged. The fixture is Fastify 4 code: installed with
 * `"fastify": "4.29.1"` instead, it type-checks and its ten tests pass (checked 2026-11-25).
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
  app = await installedFixture('fastify4-app')
  rmSync(join(app, 'dist'), { recursive: true, force: true })
}, { timeout: 240_000 })

test('node_modules/fastify is trellis, its entries reached as fastify/…', async (t) => {
  if (skip !== undefined) return t.skip(skip)
  const installed = JSON.parse(readFileSync(join(app, 'node_modules', 'fastify', 'package.json'), 'utf8'))
  assert.equal(installed.name, 'trellis')
  const script = `const pkg = require('fastify/package.json')
const loaded = Object.keys(pkg.exports).filter((k) => k !== './package.json' && !k.includes('*'))
  .map((k) => k === '.' ? 'fastify' : 'fastify/' + k.slice(2)).map((spec) => [spec, typeof require(spec).default])
process.stdout.write(JSON.stringify({ loaded, version: require('fastify')().version }))`
  const r = await run(process.execPath, ['-e', script], app)
  assert.equal(r.status, 0, r.stderr)
  const { loaded, version } = JSON.parse(r.stdout)
  for (const spec of ['fastify', 'fastify/plugin', 'fastify/bearer-auth', 'fastify/openapi']) {
    assert.deepEqual(loaded.find((e: [string, string]) => e[0] === spec), [spec, 'function'])
  }

  assert.equal(version, '4.29.1')
  const help = await run(join(app, 'node_modules', '.bin', 'trellis'), ['--help'], app)
  assert.equal(help.status, 0, help.stderr)
  assert.ok(help.stdout.includes(`Documentation: ${join(app, 'node_modules', 'fastify', 'README.md')} and `), help.stdout)
})

test('the app and the plugins\' declarations type-check against trellis (strict, skipLibCheck off)', { timeout: 180_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc')
  const r = await run(process.execPath, [tsc, '-p', '.', '--listFiles'], app)
  assert.equal(r.status, 0, r.stdout + r.stderr)
  const files = r.stdout.split('\n').map((f) => f.slice(app.length + 1))
  for (const plugin of ['cors', 'rate-limit', 'sensible', 'helmet', 'websocket']) {
    assert.ok(files.some((f) => f.startsWith(`node_modules/@fastify/${plugin}/`) && f.endsWith('.d.ts')), `${plugin}'s declarations were not checked`)
  }
  assert.ok(files.includes('node_modules/fastify/dist/lib/index.d.ts'), 'the declarations of fastify are not trellis\'s')
  // @fastify/websocket 10 imports 'fastify/types/reply', '…/hooks', '…/route': the v4 line's declarations
  for (const name of ['reply', 'hooks', 'route']) assert.ok(files.includes(`node_modules/fastify/dist/fastify-types/v4/${name}.d.ts`), `fastify/types/${name}`)
  // one declaration file for ES modules and CommonJS (Fastify's layout, `export =`), as on the v5 line
  assert.ok(files.includes('node_modules/fastify/dist/entry/index.d.ts'), 'the declarations of fastify are not trellis\'s entry')
  assert.ok(!files.some((f) => f.startsWith('node_modules/fastify/dist/entry/') && f.endsWith('.d.mts') && !/plugin|bearer|openapi|otel/.test(f)), 'ES modules and CommonJS files see two declaration files of fastify')
})

test('the app\'s own tests pass unchanged', { timeout: 120_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  // its `npm test` is `node --test …`: the node of this run first on PATH
  const r = await run('npm', ['test'], app, { PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` })
  assert.equal(r.status, 0, r.stdout + r.stderr)
  // the summary of node:test's tap (`# pass`) or spec (`ℹ pass`) reporter, whichever this Node line uses
  assert.match(r.stdout, /^(?:#|ℹ) pass 10$/m)
  assert.match(r.stdout, /^(?:#|ℹ) fail 0$/m)
})

// What packages reach of Fastify's internals (docs/compatibility.md lists who): @nestjs/platform-fastify
// 10 and 11 require('fastify/lib/reply') and 'fastify/lib/symbols', 12 imports 'fastify/lib/reply.js'
// the modules whose export is a function (a class, or validateInitialConfig), as in Fastify
const LIB_CLASSES = ['reply', 'request', 'initialConfigValidation', 'initial-config-validation', 'content-type']
const LIB = ['symbols', 'reply', 'request', 'errors', 'warnings', 'logger', 'initialConfigValidation', 'initial-config-validation', 'content-type', 'log-controller']
const libScript = `import { createRequire } from 'node:module'
const require = createRequire(process.cwd() + '/index.js')
const out = { specs: {} }
for (const name of ${JSON.stringify(LIB)}) {
  for (const spec of ['fastify/lib/' + name, 'fastify/lib/' + name + '.js']) {
    const loaded = require(spec)
    const imported = await import(spec)
    out.specs[spec] = { type: typeof loaded, importDefaultIsRequire: imported.default === loaded }
  }
}
const Reply = require('fastify/lib/reply')
const { kRouteContext } = await import('fastify/lib/symbols.js')
out.namedImportIsRequire = kRouteContext === require('fastify/lib/symbols').kRouteContext && typeof kRouteContext === 'symbol'
out.replyLine = 'mediaType' in Reply.prototype ? 5 : 'getResponseTime' in Reply.prototype ? 4 : 0
out.mediaTypeMessage = new (require('fastify/lib/errors.js').FST_ERR_CTP_INVALID_MEDIA_TYPE)('a/b').message
const Request = require('fastify/lib/request')
const app = require('fastify')()
app.get('/', (request, reply) => { reply.send({ instance: reply instanceof Reply, version: app.version }) })
app.get('/request', (request, reply) => { reply.send({ instance: request instanceof Request }) })
out.route = (await app.inject('/')).json()
out.requestClass = (await app.inject('/request')).json()
try { require('fastify/lib/pluginUtils') } catch (err) { out.notProvided = err.code }
// a Request built by hand (fastify/lib/request)
const byHand = new Request('1', {}, { url: '/', method: 'GET', headers: { host: 'a.example:81' }, socket: { remoteAddress: '10.0.0.1' } }, {}, {}, {})
out.byHand = { ip: byHand.ip, hostname: byHand.hostname, protocol: byHand.protocol }
process.stdout.write(JSON.stringify(out))`

for (const line of [4, 5] as const) {
  test(`Fastify 4/5 lib/ paths under the alias, Fastify ${line} line: require and import, with and without .js`, async (t) => {
    if (skip !== undefined) return t.skip(skip)
    const r = await run(process.execPath, ['--input-type=module', '-e', libScript], app, { TRELLIS_FASTIFY_LINE: String(line) })
    assert.equal(r.status, 0, r.stderr)
    const out = JSON.parse(r.stdout)
    for (const name of LIB) {
      for (const spec of [`fastify/lib/${name}`, `fastify/lib/${name}.js`]) {
        assert.deepEqual(out.specs[spec], { type: LIB_CLASSES.includes(name) ? 'function' : 'object', importDefaultIsRequire: true }, spec)
      }
    }
    assert.equal(out.namedImportIsRequire, true)
    assert.equal(out.replyLine, line, 'lib/reply is the Reply class of the line the alias follows')
    // as fastify@5.12.8's and @4.29.1's lib/errors give it
    assert.equal(out.mediaTypeMessage, line === 5 ? 'Unsupported Media Type a/b' : 'Unsupported Media Type: a/b')
    assert.deepEqual(out.route, { instance: true, version: line === 5 ? '5.12.8' : '4.29.1' })
    // a lib/ module trellis has no adapter for is missing, not refused by the exports map
    assert.equal(out.notProvided, 'MODULE_NOT_FOUND')
    assert.deepEqual(out.byHand, { ip: '10.0.0.1', hostname: line === 5 ? 'a.example' : 'a.example:81', protocol: 'http' })
    assert.deepEqual(out.requestClass, { instance: true })
  })
}
