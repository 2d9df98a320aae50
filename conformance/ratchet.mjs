#!/usr/bin/env node
// Conformance ratchet: trellis must not pass fewer Fastify suite assertions (node:test suites: tests)
// than committed, for every suite (fastify@4.3.0: conformance/ratchet.json; fastify@4.29.1:
// conformance/ratchet-4.29.json; fastify@5.12.8: conformance/ratchet-5.12.json).
//
// Each ratchet file lists suite files with the number of assertions trellis passed when
// the count was last raised. This script runs only those files against the current build
// (dist/entry/index.cjs; 5.12: dist/entry/v5.cjs when built, else index.cjs; --entry= overrides —
// run `npm run build` first; `npm test` already does) and exits 1 when
// any listed file now passes fewer assertions than committed.
//
//   node conformance/ratchet.mjs                    check (CI)
//   node conformance/ratchet.mjs --update           re-run the listed files, raise counts (never lower)
//   node conformance/ratchet.mjs --update --from-results
//                                                   raise/add from conformance/results.json (a full
//                                                   `npm run conformance` run) without re-running;
//                                                   files that timed out or ran > 30 s there are not added,
//                                                   nor (--min-rate=N, kept as minRate) files passing < N per second
//   node conformance/ratchet.mjs --update --add=get.test.js,head.test.js
//                                                   also run and add these files
// Options: --suite=4.3|4.29|5.12 (default: all, one after the other), --jobs=N (default 2),
// --timeout=S (default from the ratchet file, else 60). --add and --from-results need one --suite.
// With an empty list it exits 0 at once (no install). On first use with a non-empty list it
// installs the suite's test dependencies into conformance/.work (npm registry, ~20 s).
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CONF, ROOT, SUITES, ensureDeps, layout, listFiles, parseArgs, runAll, suiteOf, trellisEntry } from './harness.mjs'

const args = parseArgs(process.argv.slice(2))
const log = (s) => process.stderr.write(s + '\n')
let RATCHET
let SUITE

function loadRatchet () {
  if (!existsSync(RATCHET)) return { timeoutSec: 60, files: {} }
  const r = JSON.parse(readFileSync(RATCHET, 'utf8'))
  r.files = r.files || {}
  return r
}

function saveRatchet (r) {
  const files = Object.fromEntries(Object.keys(r.files).sort().map((k) => [k, r.files[k]]))
  const total = Object.values(files).reduce((a, b) => a + b, 0)
  writeFileSync(RATCHET, JSON.stringify({
    description: `Committed minimum of fastify@${SUITE.version} suite ${SUITE.runner === 'node:test' ? 'tests' : 'assertions'} trellis passes per file. ` +
      'Checked by `node conformance/ratchet.mjs`; raise with `--update` (counts only go up).',
    timeoutSec: r.timeoutSec || 60,
    ...(r.minRate ? { minRate: r.minRate } : {}),
    total,
    files
  }, null, 2) + '\n')
  return total
}

function normalise (all, name) {
  const hit = all.find((f) => f === name || f === 'test/' + name || f === 'test/' + name + '.test.js')
  if (!hit) throw new Error('unknown suite file: ' + name)
  return hit
}

async function main () {
  const suites = args.suite ? [suiteOf(args.suite)] : Object.values(SUITES)
  if (suites.length > 1 && (args.add || args['from-results'])) throw new Error('--add / --from-results need a single --suite (4.3, 4.29 or 5.12)')
  let code = 0
  for (const suite of suites) {
    SUITE = suite
    RATCHET = join(CONF, suite.ratchet)
    log(`[ratchet] fastify@${suite.version} suite (${suite.ratchet})`)
    code = Math.max(code, await checkSuite())
  }
  return code
}

