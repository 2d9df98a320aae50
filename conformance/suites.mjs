// The Fastify releases whose own test suites the conformance harness runs (see harness.mjs).
//
//   4.3  fastify@4.3.0: the devDependency `fastify43` (node_modules/fastify43), test deps pinned to
//        mid-2022 releases; scratch dir conformance/.work/.
//   4.29 fastify@4.29.1: the registry tarball (`npm pack fastify@4.29.1` into
//        conformance/.work/fastify-4.29.1/, never committed), test deps pinned to the bottom of
//        4.29.1's own devDependency ranges; scratch dir conformance/.work/v4.29/.
//   5.12 fastify@5.12.8: the registry tarball (`npm pack fastify@5.12.8` into
//        conformance/.work/fastify-5.12.8/, never committed), a node:test suite; test deps pinned
//        inside 5.12.8's devDependency ranges; scratch dir conformance/.work/v5.12/; trellis's
//        factory module is dist/entry/v5.cjs when the build has it, else dist/entry/index.cjs.
//
// Each suite has its own committed ceiling (baseline), results, ratchet file and docs section.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const CONF = dirname(fileURLToPath(import.meta.url))
const ROOT = dirname(CONF)
const WORK = join(CONF, '.work')

// `pino`, `semver`, `rfdc` are runtime deps of fastify that tests require directly; `vary` is
// required by versioned-routes.test.js (it came in transitively at the time).
// `ajv` is deliberately NOT listed: the suite and the Ajv plugins (ajv-errors, ajv-merge-patch,
// ajv-i18n) must resolve trellis's own copy (node_modules/ajv at the repo root), because Ajv
// plugins emit code with the helpers of the ajv copy they resolve; a second copy fails with
// "Unexpected token ':'". Installing with --legacy-peer-deps keeps npm from adding ajv as a peer.
const TEST_DEPS_43 = {
  '@sinonjs/fake-timers': '9.1.2',
  'ajv-errors': '3.0.0',
  'ajv-i18n': '4.2.0',
  'ajv-merge-patch': '5.0.1',
  'fast-json-body': '1.1.0',
  'fastify-plugin': '4.0.0',
  'fluent-json-schema': '3.1.0',
  'form-data': '4.0.0',
  h2url: '0.2.0',
  'http-errors': '2.0.0',
  joi: '17.6.0',
  JSONStream: '1.3.5',
  pino: '8.1.0',
  proxyquire: '2.1.3',
  pump: '3.0.0',
  rfdc: '1.3.0',
  'self-cert': '2.0.0',
  semver: '7.3.7',
  send: '0.18.0',
  'simple-get': '4.0.1',
  split2: '4.1.0',
  tap: '16.3.0',
  undici: '5.5.1',
  vary: '1.1.2',
  yup: '0.32.11',
  // Runtime deps of fastify@4.3.0 pinned for the `fastify` target only (see RUNTIME_PINS).
  avvio: '8.1.3',
  'find-my-way': '7.0.0',
  'light-my-request': '5.0.0'
}

// node_modules/fastify43 is the real fastify@4.3.0 code, but the repo's lockfile installs its
// runtime deps at today's newest in-range releases (avvio 8.4, find-my-way 7.7,
// light-my-request 5.14). Those changed observable behaviour after July 2022 (avvio's plugin
// timeout / ROOT_PLG_BOOTED errors, find-my-way's prettyPrint output), which makes
// plugin.test.js, hooks.on-ready.test.js and pretty-print.test.js fail on the real fastify
// for reasons that have nothing to do with the suite. For `--target=fastify`, a resolve hook
// (preloaded with -r) sends only these requests, when made from fastify43's own files, to the
// mid-2022 releases installed in conformance/.work/node_modules. Everything else fastify43
// requires resolves as installed. The trellis target is not affected.
const RUNTIME_PINS_43 = ['avvio', 'find-my-way', 'light-my-request']

