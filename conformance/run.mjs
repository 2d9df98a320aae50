#!/usr/bin/env node
// Runs a Fastify release's own test suite against trellis or the real Fastify release, counts
// passed/failed assertions per file and writes (file names per suite, see suites.mjs):
//   4.3  (node_modules/fastify43/test):    results.json / baseline-fastify.json
//   4.29 (fastify@4.29.1 registry tarball): results-4.29.json / baseline-fastify-4.29.json
//   5.12 (fastify@5.12.8 registry tarball, node:test): results-5.12.json / baseline-fastify-5.12.json
//   (trellis = --target=trellis, default / ceiling = --target=fastify)
//   docs/compatibility.md, sections "## Fastify 4.3.0 test suite", "## Fastify 4.29.1 test suite",
//   "## Fastify 5.12.8 test suite"
//
// Usage: node conformance/run.mjs [--suite=4.3|4.29|5.12|all] [--target=trellis|fastify] [--files=a,b] [--jobs=2]
//                                 [--timeout=60] [--stall=30] [--entry=dist/entry/x.cjs] [--no-docs] [--docs-only]
//                                 [--reinstall]
// --suite defaults to all (4.3, 4.29, then 5.12); --files needs a single suite.
// --entry: the trellis factory module the suite's `require('fastify')` loads (default per suite:
// dist/entry/index.cjs; 5.12: dist/entry/v5.cjs when the build has it, else dist/entry/index.cjs).
// --timeout bounds each file; --stall stops a file earlier once it printed nothing for that long
// (0 disables). Hung files are recorded as timedOut with the assertions they passed so far.
// `npm run conformance` builds trellis first, then runs this with the defaults.
// --files takes suite paths (test/get.test.js), or names relative to test/ (get.test.js,
// internals/reply.test.js); the results of a subset run are merged into the existing JSON.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  CONF, ROOT, SUITES, areaOf, ensureDeps, isInternals, layout, listFiles, parseArgs, runAll, suiteOf, trellisEntry
} from './harness.mjs'
import { writeDocs } from './report.mjs'

const args = parseArgs(process.argv.slice(2))
const target = args.target || 'trellis'
const jobs = Math.max(1, Math.min(Number(args.jobs) || 2, 4))
const timeoutSec = Number(args.timeout) || 60
const stallSec = args.stall !== undefined ? Number(args.stall) : 30
const suites = !args.suite || args.suite === 'all' ? Object.values(SUITES) : [suiteOf(args.suite)]

export const NODE_TEST_COUNTING_RULE = 'node:test tests as node\'s own summary counts them (# pass / # fail): every test point, ' +
  'parents of subtests included, suites (describe) not; SKIP/TODO points are neither passed nor failed; cancelled tests ' +
  '(parent failed, file stopped on timeout) count as failed.'

export const COUNTING_RULE = 'Assertion points of the TAP stream (any indentation); subtest summary points are not counted; ' +
  'SKIP/TODO points are neither passed nor failed; failures tap reports as points (thrown errors, unfinished tests, ' +
  'plan mismatches, timeouts after SIGTERM) count as failed; a failing subtest with no failing point inside adds one failure.'

export function selectFiles (all, spec) {
  if (!spec || spec === true) return all
  const want = String(spec).split(',').map((s) => s.trim()).filter(Boolean)
  const picked = all.filter((f) => want.some((w) => f === w || f === 'test/' + w || f === 'test/' + w + '.test.js'))
  const unknown = want.filter((w) => !all.some((f) => f === w || f === 'test/' + w || f === 'test/' + w + '.test.js'))
  if (unknown.length) throw new Error('unknown test files: ' + unknown.join(', '))
  return picked
}

export function totalsOf (files) {
  const t = { files: 0, filesOk: 0, passed: 0, failed: 0, skipped: 0, todo: 0, timedOut: 0 }
  const acc = (o, r) => {
    o.files++; if (r.ok) o.filesOk++
    o.passed += r.passed; o.failed += r.failed; o.skipped += r.skipped; o.todo += r.todo
    if (r.timedOut) o.timedOut++
  }
  const portable = { ...t }; const internals = { ...t }; const all = { ...t }
  for (const r of Object.values(files)) { acc(all, r); acc(r.internals ? internals : portable, r) }
  return { all, portable, internals }
}

