// Cold-start benchmark: a fresh `node` process per measurement, from the first line of the
// application's JavaScript to listen() resolving and to the first answered request, for trellis
// (no cache; schema cache warm; ahead-of-time build) beside Fastify 4.29.1 (devDependency alias
// `fastify429`) and Fastify 5 (devDependency `fastify`).
//
//   npm run bench:coldstart                                  # build, then 10 and 1,000 routes, 7 rounds
//   node bench/coldstart.mjs --routes 10,1000,10000          # the full run (10,000 routes: ~1 min per Fastify process)
//   node bench/coldstart.mjs --routes 10 --rounds 3          # pick route counts and rounds
//   node bench/coldstart.mjs --timeout-min 60                # time limit per process (default 15 minutes)
//   node bench/coldstart.mjs --subjects trellis,fastify      # pick subjects (names below)
//   node bench/coldstart.mjs --baseline /other/checkout --subjects trellis,baseline,fastify   # a change vs the code before it
//   COLDSTART_FRAMEWORK=$PWD/dist/entry/index.cjs COLDSTART_ROUTES=1000 node --cpu-prof bench/coldstart/app.cjs   # one process, profiled
//
// The application (bench/coldstart/routes.cjs, a plugin module) has N POST routes, each with its own
// params, querystring, body and response schema. The measured process (bench/coldstart/app.cjs)
// records performance.now() at its first line, requires the framework, creates the server (logger
// off), registers the plugin, listens on 127.0.0.1, sends itself one POST to the last route and
// checks the answer. Reported per subject: node's own start (process time origin to the first line),
// require(framework), first line to listen(), first line to the first answer, CPU time (user +
// system) from the first line to listen, RSS at the first answer.
//
// Subjects, interleaved: every round runs every route count, and within it every subject once, in
// an order rotated per round; medians over rounds with min–max. The ratios to Fastify 5 are the
// median of the per-round ratios (the two processes of a round ran side by side, so a busy machine
// moves both). Before the rounds, per route count and unmeasured:
//   - trellis-cache: one process fills a fresh schema cache directory (TRELLIS_SCHEMA_CACHE_DIR,
//     docs/schema-cache.md); the measured processes restart from it ("warm").
//   - trellis-aot: `node dist/bin/trellis.js build bench/coldstart/routes.cjs --out <dir>`, and the
//     measured processes start with TRELLIS_AOT_DIR=<dir>. When the CLI has no `build` command the
//     row says "n/a (no trellis build)".
//   - Node's compile cache (module.enableCompileCache, Node 22.1+; docs/deployment.md): off
//     (NODE_DISABLE_COMPILE_CACHE=1) except in the subjects that name it, which run with
//     NODE_COMPILE_CACHE=<a fresh dir> filled by one unmeasured start: trellis-aot (the build with its
//     module pack, the cache for the rest: what `trellis start` does), trellis-aot-pack (the pack
//     alone), trellis-aot-ccache (the build without its module pack: trellis' modules from the
//     compile cache instead), trellis-ccache (no build, compile cache). On Node 20 the cache rows are
//     the same processes without it.
// `--baseline <dir>` adds the subject `baseline`: trellis without cache from another build
// (<dir>/dist/entry/index.cjs, or <dir>/entry/index.cjs for a copy of a dist/ directory), and a line
// per route count with trellis / baseline (median of per-round ratios): how to measure a change.
// Results: the table is printed, and written with the command, machine, Node version and date to
// bench/results/coldstart-node<major>-<UTC time>.md, every measurement in the .json beside it. Not a test.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './stats.mjs'
import { machine, resultsHead, writeResults } from './results.mjs'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const appFile = join(root, 'bench', 'coldstart', 'app.cjs')
const routesFile = join(root, 'bench', 'coldstart', 'routes.cjs')
const cli = join(root, 'dist', 'bin', 'trellis.js')
const trellisEntry = join(root, 'dist', 'entry', 'index.cjs')

const SUBJECTS = [
  { name: 'trellis', label: 'trellis, no cache', framework: trellisEntry },
  { name: 'trellis-cache', label: 'trellis, schema cache warm', framework: trellisEntry, prepare: 'cache' },
  { name: 'trellis-aot', label: 'trellis, `trellis build` (module pack + compile cache)', framework: trellisEntry, prepare: 'aot', compileCache: true },
  { name: 'trellis-aot-pack', label: 'trellis, `trellis build`, module pack, no compile cache', framework: trellisEntry, prepare: 'aot' },
  { name: 'trellis-aot-ccache', label: 'trellis, `trellis build` without its module pack, compile cache', framework: trellisEntry, prepare: 'aot', pack: false, compileCache: true },
  { name: 'trellis-ccache', label: 'trellis, no build, compile cache', framework: trellisEntry, compileCache: true },
  { name: 'fastify429', label: `fastify ${require('fastify429/package.json').version}`, framework: 'fastify429' },
  { name: 'fastify', label: `fastify ${require('fastify/package.json').version}`, framework: 'fastify' }
]
const BASE = 'fastify'

