// Shared machinery for the Fastify conformance harness (fastify@4.3.0, 4.29.1 and 5.12.8).
//
// Lays out a scratch copy of a Fastify release's own test suite under conformance/.work/<target>/
// (4.3.0) or conformance/.work/v<x.y>/<target>/ (4.29.1, 5.12.8), installs the suite's test
// dependencies once beside it, runs test files with plain `node` (tap 16 prints raw TAP when a test
// file is run directly; node:test files run with the TAP reporter) and counts points in the TAP
// output: assertion points for tap suites, tests for node:test suites. The suites are described in
// suites.mjs; functions here take a suite (default: 4.3.0).
//
// Nothing from fastify is ever copied into the repository: the scratch dir is gitignored.
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync
} from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SUITES, suiteOf } from './suites.mjs'

export const CONF = dirname(fileURLToPath(import.meta.url))
export const ROOT = dirname(CONF)
export const WORK = join(CONF, '.work')
/**
 * CONFORMANCE_SLOT=name gives a run its own layout and trellis snapshot (.work/<target>-<name>,
 * .work/trellis-build-<name>), so several runs can go on at once on one checkout.
 */
const SLOT = process.env.CONFORMANCE_SLOT ? '-' + process.env.CONFORMANCE_SLOT.replace(/[^a-zA-Z0-9_-]/g, '') : ''
export const SUITE_SRC = SUITES['4.3'].src
export const TEST_DEPS = SUITES['4.3'].testDeps
export const RUNTIME_PINS = SUITES['4.3'].runtimePins
export { SUITES, suiteOf }
export const TRELLIS_ENTRY = join(ROOT, 'dist', 'entry', 'index.cjs')

/**
 * The trellis factory module a suite runs against, relative to the repository: `override` (the
 * `--entry=` option of run.mjs / ratchet.mjs) when given, else the first of the suite's `entries`
 * that the build has (5.12: dist/entry/v5.cjs, else dist/entry/index.cjs), else dist/entry/index.cjs.
 */
export function trellisEntry (suite = SUITES['4.3'], override) {
  if (override && override !== true) return relative(ROOT, join(ROOT, String(override)))
  for (const rel of suite.entries || []) if (existsSync(join(ROOT, rel))) return rel
  return (suite.entries && suite.entries[suite.entries.length - 1]) || 'dist/entry/index.cjs'
}
export const TRELLIS_LIB_COMPAT = join(ROOT, 'dist', 'lib', 'compat', 'fastify-lib')
// Node flags the suite runs with (fastify's .taprc: `node-arg: --allow-natives-syntax`,
// same-shape.test.js uses %HaveSameMap).
export const NODE_ARGS = ['--allow-natives-syntax']

// ---------------------------------------------------------------------------------------------
// Dependencies

function log (...a) { process.stderr.write(a.join(' ') + '\n') }

/**
 * Fetches a packed suite (its runtime deps too when `runtimeDeps`: the ceiling target needs them) and
 * installs the suite's test deps into its work dir's node_modules, skipped when unchanged.
 */
export function ensureDeps ({ force = false, suite = SUITES['4.3'], runtimeDeps = true } = {}) {
  if (suite.fetch) suite.fetch({ runtimeDeps })
  const WORK = suite.work
  mkdirSync(WORK, { recursive: true })
  const pkg = {
    name: 'trellis-conformance-scratch',
    private: true,
    description: `Scratch install of fastify@${suite.version} test-suite dependencies (generated, gitignored)`,
    dependencies: suite.testDeps
  }
  const text = JSON.stringify(pkg, null, 2) + '\n'
  const hash = createHash('sha256').update(text).digest('hex')
  const hashFile = join(WORK, '.deps-hash')
  const have = existsSync(hashFile) ? readFileSync(hashFile, 'utf8').trim() : ''
  if (!force && have === hash && existsSync(join(WORK, 'node_modules', suite.installedMarker || 'tap'))) return false
  writeFileSync(join(WORK, 'package.json'), text)
  log('[conformance] installing suite test dependencies into conformance/.work (first run or changed) ...')
  const r = spawnSync('npm', [
    'install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock',
    '--legacy-peer-deps', '--ignore-scripts', '--loglevel=error'
  ], { cwd: WORK, stdio: ['ignore', 'inherit', 'inherit'], timeout: 10 * 60 * 1000 })
  if (r.status !== 0) throw new Error('npm install in conformance/.work failed (status ' + r.status + ')')
  // A stray ajv copy in the scratch tree would shadow trellis's; drop it (see TEST_DEPS comment).
  const strayAjv = join(WORK, 'node_modules', 'ajv')
  if (existsSync(strayAjv)) { log('[conformance] removing stray', strayAjv); rmSync(strayAjv, { recursive: true, force: true }) }
  checkAjv(WORK)
  writeFileSync(hashFile, hash + '\n')
  return true
}

