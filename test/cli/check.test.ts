import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from '../production/helpers'

// runs the built command (npm test builds before the tests)
const root = join(__dirname, '..', '..')
const bin = join(root, 'dist', 'bin', 'trellis.js')
const fixtures = join(__dirname, 'fixtures')

function check (app: string, args: string[] = [], env: Record<string, string> = {}): { status: number | null, out: string } {
  const run = spawnSync(process.execPath, [bin, 'check', ...args, join('test', 'cli', 'fixtures', app, 'app.js')], { cwd: root, encoding: 'utf8', timeout: 60000, env: { ...process.env, ...env } })
  return { status: run.status, out: run.stdout + run.stderr }
}

/** Every finding's severity, text and place. */
function findings (out: string): Array<{ severity: string, what: string, where: string }> {
  const lines = out.split('\n')
  const found = []
  for (let i = 0; i < lines.length; i++) {
    if (/^(breaks|changes|bridged) /.test(lines[i]) && lines[i + 1]?.startsWith('        at ')) {
      found.push({ severity: lines[i].slice(0, 8).trim(), what: lines[i].slice(8), where: lines[i + 1].trim().replace(/^at /, '') })
    }
  }
  return found
}

/** The finding whose text starts with `what`, and where it says it was found. */
function finding (out: string, what: string): { severity: string, where: string, instead: string } | undefined {
  const lines = out.split('\n')
  const i = lines.findIndex((l) => l.slice(8).startsWith(what))
  if (i === -1) return undefined
  return { severity: lines[i].slice(0, 8).trim(), where: lines[i + 1].trim().replace(/^at /, ''), instead: lines[i + 2].trim().replace(/^instead: /, '') }
}