function baselineSubject (dir) {
  const entry = [join(dir, 'dist', 'entry', 'index.cjs'), join(dir, 'entry', 'index.cjs')].find((f) => existsSync(f))
  if (entry === undefined) throw new Error(`--baseline ${dir}: neither dist/entry/index.cjs nor entry/index.cjs there`)
  return { name: 'baseline', label: `baseline (${dir})`, framework: entry }
}
// one process may take this long (--timeout-min; a 10,000-route Fastify process on a 2-core machine busy
// with other work took over 15 minutes)
let CHILD_TIMEOUT_MS = 15 * 60 * 1000

function option (args, name, fallback) {
  const at = args.indexOf(name)
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback
}

/** Whether this build's CLI has the `build` command (its help lists it). */
function hasBuildCommand () {
  try {
    const help = execFileSync(process.execPath, [cli, 'help'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    return /^\s+build\b/m.test(help)
  } catch {
    return false
  }
}

function runApp (framework, routes, env) {
  const base = { ...process.env }
  delete base.NODE_COMPILE_CACHE
  const out = execFileSync(process.execPath, [appFile], {
    encoding: 'utf8',
    timeout: CHILD_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Node's compile cache only where the subject asks for it (NODE_COMPILE_CACHE, set by prepare)
    env: { ...base, NODE_DISABLE_COMPILE_CACHE: '1', TRELLIS_SCHEMA_CACHE_DIR: '', TRELLIS_AOT_DIR: '', ...env, COLDSTART_FRAMEWORK: framework, COLDSTART_ROUTES: String(routes) }
  })
  return JSON.parse(out.trim().split('\n').pop())
}

/** What a subject needs before its measured processes (per route count): env, or why it cannot run. */
function prepare (subject, routes, aotAvailable, dirs) {
  const prepared = prepareBuild(subject, routes, aotAvailable, dirs)
  if (prepared.na !== undefined || subject.compileCache !== true) return prepared
  // Node's compile cache (NODE_COMPILE_CACHE: on from the process's first module), filled by one unmeasured start
  const dir = mkdtempSync(join(tmpdir(), 'trellis-coldstart-ccache-'))
  dirs.push(dir)
  const env = { ...prepared.env, NODE_COMPILE_CACHE: dir, NODE_DISABLE_COMPILE_CACHE: '' }
  runApp(subject.framework, routes, env)
  return { env }
}

function prepareBuild (subject, routes, aotAvailable, dirs) {
  if (subject.prepare === 'cache') {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-coldstart-cache-'))
    dirs.push(dir)
    runApp(subject.framework, routes, { TRELLIS_SCHEMA_CACHE_DIR: dir }) // fills the cache, not measured
    return { env: { TRELLIS_SCHEMA_CACHE_DIR: dir } }
  }
  if (subject.prepare === 'aot') {
    if (!aotAvailable) return { na: 'n/a (no trellis build)' }
    const dir = mkdtempSync(join(tmpdir(), 'trellis-coldstart-aot-'))
    dirs.push(dir)
    try {
      execFileSync(process.execPath, [cli, 'build', routesFile, '--out', dir], {
        encoding: 'utf8', timeout: CHILD_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, COLDSTART_ROUTES: String(routes) }
      })
    } catch (err) {
      const reason = String(err.stderr || err.message).trim().split('\n')[0]
      process.stderr.write(`trellis build failed for ${routes} routes: ${reason}\n`)
      return { na: 'n/a (trellis build failed)' }
    }
    // the build without its module pack: trellis' modules load from disk
    if (subject.pack === false) for (const file of ['modules.js', 'modules.json', 'modules.v8cache']) rmSync(join(dir, file), { force: true })
    return { env: { TRELLIS_AOT_DIR: dir } }
  }
  return { env: {} }
}

const fmtMs = (x) => x >= 10000 ? (x / 1000).toFixed(1) + ' s' : x >= 1000 ? (x / 1000).toFixed(2) + ' s' : x.toFixed(0)
const fmtMiB = (x) => (x / 2 ** 20).toFixed(0)
const spread = (xs, fmt) => xs.length < 2 ? fmt(xs[0]) : `${fmt(median(xs))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`
const ratio = (xs, base) => median(xs.map((x, i) => x / base[i]))

function table (routeCounts, subjects, results, prepared) {
  const lines = [
    '| routes | subject | node start | require | to listen | to first answer | CPU to listen | RSS MiB | listen / F5 | CPU / F5 | RSS / F5 |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|'
  ]
  for (const routes of routeCounts) {
    const base = results[routes][BASE]
    for (const s of subjects) {
      const p = prepared[routes][s.name]
      const label = `| ${routes.toLocaleString('en-US')} | ${s.label} |`
      if (p.na !== undefined) { lines.push(`${label} ${p.na} | | | | | | | | |`); continue }
      const c = results[routes][s.name]
      const rel = base === undefined || s.name === BASE
        ? ' | |'
        : ` ${ratio(c.listen, base.listen).toFixed(2)} | ${ratio(c.cpuApp, base.cpuApp).toFixed(2)} | ${ratio(c.rss, base.rss).toFixed(2)} |`
      lines.push(`${label} ${fmtMs(median(c.start))} | ${spread(c.require, fmtMs)} | ${spread(c.listen, fmtMs)} | ${spread(c.first, fmtMs)} | ` +
        `${spread(c.cpuApp, fmtMs)} | ${spread(c.rss, fmtMiB)} |${rel}`)
    }
  }
  const vsBaseline = routeCounts.filter((n) => results[n].baseline !== undefined && results[n].trellis !== undefined).map((n) => {
    const c = results[n].trellis; const b = results[n].baseline
    return `${n} routes, trellis / baseline: listen ${ratio(c.listen, b.listen).toFixed(3)}, CPU to listen ${ratio(c.cpuApp, b.cpuApp).toFixed(3)}, ` +
      `require ${ratio(c.require, b.require).toFixed(3)} (CPU ${ratio(c.cpuRequire, b.cpuRequire).toFixed(3)}), first answer ${ratio(c.first, b.first).toFixed(3)}, RSS ${ratio(c.rss, b.rss).toFixed(3)}`
  })
  return lines.join('\n') + (vsBaseline.length > 0 ? '\n\n' + vsBaseline.join('\n') : '')
}

async function main () {
  const args = process.argv.slice(2)
  const routeCounts = option(args, '--routes', '10,1000').split(',').map(Number)
  const rounds = Number(option(args, '--rounds', '7'))
  CHILD_TIMEOUT_MS = Number(option(args, '--timeout-min', '15')) * 60 * 1000
  const wanted = option(args, '--subjects', undefined)?.split(',')
  const baseline = option(args, '--baseline', undefined)
  const all = baseline === undefined ? SUBJECTS : [...SUBJECTS, baselineSubject(resolve(baseline))]
  const subjects = wanted === undefined ? all : all.filter((s) => wanted.includes(s.name))
  if (routeCounts.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(rounds) || rounds < 1 || subjects.length === 0 || !(CHILD_TIMEOUT_MS > 0)) {
    throw new Error('usage: node bench/coldstart.mjs [--routes 10,1000,10000] [--rounds 7] [--subjects trellis,trellis-cache,trellis-aot,trellis-aot-pack,trellis-aot-ccache,trellis-ccache,fastify429,fastify,baseline] [--baseline dir] [--timeout-min 15]')
  }
  const started = new Date()
  const loadBefore = loadavg()
  const aotAvailable = hasBuildCommand()
  const dirs = []
  try {
    const prepared = {}
    const results = {}
    for (const routes of routeCounts) {
      prepared[routes] = {}
      results[routes] = {}
      for (const s of subjects) prepared[routes][s.name] = prepare(s, routes, aotAvailable, dirs)
    }
    for (let r = 0; r < rounds; r++) {
      for (const routes of routeCounts) {
        for (let k = 0; k < subjects.length; k++) {
          const s = subjects[(k + r) % subjects.length]
          const p = prepared[routes][s.name]
          if (p.na !== undefined) continue
          const m = runApp(s.framework, routes, p.env)
          m.cpuApp = m.cpuListen - m.cpuStart // CPU from the first line to listen()
          const cell = results[routes][s.name] ??= {}
          for (const [key, value] of Object.entries(m)) (cell[key] ??= []).push(value)
        }
      }
      process.stderr.write(`round ${r + 1}/${rounds} done\n`)
    }
    const loadAfter = loadavg()
    const host = machine()
    const command = (process.env.npm_lifecycle_event === 'bench:coldstart' ? 'npm run bench:coldstart --' : 'node bench/coldstart.mjs') +
      (args.length > 0 ? ' ' + args.join(' ') : '')
    const text = table(routeCounts, subjects, results, prepared) + '\n\n' +
      `(${process.version}, ${rounds} rounds, a fresh process per cell, interleaved; ms unless stated: medians (min–max); ` +
      '"/ F5": median of the per-round ratios to Fastify 5)\n'
    console.log(text)
    writeResults({
      name: 'coldstart',
      nodeVersion: process.version,
      started,
      markdown: [
        resultsHead({ title: 'Cold start: first line to listen() and to the first answer', command, script: 'bench/coldstart.mjs', started, host, loadBefore, loadAfter }),
        '',
        text
      ].join('\n'),
      data: {
        benchmark: 'coldstart',
        command,
        started: started.toISOString(),
        machine: { nproc: host.nproc, cpu: host.cpu, memGiB: host.memGiB },
        node: process.version,
        rounds,
        loadBefore,
        loadAfter,
        subjects: subjects.map((s) => ({ key: s.name, label: s.label, na: routeCounts.map((n) => prepared[n][s.name].na ?? null) })),
        // route count -> subject -> { start, require, listen, first, cpuStart, cpuRequire, cpuListen, cpuFirst, rss, cpuApp }, one entry per round
        results
      }
    })
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}

await main()