/** The suite and its Ajv plugins must resolve the same ajv as trellis. */
export function checkAjv (WORK) {
  const want = createRequire(join(ROOT, 'package.json')).resolve('ajv')
  for (const from of ['ajv-errors', 'ajv-merge-patch', 'ajv-i18n', 'ajv-formats']) {
    if (!existsSync(join(WORK, 'node_modules', from))) continue
    const fromDir = join(WORK, 'node_modules', from)
    const got = createRequire(join(fromDir, 'package.json')).resolve('ajv')
    if (got !== want) throw new Error(`${from} resolves ${got}, expected trellis's ${want}`)
  }
  const got = createRequire(join(WORK, 'x', 'test', 'x.js')).resolve('ajv')
  if (got !== want) throw new Error(`suite resolves ${got}, expected trellis's ${want}`)
}

// ---------------------------------------------------------------------------------------------
// Scratch layout

const link = (target, path) => symlinkSync(target, path)

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/**
 * Copies dist/ to conformance/.work/trellis-build/dist so that a rebuild by someone else during a
 * run (the build starts with rm -rf dist) cannot pull the implementation away from running tests.
 * conformance/.work/trellis-build/node_modules links to the repo's node_modules, so the copy
 * resolves trellis's own dependencies (the same ajv as the suite), not the suite's pinned ones.
 * Waits up to 2 min for a build in progress; checks that the copied entry loads.
 */
export function snapshotTrellis (entryRel = 'dist/entry/index.cjs') {
  const snap = join(WORK, 'trellis-build' + SLOT)
  const entry = join(ROOT, entryRel)
  for (let attempt = 0; ; attempt++) {
    const t0 = Date.now()
    while (!existsSync(entry) && Date.now() - t0 < 120000) sleep(2000)
    if (!existsSync(entry)) throw new Error(`${entryRel} is missing: run \`npm run build\` first`)
    sleep(attempt ? 5000 : 0)
    rmSync(snap, { recursive: true, force: true })
    mkdirSync(snap, { recursive: true })
    try {
      cpSync(join(ROOT, 'dist'), join(snap, 'dist'), { recursive: true })
      cpSync(join(ROOT, 'package.json'), join(snap, 'package.json'))
      link(join(ROOT, 'node_modules'), join(snap, 'node_modules'))
      const r = spawnSync(process.execPath, ['-e', 'require(process.argv[1])', join(snap, entryRel)],
        { encoding: 'utf8', timeout: 30000 })
      if (r.status === 0) return snap
      if (attempt >= 2) throw new Error('the trellis build does not load: ' + (r.stderr || '').trim().split('\n').slice(0, 6).join('\n'))
    } catch (e) {
      if (attempt >= 2) throw e
    }
  }
}

/**
 * conformance/.work/<target>/ holds: test/ (copy of the suite), package.json, fastify.js (entry),
 * lib/ and build/ (real ones for fastify, adapter for trellis), node_modules/fastify (shim so that
 * `require('fastify')` inside tests loads the target, not the repo's fastify@5 devDependency).
 */