// fastify@4.29.1's test dependencies at the bottom of its devDependency ranges (package.json of
// the 4.29.1 tarball: "tap": "^16.3.9" -> 16.3.9, ...). Only packages the in-scope test files
// require are listed; runtime deps of fastify the tests require directly (pino, semver, rfdc,
// secure-json-parse, abstract-logging) at the bottom of 4.29.1's dependency ranges. ajv is not
// installed (as for 4.3: the suite and the Ajv plugins resolve trellis's node_modules/ajv).
const TEST_DEPS_429 = {
  // schema-special-usage.test.js requires these two; they used to resolve from the repository's own
  // node_modules, hoisted there by the fastify devDependency, before the suites' packages moved
  '@fastify/ajv-compiler': '4.0.7',
  '@fastify/fast-json-stringify-compiler': '5.2.0',
  '@sinonjs/fake-timers': '11.1.0',
  'abstract-logging': '2.0.1',
  'ajv-errors': '3.0.0',
  'ajv-formats': '2.1.1',
  'ajv-i18n': '4.2.0',
  'ajv-merge-patch': '5.0.1',
  'fast-json-body': '1.1.0',
  'fastify-plugin': '4.5.1',
  'fluent-json-schema': '4.1.2',
  'form-data': '4.0.0',
  h2url: '0.2.0',
  'http-errors': '2.0.0',
  joi: '17.11.0',
  JSONStream: '1.3.5',
  'node-forge': '1.3.1',
  pino: '9.0.0',
  proxyquire: '2.1.3',
  rfdc: '1.3.0',
  'secure-json-parse': '2.7.0',
  semver: '7.5.4',
  send: '0.18.0',
  'simple-get': '4.0.1',
  split2: '4.2.0',
  tap: '16.3.9',
  undici: '5.26.0',
  vary: '1.1.2',
  yup: '1.3.2'
}

const WORK_429 = join(WORK, 'v4.29')
const PACK_429 = join(WORK, 'fastify-4.29.1')

// fastify@5.12.8's test dependencies (node:test suite, so no tap), exact versions inside 5.12.8's
// declared devDependency ranges with which the real fastify@5.12.8 passes every in-scope file on
// this machine (`node conformance/run.mjs --suite=5.12 --target=fastify`). The newest release in each
// range when pinned (November 2026): the bottom of some ranges does not pass (@fastify/error 4.0.0
// has no `FastifyError`). Test files also require some of fastify's runtime dependencies directly:
// those the target itself runs on (ajv, pino, find-my-way, secure-json-parse for both; all of
// fastify's for the ceiling) resolve from the target's directory through a preload hook
// (`sharedDeps`, harness.mjs); the others trellis does not use (@fastify/error, process-warning,
// rfdc, abstract-logging) are pinned here inside 5.12.8's dependency ranges.
const TEST_DEPS_512 = {
  '@fastify/error': '4.2.1',
  'abstract-logging': '2.0.1',
  'ajv-errors': '3.0.0',
  'ajv-formats': '3.0.1',
  'ajv-i18n': '4.2.0',
  'ajv-merge-patch': '5.0.1',
  'fast-json-body': '1.1.0',
  'fastify-plugin': '6.0.1',
  'fluent-json-schema': '6.0.1',
  h2url: '0.2.0',
  'http-errors': '2.0.1',
  joi: '18.3.2',
  JSONStream: '1.3.5',
  'node-forge': '1.4.3',
  'process-warning': '5.1.1',
  proxyquire: '2.1.3',
  rfdc: '1.4.1',
  split2: '4.2.0',
  undici: '7.30.2',
  vary: '1.1.2',
  yup: '1.7.0'
}

const WORK_512 = join(WORK, 'v5.12')

/**
 * Fetches fastify@<version> with `npm pack` into conformance/.work/fastify-<version>/ (once) and,
 * with `runtimeDeps` (the `fastify` ceiling target only), installs its runtime dependencies there
 * (once). The trellis target needs only the tarball's files.
 */