test('trellis check lists each Fastify 4 usage that Fastify 5 changes, where it is and what to write instead', () => {
  const { status, out } = check('v4-app')
  assert.equal(status, 1, out)
  const expectations: Array<[string, string, RegExp, RegExp]> = [
    ['a request/reply decorator with an object or array value', 'breaks', /app\.js:12:\d+$/, /onRequest hook/],
    ['an async plugin function that also takes done', 'breaks', /./, /without done/],
    ['a shorthand schema', 'breaks', /route \/items/, /type: 'object'/],
    ['the PROPFIND method (not built in)', 'breaks', /^route PROPFIND \/dav$/, /addHttpMethod\('PROPFIND'/],
    ['the route option { version }', 'breaks', /./, /constraints/],
    ['request.routerPath', 'breaks', /app\.js:18$/, /routeOptions\.url/],
    ['reply.redirect(code, url)', 'breaks', /app\.js:19$/, /redirect\(url, code\)/],
    ['logger: a logger instance', 'breaks', /^server options$/, /loggerInstance/],
    ["plugin 'legacy-plugin' declares fastify '4.x'", 'bridged', /app\.js:6$/, /Fastify 5 major/],
    ["useSemicolonDelimiter's default becomes false", 'changes', /^server options$/, /useSemicolonDelimiter: true/]
  ]
  for (const [what, severity, where, instead] of expectations) {
    const f = finding(out, what)
    assert.ok(f !== undefined, `missing: ${what}\n${out}`)
    assert.equal(f.severity, severity, what)
    assert.match(f.where, where, what)
    assert.match(f.instead, instead, what)
  }
  assert.match(out, /^trellis check \S+app\.js: loaded on the Fastify 4 line \(the default\); read 1 source file\(s\) it loaded$/m)
  assert.match(out, /finding\(s\): \d+ that break on Fastify 5, 2 that change behaviour, 1 handled by the Fastify 4 bridge/)
})

const half = 'test/cli/fixtures/v5-half-app/'

test('trellis check of a half-migrated Fastify 5 application: loaded on its line, what the bridge carries is "bridged", exit 0', () => {
  const { status, out } = check('v5-half-app')
  assert.match(out, /^trellis check \S+app\.js: loaded on the Fastify 5 line \(test\/cli\/fixtures\/v5-half-app\/package\.json "trellis\.fastifyLine"\); read 2 source file\(s\) it loaded$/m)
  assert.deepEqual(findings(out), [
    { severity: 'bridged', what: "plugin 'legacy-plugin' declares fastify '4.x': the Fastify 4 bridge runs it on Fastify 5", where: `${half}legacy.js:5` },
    { severity: 'bridged', what: 'a request/reply decorator with an object or array value (FST_ERR_DEC_REFERENCE_TYPE in v5)', where: `${half}legacy.js:6:7` },
    { severity: 'bridged', what: 'request.routerPath', where: `${half}legacy.js:8` },
    { severity: 'bridged', what: 'reply.redirect(code, url)', where: `${half}legacy.js:8` }
  ], out)
  // not the backup copy beside it (never loaded), not trellis' own plugins, not @fastify/cors 11
  assert.doesNotMatch(out, /app\.backup\.js|trellis-|cors/)
  assert.match(out, /4 finding\(s\): 0 that break on Fastify 5, 0 that change behaviour, 4 handled by the Fastify 4 bridge\. Nothing breaks: the application runs on trellis\/v5\./)
  assert.equal(status, 0, out)
})

test('trellis check of a TypeScript ES module application under tsx: places are the .ts lines (through the source maps)', () => {
  const dir = tempDir('trellis-check-ts-')
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ts-app', type: 'module', trellis: { fastifyLine: 5 } }))
  writeFileSync(join(dir, 'legacy.ts'), [
    "import fp from 'fastify-plugin'",
    '',
    'interface Options { suffix?: string }',
    '',
    'export default fp(async function legacy (app: any, opts: Options) {',
    "  const suffix: string = opts.suffix ?? ''",
    "  app.get('/legacy', async (request: any, reply: any) => {",
    '    return reply.redirect(302, "/items?from=" + request.routerPath + suffix)',
    '  })',
    "}, { name: 'legacy-ts', fastify: '4.x' })",
    ''
  ].join('\n'))
  writeFileSync(join(dir, 'app.ts'), [
    "import legacy from './legacy.ts'",
    '',
    'export default async function app (app: any): Promise<void> {',
    '  await app.register(legacy)',
    "  app.get('/own', async (request: any) => ({ path: request.routerPath }))",
    '}',
    ''
  ].join('\n'))
  const run = spawnSync(process.execPath, [bin, 'check', 'app.ts'], { cwd: dir, encoding: 'utf8', timeout: 60000, env: { ...process.env, NODE_OPTIONS: '--import tsx' } })
  const out = run.stdout + run.stderr
  assert.equal(run.status, 1, out)
  assert.deepEqual(findings(out), [
    { severity: 'breaks', what: 'request.routerPath', where: 'app.ts:5' },
    { severity: 'bridged', what: "plugin 'legacy-ts' declares fastify '4.x': the Fastify 4 bridge runs it on Fastify 5", where: 'legacy.ts:5' },
    { severity: 'bridged', what: 'request.routerPath', where: 'legacy.ts:8' },
    { severity: 'bridged', what: 'reply.redirect(code, url)', where: 'legacy.ts:8' }
  ], out)
})

test('trellis check reads the files the application loads: a module of its own that uses a Fastify 4 accessor breaks, exit 1', () => {
  const { status, out } = check('v5-half-app', [], { CHECK_FIXTURE_OWN_USE: '1' })
  assert.equal(status, 1, out)
  assert.deepEqual(findings(out).filter((f) => f.severity === 'breaks'), [{ severity: 'breaks', what: 'request.routerPath', where: `${half}own-routes.js:5` }], out)
  assert.equal(findings(out).filter((f) => f.severity === 'bridged').length, 4)
})

test('trellis check of an application that does not load on the line asked for says why, and still reports its source files', () => {
  const { status, out } = check('v5-half-app', ['--line', '4'])
  assert.equal(status, 1, out)
  assert.match(out, /^trellis check \S+app\.js: could not load it on the Fastify 4 line \(the --line flag\)/m)
  const failure = finding(out, 'the application does not load on the Fastify 4 line')
  assert.ok(failure !== undefined, out)
  assert.equal(failure.severity, 'breaks')
  assert.match(out, /does not load on the Fastify 4 line: fastify-plugin: @fastify\/cors - expected '5\.x' fastify version, '4\.29\.1' is installed/)
  assert.match(failure.instead, /^run it on the Fastify 5 line: "trellis": \{ "fastifyLine": 5 \} in package\.json/)
  const routerPath = finding(out, 'request.routerPath')
  assert.equal(routerPath?.where, `${half}legacy.js:8`, 'the source findings of the files loaded before the failure')
})

test('trellis check on the Fastify 5 line: Fastify 5\'s own FSTDEP022 (router options at the top level) is its warning, not a finding', () => {
  const dir = tempDir('trellis-check-v5-warning-')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'router-options', trellis: { fastifyLine: 5 } }))
  writeFileSync(join(dir, 'app.js'), "module.exports = async (app) => { app.get('/', async () => 'ok') }\nmodule.exports.options = { ignoreTrailingSlash: true }\n")
  const run = spawnSync(process.execPath, [bin, 'check', 'app.js'], { cwd: dir, encoding: 'utf8', timeout: 60000 })
  assert.equal(run.status, 0, run.stdout + run.stderr)
  assert.match(run.stdout, /Nothing found/)
  assert.match(run.stderr, /\[FSTDEP022\] FastifyWarning: The router options for ignoreTrailingSlash property access is deprecated/)
})