export function layout (target, suite = SUITES['4.3'], { entry: entryOverride } = {}) {
  const SUITE_SRC = suite.src
  const WORK = suite.work
  if (!existsSync(join(SUITE_SRC, 'package.json'))) {
    throw new Error(`${relative(ROOT, SUITE_SRC)} is missing: ${suite.missingHint}`)
  }
  const dir = join(WORK, target + SLOT)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  cpSync(join(SUITE_SRC, 'test'), join(dir, 'test'), { recursive: true })
  if (target === 'fastify') {
    // Symlinks (not wrapper modules) so that module identity is preserved: require('..'),
    // require('../lib/symbols') and proxyquire('..', { './lib/x.js': stub }) all land on the real
    // files of node_modules/fastify43 (Node resolves symlinks to real paths).
    link(join(SUITE_SRC, 'fastify.js'), join(dir, 'fastify.js'))
    link(join(SUITE_SRC, 'lib'), join(dir, 'lib'))
    link(join(SUITE_SRC, 'build'), join(dir, 'build'))
    cpSync(join(SUITE_SRC, 'package.json'), join(dir, 'package.json'))
    if (suite.sharedDeps) {
      const deps = JSON.parse(readFileSync(join(SUITE_SRC, 'package.json'), 'utf8')).dependencies || {}
      writeSharedDepsHook(dir, suite, [...Object.keys(deps), 'ajv'], SUITE_SRC, `fastify@${suite.version}`)
    } else if (suite.ajvFromPackage) {
      // fastify@4.29.1's own ajv (installed with its runtime deps) is the one its validator compiler
      // uses; the suite and the Ajv plugins (ajv-errors, ...) must load that same copy, as in a
      // fastify checkout (two copies fail with "Unexpected token ':'").
      writeFileSync(join(dir, 'pin-runtime-deps.cjs'), `'use strict'
// generated by conformance/harness.mjs: require('ajv') resolves fastify@4.29.1's own copy
const Module = require('module')
const from = [${JSON.stringify(SUITE_SRC)}]
const resolve = Module._resolveFilename
Module._resolveFilename = function (request, parent, isMain, options) {
  if (request === 'ajv' || request.startsWith('ajv/')) return resolve.call(this, request, parent, isMain, { paths: from })
  return resolve.call(this, request, parent, isMain, options)
}
`)
    }
    if (suite.runtimePins.length) {
      writeFileSync(join(dir, 'pin-runtime-deps.cjs'), `'use strict'
// generated by conformance/harness.mjs (see RUNTIME_PINS there)
const Module = require('module')
const path = require('path')
const src = ${JSON.stringify(SUITE_SRC + '/')}
const nested = src + 'node_modules/'
const pinned = new Set(${JSON.stringify(suite.runtimePins)})
const pinsFrom = [${JSON.stringify(WORK)}]
const resolve = Module._resolveFilename
Module._resolveFilename = function (request, parent, isMain, options) {
  const from = parent && parent.filename
  if (from && from.startsWith(src) && !from.startsWith(nested) && pinned.has(request.split('/')[0])) {
    return resolve.call(this, request, parent, isMain, { paths: pinsFrom })
  }
  return resolve.call(this, request, parent, isMain, options)
}
`)
    }
  } else if (target === 'trellis') {
    const entryRel = trellisEntry(suite, entryOverride)
    const snap = snapshotTrellis(entryRel)
    const entry = join(snap, entryRel)
    const libCompat = join(snap, 'dist', 'lib', 'compat', 'fastify-lib')
    writeFileSync(join(dir, 'fastify.js'),
      "'use strict'\n// generated by conformance/harness.mjs: the suite's require('..') loads trellis\n" +
      `module.exports = require(${JSON.stringify(relative(dir, entry))})\n` +
      // ESM test files import this CommonJS file by path (`import { errorCodes } from '../../fastify.js'`);
      // Node finds a CommonJS module's named exports by reading its source, so list the names the
      // entry exports at run time in the form Node's reader recognises (never executed).
      (suite.esmNames ? `0 && (module.exports = { ${entryExportNames(entry).map((k) => k + ': exports').join(', ')} })\n` : ''))
    // version: the Fastify interface version trellis reports as `fastify.version`
    // (build/version.test.js compares fastify.version with this file).
    writeFileSync(join(dir, 'package.json'), JSON.stringify({
      name: 'fastify', version: trellisFastifyVersion(entry), main: 'fastify.js', type: 'commonjs', private: true
    }, null, 2) + '\n')
    // lib/ adapter: re-export dist/lib/compat/fastify-lib/<name>.js where trellis provides one;
    // anything else stays missing, and files that need it fail (and are counted as such).
    mkdirSync(join(dir, 'lib'))
    const provided = []
    if (existsSync(libCompat)) {
      for (const name of readdirSync(libCompat)) {
        // <name>-v5.js is the Fastify 5 flavour of <name>.js: a suite names it in `libFrom`
        if (!name.endsWith('.js') || name.endsWith('-v5.js') || (suite.libExclude || []).includes(name)) continue
        const source = (suite.libFrom || {})[name] ?? name
        writeFileSync(join(dir, 'lib', name), "'use strict'\n" +
          `module.exports = require(${JSON.stringify(relative(join(dir, 'lib'), join(libCompat, source)))})\n`)
        provided.push(name)
      }
    }
    writeFileSync(join(dir, 'lib', 'README.txt'), 'Adapter generated by conformance/harness.mjs. Provided: ' +
      (provided.join(', ') || '(none)') + '\n')
    if (suite.sharedDeps) {
      const deps = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies || {}
      writeSharedDepsHook(dir, suite, Object.keys(deps), ROOT, 'trellis')
    }
  } else {
    throw new Error('unknown target ' + target)
  }
  const shim = join(dir, 'node_modules', 'fastify')
  mkdirSync(shim, { recursive: true })
  writeFileSync(join(shim, 'package.json'), JSON.stringify({ name: 'fastify', version: suite.version, main: 'index.js' }) + '\n')
  writeFileSync(join(shim, 'index.js'), "'use strict'\nmodule.exports = require('../../fastify.js')\n")
  return dir
}

