import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

// runs the built command (npm test builds before the tests)
const root = join(__dirname, '..', '..')
const bin = join(root, 'dist', 'bin', 'trellis.js')
const fixtures = join(__dirname, 'fixtures')

function check (app: string): { status: number | null, out: string } {
  const run = spawnSync(process.execPath, [bin, 'check', join('test', 'cli', 'fixtures', app, 'app.js')], { cwd: root, encoding: 'utf8', timeout: 30000 })
  return { status: run.status, out: run.stdout + run.stderr }
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
    ["plugin 'legacy-plugin' declares fastify '4.x'", 'changes', /^plugins$/, /Fastify 5 major/],
    ["useSemicolonDelimiter's default becomes false", 'changes', /^server options$/, /useSemicolonDelimiter: true/]
  ]
  for (const [what, severity, where, instead] of expectations) {
    const f = finding(out, what)
    assert.ok(f !== undefined, `missing: ${what}\n${out}`)
    assert.equal(f.severity, severity, what)
    assert.match(f.where, where, what)
    assert.match(f.instead, instead, what)
  }
  assert.match(out, /finding\(s\): \d+ that break on Fastify 5/)
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