async function checkSuite () {
  const ratchet = loadRatchet()
  if (Object.keys(ratchet.files).length === 0 && !args.add && !args['from-results']) { log(`[ratchet] ${SUITE.ratchet} lists no files: nothing to check`); return 0 }
  if (SUITE.fetch) SUITE.fetch({ runtimeDeps: false })
  const all = listFiles(SUITE)
  // Counts are credited as in the docs: never above what the real fastify@4.3.0 passes on this
  // machine (extra points, e.g. from log lines the ceiling does not print, are not progress).
  const ceilingFile = join(CONF, SUITE.baseline)
  const ceiling = existsSync(ceilingFile) ? JSON.parse(readFileSync(ceilingFile, 'utf8')).files : {}
  const credit = (f, n) => (ceiling[f] && typeof ceiling[f].passed === 'number') ? Math.min(n, ceiling[f].passed) : n
  for (const f of Object.keys(ratchet.files)) ratchet.files[f] = credit(f, ratchet.files[f])
  const timeoutSec = Number(args.timeout) || ratchet.timeoutSec || 60
  const jobs = Math.max(1, Math.min(Number(args.jobs) || 2, 4))

  if (args.update && args['from-results']) {
    const res = JSON.parse(readFileSync(join(CONF, SUITE.results), 'utf8'))
    if (args['min-rate'] !== undefined) ratchet.minRate = Number(args['min-rate'])
    const minRate = Number(ratchet.minRate) || 0
    let raised = 0
    for (const [f, r] of Object.entries(res.files)) {
      // keep CI fast and deterministic: skip files that hung or ran long (they would cost up to
      // the per-file timeout in every `npm test`); add them later with --add once they are quick.
      if (r.timedOut || r.passed <= 0 || r.durationMs > 30000) continue
      // --min-rate (kept in the ratchet file as minRate): leave out files that pass fewer tests per
      // second than this, so the check stays short in CI (5.12: 1)
      if (minRate && r.passed / Math.max(r.durationMs / 1000, 0.001) < minRate) continue
      const got = credit(f, r.passed)
      if (!(f in ratchet.files) || got > ratchet.files[f]) { ratchet.files[f] = got; raised++ }
    }
    const total = saveRatchet(ratchet)
    log(`[ratchet] raised/added ${raised} files from ${SUITE.results}; committed total ${total}`)
    return 0
  }

  const add = args.add && args.add !== true ? String(args.add).split(',').filter(Boolean).map((n) => normalise(all, n)) : []
  const files = [...new Set([...Object.keys(ratchet.files), ...(args.update ? add : [])])].sort()
  const missing = files.filter((f) => !all.includes(f))
  if (missing.length) throw new Error(SUITE.ratchet + ' lists files that are not in the suite: ' + missing.join(', '))
  if (files.length === 0) { log(`[ratchet] ${SUITE.ratchet} lists no files: nothing to check`); return 0 }
  const entry = trellisEntry(SUITE, args.entry)
  if (!existsSync(join(ROOT, entry))) throw new Error(`${entry} is missing: run \`npm run build\` first`)

  ensureDeps({ suite: SUITE, runtimeDeps: false })
  const dir = layout('trellis', SUITE, { entry: args.entry })
  log(`[ratchet] trellis factory module: ${entry}`)
  const started = Date.now()
  const results = await runAll(dir, files, { jobs, timeoutSec, stallSec: Number(args.stall) || 30, runner: SUITE.runner })
  const regressions = []
  let raised = 0
  for (const r of results) {
    const want = ratchet.files[r.file]
    r.passed = credit(r.file, r.passed)
    if (want !== undefined && r.passed < want) {
      regressions.push(r)
      log(`[ratchet] REGRESSION ${r.file}: ${r.passed} passed, committed ${want}` +
        (r.timedOut ? ' (timed out)' : '') + (r.firstFailures.length ? '\n    first failures: ' + r.firstFailures.slice(0, 3).join(' | ') : ''))
    } else if (want !== undefined && r.passed > want) {
      log(`[ratchet] ${r.file}: ${r.passed} passed > committed ${want}` + (args.update ? ' (raised)' : ' (run --update to raise)'))
    }
    if (args.update && r.passed > 0 && !r.timedOut && (want === undefined || r.passed > want)) {
      ratchet.files[r.file] = r.passed; raised++
    }
  }
  const passed = results.reduce((a, r) => a + r.passed, 0)
  log(`[ratchet] ${files.length} files, ${passed} ${SUITE.runner === 'node:test' ? 'tests' : 'assertions'} passed, ${regressions.length} regressions, ` +
    `${((Date.now() - started) / 1000).toFixed(0)}s`)
  if (args.update) {
    const total = saveRatchet(ratchet)
    log(`[ratchet] raised/added ${raised} files; committed total ${total}`)
  }
  return regressions.length ? 1 : 0
}

main().then((code) => process.exit(code), (e) => {
  log('[ratchet] ' + (e && e.message ? e.message : e))
  process.exit(2)
})
