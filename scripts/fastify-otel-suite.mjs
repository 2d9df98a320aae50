// Runs @fastify/otel's own test suite (its npm tarball's test/ files, unchanged) against trellis and
// against the real fastify@4.29.1, side by side, as the plugin's own `test:v4` script runs it against
// Fastify 4 (and its `test` script against Fastify 5: trellis/v5 and the real fastify@5.12.8, the
// `fastify` devDependency): `node --test` over test/*.test.{js,mjs}, with `require('fastify')` (and
// FASTIFY_VERSION) resolving to the target. Nothing it downloads is committed: the tarball and its test
// dependencies (the ranges of its own devDependencies) go to the gitignored conformance/.work/fastify-otel/.
//
//   node scripts/fastify-otel-suite.mjs            the four targets (trellis needs `npm run build`)
//   node scripts/fastify-otel-suite.mjs trellis    one target (trellis | fastify | trellis-v5 | fastify5)
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const VERSION = '0.21.2'
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const work = join(root, 'conformance', '.work', 'fastify-otel')
const pkgDir = join(work, 'package')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

// what the test files require, from the tarball's own devDependencies (fastify itself is the target)
const TEST_DEPS = [
  '@opentelemetry/context-async-hooks', '@opentelemetry/instrumentation-http', '@opentelemetry/propagator-jaeger',
  '@opentelemetry/sdk-trace-base', '@opentelemetry/sdk-trace-node', 'fastify-plugin'
]

// Child processes are waited on without blocking (a test process that runs the suite goes on with its
// other files' tests meanwhile) and without c8's NODE_V8_COVERAGE: the suite loads dist/ or fastify,
// whose coverage c8 would only read and drop.
// (The key stays, undefined: Node hands a child whose env lacks it this process's NODE_V8_COVERAGE.)
const childEnv = (extra = {}) => ({ ...process.env, NODE_V8_COVERAGE: undefined, ...extra })
/** `cmd args` in `cwd`: resolves with { status, stdout, stderr } (status null: stopped by the timeout or a signal). */
function run (cmd, args, options) {
  return new Promise((resolve) => {
    execFile(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: childEnv(), ...options }, (err, stdout, stderr) => {
      resolve({ status: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr })
    })
  })
}
async function check (what, r) {
  const result = await r
  if (result.status !== 0) throw new Error(`${what} failed (status ${result.status}):\n${result.stdout}${result.stderr}`)
  return result.stdout
}

let fetching
const fetchSuite = () => (fetching ??= fetchOnce())
async function fetchOnce () {
  if (existsSync(join(pkgDir, 'node_modules', '.installed'))) return
  mkdirSync(work, { recursive: true })
  const tgz = (await check('npm pack', run(npm, ['pack', `@fastify/otel@${VERSION}`, '--silent'], { cwd: work }))).trim().split('\n').pop()
  await check('tar', run('tar', ['xzf', tgz], { cwd: work }))
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'))
  const wanted = [
    ...Object.entries(pkg.dependencies),
    ...Object.entries(pkg.peerDependencies),
    ...TEST_DEPS.map((name) => [name, pkg.devDependencies[name]]),
    // sdk.test.js requires these; the SDK line the plugin's own devDependencies pull in (a newer
    // @opentelemetry/resources needs a newer @opentelemetry/api than the peer installed: ERESOLVE)
    ['@opentelemetry/sdk-node', '^0.223.0'], ['@opentelemetry/resources', '^2.12.0'],
    ['fastify429', 'npm:fastify@4.29.1']
  ].map(([name, range]) => `${name}@${range}`)
  // a package.json of its own for the install (the tarball's lists eslint, c8, fastify 5, ...)
  writeFileSync(join(pkgDir, 'package.json'), JSON.stringify({ ...pkg, devDependencies: {}, scripts: {} }, null, 2))
  await check('npm install', run(npm, ['install', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', ...wanted], { cwd: pkgDir }))
  writeFileSync(join(pkgDir, 'node_modules', '.installed'), VERSION)
}

const realIfThere = (path) => existsSync(path) ? realpathSync(path) : path

const TARGETS = {
  trellis: { label: 'trellis', path: () => join(root, 'dist', 'entry', 'index.cjs') },
  fastify: { label: 'fastify@4.29.1', path: () => join(pkgDir, 'node_modules', 'fastify429', 'fastify.js') },
  'trellis-v5': { label: 'trellis/v5', path: () => join(root, 'dist', 'entry', 'v5.cjs') },
  // a link into the suite packages' cache (scripts/suite-deps.mjs): its real path, the one require.resolve gives
  fastify5: { label: 'fastify@5.12.8', path: () => realIfThere(join(root, 'node_modules', 'fastify', 'fastify.js')) }
}

function targetPath (name) {
  const target = TARGETS[name]
  if (target === undefined) throw new Error(`unknown target ${name}: one of ${Object.keys(TARGETS).join(', ')}`)
  const entry = target.path()
  if (!existsSync(entry)) throw new Error(`${entry} is missing${name.startsWith('trellis') ? ': run `npm run build` first' : ''}`)
  return entry
}

/** Runs the suite on one target; resolves with { tests, pass, fail, output }. */
export async function runSuite (name) {
  await fetchSuite()
  const target = targetPath(name)
  // `require('fastify')` from the suite resolves to the target
  const hook = join(work, `resolve-${name}.cjs`)
  writeFileSync(hook, `'use strict'
const Module = require('node:module')
const resolve = Module._resolveFilename
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, request === 'fastify' ? ${JSON.stringify(target)} : request, ...rest)
}
`)
  // a run started from a node:test file must report on its own (TAP), not to the parent's runner
  const env = childEnv({ FASTIFY_VERSION: 'fastify' })
  delete env.NODE_TEST_CONTEXT
  const files = readdirSync(join(pkgDir, 'test')).filter((f) => /\.test\.(c|m)?js$/.test(f)).map((f) => join('test', f))
  // the suite must really run on the target: check what `require('fastify')` gives under the hook
  const loaded = await check('require.resolve', run(process.execPath, ['--require', hook, '-e', "process.stdout.write(require.resolve('fastify'))"], { cwd: pkgDir }))
  if (loaded !== target) throw new Error(`require('fastify') resolves to ${loaded}, not ${target}`)
  const result = await run(process.execPath, ['--require', hook, '--test', '--test-reporter=tap', ...files], {
    cwd: pkgDir, env, timeout: 300_000
  })
  const output = result.stdout + result.stderr
  const count = (label) => Number((output.match(new RegExp(`^# ${label} (\\d+)$`, 'm')) ?? [])[1] ?? NaN)
  return { pass: count('pass'), fail: count('fail'), tests: count('tests'), output }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const targets = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(TARGETS)
  const rows = []
  for (const name of targets) {
    const r = await runSuite(name)
    if (r.fail > 0 || process.env.VERBOSE === '1') console.log(r.output.split('\n').filter((l) => /^\s*not ok|^# (tests|pass|fail)/.test(l)).join('\n'))
    rows.push(`| ${TARGETS[name].label} | ${r.tests} | ${r.pass} | ${r.fail} |`)
  }
  console.log(`@fastify/otel@${VERSION} test suite (node --test test/*.test.{js,mjs})\n\n| target | tests | pass | fail |\n|---|---|---|---|\n${rows.join('\n')}`)
}