async function main () {
  if (args['docs-only']) { writeDocs(); return }
  if (args.files && suites.length > 1) throw new Error('--files needs a single --suite (4.3, 4.29 or 5.12)')
  for (const suite of suites) await runSuite(suite)
  if (!args['no-docs']) writeDocs()
}

async function runSuite (suite) {
  const outFile = join(CONF, target === 'fastify' ? suite.baseline : suite.results)
  ensureDeps({ force: !!args.reinstall, suite, runtimeDeps: target === 'fastify' })
  const dir = layout(target, suite, { entry: args.entry })
  const all = listFiles(suite)
  const files = selectFiles(all, args.files)
  const subset = files.length !== all.length
  process.stderr.write(`[conformance] suite=${suite.version} target=${target} files=${files.length} jobs=${jobs} timeout=${timeoutSec}s\n`)
  const started = Date.now()
  let done = 0
  const results = await runAll(dir, files, {
    jobs,
    runner: suite.runner,
    timeoutSec,
    stallSec,
    onResult (r) {
      done++
      const tag = r.timedOut ? 'TIMEOUT' : r.ok ? 'ok' : 'FAIL'
      process.stderr.write(`[${String(done).padStart(3)}/${files.length}] ${tag.padEnd(7)} ${r.file}  ` +
        `+${r.passed} -${r.failed}${r.skipped ? ' skip ' + r.skipped : ''}  ${(r.durationMs / 1000).toFixed(1)}s\n`)
    }
  })
  const prev = subset && existsSync(outFile) ? JSON.parse(readFileSync(outFile, 'utf8')) : null
  const map = prev ? { ...prev.files } : {}
  const now = new Date().toISOString()
  for (const r of results) {
    map[r.file] = {
      area: areaOf(r.file),
      internals: isInternals(r.file, suite),
      passed: r.passed,
      failed: r.failed,
      skipped: r.skipped,
      todo: r.todo,
      ok: r.ok,
      exitCode: r.exitCode,
      signal: r.signal,
      timedOut: r.timedOut,
      stalled: r.stalled,
      durationMs: r.durationMs,
      firstFailures: r.firstFailures,
      stderrTail: r.ok ? undefined : r.stderrTail,
      stderrError: r.ok ? undefined : r.stderrError,
      runAt: now
    }
  }
  const sorted = Object.fromEntries(Object.keys(map).sort().map((k) => [k, map[k]]))
  const doc = {
    suite: `fastify@${suite.version} test/**/*.test.js (minus ${suite.excludeDirs.map((d) => 'test/' + d).join(', ')})`,
    target: target === 'fastify' ? `fastify@${suite.version} (${suite.src.slice(ROOT.length + 1)})` : `trellis (${trellisEntry(suite, args.entry)})`,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    generatedAt: now,
    options: { jobs, timeoutSec, stallSec, partialRun: subset },
    countingRule: suite.runner === 'node:test' ? NODE_TEST_COUNTING_RULE : COUNTING_RULE,
    totals: totalsOf(sorted),
    files: sorted
  }
  writeFileSync(outFile, JSON.stringify(doc, null, 2) + '\n')
  const t = doc.totals
  process.stderr.write(`[conformance] ${suite.version} ${target}: ${t.all.passed} ${suite.runner === 'node:test' ? 'tests' : 'assertions'} passed, ${t.all.failed} failed; ` +
    `${t.all.filesOk}/${t.all.files} files clean (portable ${t.portable.passed} passed, ${t.portable.filesOk}/${t.portable.files} files); ` +
    `${((Date.now() - started) / 1000).toFixed(0)}s -> ${outFile.slice(ROOT.length + 1)}\n`)
}

if (process.argv[1] && import.meta.url === new URL('file://' + process.argv[1]).href) {
  main().catch((e) => { console.error('[conformance] ' + (e && e.message ? e.message : e)); process.exit(2) })
}