/**
 * Suites with `sharedDeps` (5.12): in a fastify checkout the tests' `require('pino')`,
 * `require('ajv')`, `require('find-my-way')`, ... load the very copies fastify itself runs on
 * (conditional-pino.test.js looks pino up in require.cache; Ajv plugins need the same ajv). A
 * preload hook gives the suite that: requests for the target's own runtime dependencies made from
 * the suite's work dir (test files, the pinned test dependencies) resolve from the target's
 * directory (fastify: the tarball with its installed dependencies; trellis: the repository).
 * Requests from anywhere else (e.g. eslint in the repository's node_modules) are untouched.
 */
function writeSharedDepsHook (dir, suite, names, from, label) {
  writeFileSync(join(dir, 'pin-runtime-deps.cjs'), `'use strict'
// generated by conformance/harness.mjs: ${label}'s own runtime dependencies resolve from ${label}'s directory
const Module = require('module')
const scope = ${JSON.stringify(suite.work + '/')}
const from = [${JSON.stringify(from)}]
const names = new Set(${JSON.stringify(names.sort())})
const resolve = Module._resolveFilename
Module._resolveFilename = function (request, parent, isMain, options) {
  const p = parent && parent.filename
  if (p && p.startsWith(scope)) {
    const parts = request.split('/')
    const name = request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
    if (names.has(name)) return resolve.call(this, request, parent, isMain, { paths: from })
  }
  return resolve.call(this, request, parent, isMain, options)
}
`)
}

/** The `fastify.version` a trellis build reports (read in a child process: the build is CommonJS). */
/** The names a trellis entry exports (identifiers only), read in a child process. */
function entryExportNames (entry) {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(JSON.stringify(Object.keys(require(process.argv[1]))))', entry],
    { encoding: 'utf8', timeout: 30000 })
  if (r.status !== 0) return []
  return JSON.parse(r.stdout).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== '__esModule')
}

function trellisFastifyVersion (entry) {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(require(process.argv[1])().version)', entry],
    { encoding: 'utf8', timeout: 30000 })
  return r.status === 0 && /^\d+\.\d+\.\d+/.test(r.stdout) ? r.stdout : '4.3.0'
}

// ---------------------------------------------------------------------------------------------
// Test files

/** In-scope files: test/**\/*.test.js (5.12: also *.test.mjs) minus the suite's excluded dirs (types, bundler; 4.29, 5.12: internals). */
export function listFiles (suite = SUITES['4.3']) {
  const SUITE_SRC = suite.src
  const out = []
  const exts = suite.extensions || ['.test.js']
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name)
      const rel = relative(join(SUITE_SRC, 'test'), full)
      if (statSync(full).isDirectory()) {
        if (suite.excludeDirs.includes(rel)) continue
        walk(full)
      } else if (exts.some((e) => name.endsWith(e))) out.push('test/' + rel)
    }
  }
  walk(join(SUITE_SRC, 'test'))
  return out.sort()
}