test('trellis check names every package that loads a nested real fastify under the package alias, and the overrides line that fixes it', () => {
  const dir = tempDir('trellis-check-nested-')
  const pkg = (path: string, json: object): void => {
    mkdirSync(join(dir, path), { recursive: true })
    writeFileSync(join(dir, path, 'package.json'), JSON.stringify(json))
  }
  pkg('.', { name: 'nest-app', dependencies: { fastify: 'file:/abs/trellis-0.1.0.tgz', '@nestjs/platform-fastify': '11.2.8' } })
  pkg('node_modules/fastify', { name: 'trellis', version: '0.1.0' }) // the alias
  pkg('node_modules/@nestjs/platform-fastify', { name: '@nestjs/platform-fastify', version: '11.2.8' })
  pkg('node_modules/@nestjs/platform-fastify/node_modules/fastify', { name: 'fastify', version: '5.11.3' })
  pkg('node_modules/outer/node_modules/inner/node_modules/fastify', { name: 'fastify', version: '4.28.1' })
  pkg('node_modules/deduped/node_modules/fastify', { name: 'trellis', version: '0.1.0' }) // trellis again: fine
  writeFileSync(join(dir, 'app.js'), "module.exports = async (app) => { app.get('/', async () => 'ok') }\n")
  const run = spawnSync(process.execPath, [bin, 'check', '--line', '5', 'app.js'], { cwd: dir, encoding: 'utf8', timeout: 60000 })
  const out = run.stdout + run.stderr
  assert.equal(run.status, 1, out)
  assert.deepEqual(findings(out), [
    { severity: 'breaks', what: '@nestjs/platform-fastify loads its own fastify@5.11.3, not trellis: it runs on real Fastify', where: 'node_modules/@nestjs/platform-fastify/node_modules/fastify' },
    { severity: 'breaks', what: 'inner loads its own fastify@4.28.1, not trellis: it runs on real Fastify', where: 'node_modules/outer/node_modules/inner/node_modules/fastify' }
  ], out)
  const fix = finding(out, '@nestjs/platform-fastify loads its own')
  assert.equal(fix?.instead, '"overrides": { "fastify": "$fastify" } in package.json, then npm install (a "file:" tarball dependency needs an absolute path there: npm fails with ENOENT on a relative one)')

  // the same tree without the alias (node_modules/fastify is the real one): nothing to say
  pkg('node_modules/fastify', { name: 'fastify', version: '5.12.8' })
  const plain = spawnSync(process.execPath, [bin, 'check', '--line', '5', 'app.js'], { cwd: dir, encoding: 'utf8', timeout: 60000 })
  assert.equal(plain.status, 0, plain.stdout + plain.stderr)
  assert.doesNotMatch(plain.stdout, /loads its own fastify/)
})

test('trellis check of an application already written the Fastify 5 way finds nothing and exits 0', () => {
  const { status, out } = check('v5-ready-app')
  assert.equal(status, 0, out)
  assert.match(out, /Nothing found: the application should run unchanged on trellis\/v5\./)
})

test('trellis check without a file prints its usage and exits 1; a missing file is one clear line', () => {
  const usage = spawnSync(process.execPath, [bin, 'check'], { cwd: root, encoding: 'utf8' })
  assert.equal(usage.status, 1)
  assert.match(usage.stdout, /Usage: trellis check \[--line 4\|5\] <app-file>/)
  const missing = spawnSync(process.execPath, [bin, 'check', join(fixtures, 'nope.js')], { cwd: root, encoding: 'utf8' })
  assert.equal(missing.status, 1)
  assert.match(missing.stderr, /^trellis: application file not found: /)
})