function fetchPack (version, { runtimeDeps = true } = {}) {
  const dir = join(WORK, 'fastify-' + version)
  const pkg = join(dir, 'package')
  const installed = join(pkg, 'node_modules', '.installed')
  if (existsSync(installed) || (!runtimeDeps && existsSync(join(pkg, 'package.json')))) return
  mkdirSync(dir, { recursive: true })
  const run = (cmd, args, cwd) => {
    const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], timeout: 10 * 60 * 1000 })
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (status ${r.status})`)
  }
  if (!existsSync(join(pkg, 'package.json'))) {
    process.stderr.write(`[conformance] npm pack fastify@${version} into conformance/.work ...\n`)
    run('npm', ['pack', `fastify@${version}`, '--silent'], dir)
    rmSync(pkg, { recursive: true, force: true })
    run('tar', ['xzf', `fastify-${version}.tgz`], dir)
  }
  if (!runtimeDeps) return
  process.stderr.write(`[conformance] installing fastify@${version} runtime dependencies (ceiling target) ...\n`)
  run('npm', ['install', '--omit=dev', '--no-save', '--no-audit', '--no-fund', '--no-package-lock',
    '--ignore-scripts', '--loglevel=error'], pkg)
  run('touch', [installed], pkg)
}

// node_modules/fastify43 is a link into the suite packages' cache (scripts/suite-deps.mjs): its real
// path, the one Node gives the modules loaded from it, so that the harness's resolve hooks, which
// compare a module's file name with this folder, recognize fastify43's own files
const realDir = (dir) => existsSync(dir) ? realpathSync(dir) : dir

export const SUITES = {
  4.3: {
    id: '4.3',
    version: '4.3.0',
    src: realDir(join(ROOT, 'node_modules', 'fastify43')),
    missingHint: 'run `node scripts/suite-deps.mjs` first (npm run conformance does)',
    work: WORK,
    testDeps: TEST_DEPS_43,
    runtimePins: RUNTIME_PINS_43,
    excludeDirs: ['types', 'bundler'],
    results: 'results.json',
    baseline: 'baseline-fastify.json',
    ratchet: 'ratchet.json',
    notes: 'ceiling-notes.json',
    // lib/request.js and lib/reply.js export the Fastify 5 line's classes: not offered to a Fastify 4 suite
    libExclude: ['request.js', 'reply.js'],
    heading: '## Fastify 4.3.0 test suite'
  },
  4.29: {
    id: '4.29',
    version: '4.29.1',
    src: join(PACK_429, 'package'),
    missingHint: 'the harness fetches it with `npm pack` (network: npm registry)',
    fetch: (o) => fetchPack('4.29.1', o),
    work: WORK_429,
    testDeps: TEST_DEPS_429,
    runtimePins: [],
    ajvFromPackage: true,
    excludeDirs: ['types', 'bundler', 'internals'],
    results: 'results-4.29.json',
    baseline: 'baseline-fastify-4.29.json',
    ratchet: 'ratchet-4.29.json',
    notes: 'ceiling-notes-4.29.json',
    // lib/request.js and lib/reply.js export the Fastify 5 line's classes: not offered to a Fastify 4 suite
    libExclude: ['request.js', 'reply.js'],
    heading: '## Fastify 4.29.1 test suite'
  },
  5.12: {
    id: '5.12',
    version: '5.12.8',
    src: join(WORK, 'fastify-5.12.8', 'package'),
    missingHint: 'the harness fetches it with `npm pack` (network: npm registry)',
    fetch: (o) => fetchPack('5.12.8', o),
    work: WORK_512,
    testDeps: TEST_DEPS_512,
    installedMarker: 'split2',
    runtimePins: [],
    sharedDeps: true,
    // node:test files run with `node <file>`; the TAP reporter is asked for explicitly (Node 20
    // prints TAP to a pipe by default, later releases the spec reporter).
    runner: 'node:test',
    extensions: ['.test.js', '.test.mjs'],
    // the trellis shim lists the entry's export names for ESM importers (see harness.mjs layout)
    esmNames: true,
    // test/scripts checks the ecosystem page's links over the network: not a runtime test.
    excludeDirs: ['types', 'bundler', 'internals', 'scripts'],
    // trellis's factory module for this suite: the first that exists (see harness.mjs trellisEntry)
    entries: ['dist/entry/v5.cjs', 'dist/entry/index.cjs'],
    // lib/errors.js with Fastify 5's messages (src/compat/fastify-lib/errors-v5.ts)
    libFrom: { 'errors.js': 'errors-v5.js' },
    results: 'results-5.12.json',
    baseline: 'baseline-fastify-5.12.json',
    ratchet: 'ratchet-5.12.json',
    notes: 'ceiling-notes-5.12.json',
    heading: '## Fastify 5.12.8 test suite'
  }
}

/** '4.3' | '4.29' | '5.12' (also '4.3.0', '4.29.1', '5.12.8', '5') -> suite. */
export function suiteOf (name) {
  const key = String(name || '4.3').replace(/^(4\.(?:3|29)|5\.12)(?:\.\d+)?$/, '$1').replace(/^5$/, '5.12')
  const s = SUITES[key]
  if (!s) throw new Error(`unknown suite ${name} (known: ${Object.keys(SUITES).join(', ')})`)
  return s
}