const INTERNAL_RE = [
  /(require\(|import\(|from)\s*['"](\.\.\/)+(lib|build)\//, // ../lib/x, ../../lib/x, ../../build/x (CJS or ESM)
  /require\(\s*['"]\.\.?\/helper['"]\s*\)/, // test/helper.js reads internal symbols
  /proxyquire\(\s*['"](\.\.\/)+lib\// // stubs a lib/ module into the entry
]
/** A file is "internals" when it (or a local helper it requires) reaches into fastify's lib/ or build/. */
export function isInternals (file, suite = SUITES['4.3']) {
  const SUITE_SRC = suite.src
  const seen = new Set()
  const visit = (abs) => {
    if (seen.has(abs) || !existsSync(abs)) return false
    seen.add(abs)
    const src = readFileSync(abs, 'utf8')
    if (INTERNAL_RE.some((re) => re.test(src))) return true
    for (const m of src.matchAll(/(?:require\(|import\(|from)\s*['"](\.\.?\/[^'"]+)['"]/g)) {
      let p = join(dirname(abs), m[1])
      if (!/\.m?js$/.test(p)) p += '.js'
      if (p.startsWith(join(SUITE_SRC, 'test')) && visit(p)) return true
    }
    return false
  }
  return visit(join(SUITE_SRC, file))
}

const AREAS = [
  ['schema', /schema-examples|schema-feature|schema-special-usage|fluent-schema|same-shape|type-provider/],
  ['validation', /schema-validation|validation-error-handling|nullable-validation|request-validate|internals\/validation/],
  ['serialization', /schema-serialization|output-validation|reply-serialize|error-serializer/],
  ['hooks', /hook/],
  ['logging', /logger/],
  ['errors', /500s|throw|reply-error|request-error|error-handler|wrapThenable/],
  ['plugins', /plugin|register|decorator|middleware|esm\/|\/als|^test\/als/],
  ['server/listen', /listen|close|Timeout|maxRequestsPerSocket|custom-http-server|https\/|http2\/(closing|plain|secure|missing)|fastify-instance|test\/options\.test|internals\/server|initialConfig|unsupported-httpversion/],
  ['routing', /route|404s|http-methods\/|get\.test|head\.test|delete\.test|patch\.test|put\.test|constrain|versioned|case-insensitive|allowUnsafeRegex|url-rewriting|chainable|pretty-print|http2\//],
  ['reply/request', /reply|request|stream|content-length|parser|bodyLimit|proto-poisoning|async-await|promises|handler-context|context-config|genReqId|trust-proxy|inject|handleRequest|contentTypeParser|noop-set/]
]
export const AREA_ORDER = ['schema', 'validation', 'serialization', 'hooks', 'plugins', 'routing', 'errors',
  'reply/request', 'server/listen', 'logging', 'other']
export function areaOf (file) {
  for (const [area, re] of AREAS) if (re.test(file)) return area
  return 'other'
}

// ---------------------------------------------------------------------------------------------
// TAP counting
//
// Rule: count assertion points only. A `ok`/`not ok` line (any indentation) is a *subtest summary*
// when it closes a `# Subtest:` header at the same indentation, or when it opens a buffered
// subtest (line ends with `{`); summaries are not counted. Every other point is an assertion:
//   - `# SKIP` points count as skipped, `# TODO` points as todo (neither passed nor failed);
//   - failures tap reports as points (thrown errors, "test unfinished", timeouts, plan
//     mismatches) count as failed assertions;
//   - a subtest summary that is `not ok` while nothing inside it failed (e.g. it was cut short)
//     adds one failed point, so every failing subtest shows up in `failed`.
// YAML diagnostic blocks (`---` ... `...`) are skipped. Non-TAP output (logs) is ignored.
export function countTap (text) {
  const lines = text.split(/\r?\n/)
  const stack = [] // { indent, failed }
  const res = { passed: 0, failed: 0, skipped: 0, todo: 0, failures: [] }
  let yamlIndent = -1
  const pointRe = /^(\s*)(not ok|ok)\b(?:\s+\d+)?(?:\s*-\s*)?(.*)$/
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (yamlIndent >= 0) {
      if (line.trim() === '...' && line.length - line.trimStart().length === yamlIndent) yamlIndent = -1
      continue
    }
    const sub = /^(\s*)# Subtest\b/.exec(line)
    if (sub) { stack.push({ indent: sub[1].length, failed: 0 }); continue }
    const m = pointRe.exec(line)
    if (!m) continue
    const indent = m[1].length
    const ok = m[2] === 'ok'
    const rest = m[3]
    const next = lines[i + 1]
    if (next !== undefined && next.trim() === '---' && next.length - next.trimStart().length > indent) {
      yamlIndent = next.length - next.trimStart().length
      i++
    }
    // close frames deeper than this line (a crashed subtest may never print its summary)
    while (stack.length && stack[stack.length - 1].indent > indent) {
      const f = stack.pop()
      if (stack.length) stack[stack.length - 1].failed += f.failed
    }
    const top = stack[stack.length - 1]
    if (top && top.indent === indent) {
      stack.pop()
      if (!ok && top.failed === 0 && !/#\s*TODO\b/i.test(rest)) {
        res.failed++; res.failures.push(rest.replace(/\s*#\s*time=.*$/, '').trim())
        if (stack.length) stack[stack.length - 1].failed++
      } else if (stack.length) stack[stack.length - 1].failed += top.failed
      continue
    }
    if (/\{\s*$/.test(rest)) continue // buffered subtest summary; its children follow indented
    if (/#\s*SKIP\b/i.test(rest)) { res.skipped++; continue }
    if (/#\s*TODO\b/i.test(rest)) { res.todo++; continue }
    if (ok) res.passed++
    else {
      res.failed++
      if (res.failures.length < 20) res.failures.push(rest.replace(/\s*#\s*time=.*$/, '').trim())
      if (stack.length) stack[stack.length - 1].failed++
    }
  }
  return res
}

/**
 * Counts a node:test TAP stream (`node --test-reporter=tap <file>`) the way node's own summary does
 * (`# pass`, `# fail`): every test point counts, parents of subtests included; suites (`describe`,
 * YAML `type: 'suite'`) do not, except that a suite whose own body threw counts as one failure; `# SKIP` / `# TODO` points are neither passed nor failed; tests
 * cancelled (by a parent's failure, or by the file being stopped) count as failed. The points are
 * counted rather than the summary read, so a file stopped on timeout keeps what it printed.
 * Failures are recorded as "test name: error message" from the YAML block.
 */
export function countNodeTest (text) {
  const lines = text.split(/\r?\n/)
  const res = { passed: 0, failed: 0, skipped: 0, todo: 0, failures: [] }
  const pointRe = /^(\s*)(not ok|ok)\s+\d+(?:\s*-\s*)?(.*)$/
  for (let i = 0; i < lines.length; i++) {
    const m = pointRe.exec(lines[i])
    if (!m) continue
    const indent = m[1].length
    const ok = m[2] === 'ok'
    const rest = m[3]
    // the YAML block that follows the point, if any
    let isSuite = false
    let error = ''
    let failureType = ''
    if (lines[i + 1] !== undefined && lines[i + 1].trim() === '---' && lines[i + 1].length - lines[i + 1].trimStart().length > indent) {
      const yIndent = lines[i + 1].length - lines[i + 1].trimStart().length
      let j = i + 2
      for (; j < lines.length; j++) {
        const l = lines[j]
        if (l.trim() === '...' && l.length - l.trimStart().length === yIndent) break
        if (l.length - l.trimStart().length !== yIndent) continue
        const kv = /^\s*(type|error|failureType):\s*(.*)$/.exec(l)
        if (!kv) continue
        let v = kv[2].trim()
        if (v === '|-' || v === '|' || v === '>-') {
          // a block scalar: its first few non-empty lines (e.g. "Expected values to be strictly equal: 40 !== 100")
          const block = []
          for (let k = j + 1; k < lines.length && lines[k].length - lines[k].trimStart().length > yIndent; k++) {
            if (lines[k].trim()) block.push(lines[k].trim())
          }
          v = block.slice(0, 4).join(' ')
        }
        v = v.replace(/^'(.*)'$/, '$1').replace(/''/g, "'")
        if (kv[1] === 'type') isSuite = v === 'suite'
        else if (kv[1] === 'error') error = v
        else failureType = v
      }
      i = j
    }
    if (isSuite) {
      // a describe() whose own body threw registered none of its tests: one failure, with its error
      if (!ok && failureType && failureType !== 'subtestsFailed') {
        res.failed++
        if (res.failures.length < 20) res.failures.push((rest.trim() + (error ? ': ' + error : '')).slice(0, 300))
      }
      continue
    }
    if (/#\s*SKIP\b/i.test(rest)) { res.skipped++; continue }
    if (/#\s*TODO\b/i.test(rest)) { res.todo++; continue }
    if (ok) { res.passed++; continue }
    res.failed++
    // parents failing only because a subtest failed say nothing new; keep the subtest's message
    if (res.failures.length < 20 && failureType !== 'subtestsFailed') {
      res.failures.push((rest.trim() + (error ? ': ' + error : '')).slice(0, 300))
    }
  }
  return res
}

// ---------------------------------------------------------------------------------------------
// Running

// Process groups of running test files: killed if the harness itself is interrupted, since they
// are detached and would otherwise outlive it.
const active = new Set()
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    for (const pid of active) { try { process.kill(-pid, 'SIGKILL') } catch {} }
    process.exit(130)
  })
}

/**
 * Runs one test file with `node <file>` (cwd = scratch target dir, like `tap test/x.test.js` from
 * a fastify checkout). The file runs in its own process group; on timeout (timeoutSec overall, or
 * stallSec without any output) the group gets SIGTERM
 * (tap then prints its pending subtests as failures, so partial counts survive) and SIGKILL 5 s later.
 */
export function runFile (dir, file, { timeoutSec = 60, stallSec = 30, keepOutput = false, runner = 'tap' } = {}) {
  return new Promise((resolve) => {
    const started = Date.now()
    const preload = join(dir, 'pin-runtime-deps.cjs')
    const nodeTest = runner === 'node:test'
    const nodeArgs = [...NODE_ARGS, ...(nodeTest ? ['--test-reporter=tap'] : []), ...(existsSync(preload) ? ['-r', preload] : [])]
    const child = spawn(process.execPath, [...nodeArgs, file], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NODE_ENV: 'test',
        TAP: '', // not under the tap runner: plain TAP on stdout
        TAP_BAIL: '0',
        NO_COLOR: '1',
        FORCE_COLOR: '0'
      }
    })
    active.add(child.pid)
    let out = ''
    let err = ''
    const cap = 16 * 1024 * 1024
    let lastOutput = Date.now()
    child.stdout.on('data', (d) => { lastOutput = Date.now(); if (out.length < cap) out += d })
    child.stderr.on('data', (d) => { lastOutput = Date.now(); if (err.length < cap) err += d })
    let timedOut = false
    let stalled = false
    let killTimer
    const stop = () => {
      if (timedOut) return
      timedOut = true
      try { process.kill(-child.pid, 'SIGTERM') } catch {}
      killTimer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL') } catch {} }, 5000)
    }
    const timer = setTimeout(stop, timeoutSec * 1000)
    // A file that prints nothing for stallSec is hung (typically a server that never closes or a
    // request that never completes): stop it early so hangs don't cost the full timeout each.
    const stallTimer = stallSec > 0 && stallSec < timeoutSec
      ? setInterval(() => { if (Date.now() - lastOutput > stallSec * 1000) { stalled = true; stop() } }, 1000)
      : null
    child.on('close', (code, signal) => {
      clearTimeout(timer); clearTimeout(killTimer); clearInterval(stallTimer)
      // make sure nothing of the group lingers (servers left listening by a killed test)
      try { process.kill(-child.pid, 'SIGKILL') } catch {}
      active.delete(child.pid)
      const counts = nodeTest ? countNodeTest(out) : countTap(out)
      const r = {
        file,
        exitCode: code,
        signal: signal || null,
        timedOut,
        stalled,
        durationMs: Date.now() - started,
        passed: counts.passed,
        failed: counts.failed,
        skipped: counts.skipped,
        todo: counts.todo,
        firstFailures: counts.failures.slice(0, 5),
        stderrTail: err.trim().split('\n').slice(-3).join('\n').slice(0, 600),
        // the first error line on stderr: what stopped a file that fails while loading
        stderrError: (err.split('\n').find((l) => /^\w*Error\b/.test(l)) || '').slice(0, 300) || undefined
      }
      r.ok = !timedOut && code === 0 && counts.failed === 0
      if (keepOutput) { r.stdout = out; r.stderr = err }
      resolve(r)
    })
  })
}

/** Runs files with bounded parallelism; onResult is called as each file finishes. */
export async function runAll (dir, files, { jobs = 2, timeoutSec = 60, stallSec = 30, runner = 'tap', onResult } = {}) {
  const results = new Array(files.length)
  let next = 0
  const worker = async () => {
    while (next < files.length) {
      const i = next++
      results[i] = await runFile(dir, files[i], { timeoutSec, stallSec, runner })
      if (onResult) onResult(results[i])
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, files.length)) }, worker))
  return results
}

export function parseArgs (argv) {
  const o = {}
  for (const a of argv) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(a)
    if (m) o[m[1]] = m[2] === undefined ? true : m[2]
  }
  return o
}
