// Boot benchmark: time and memory to register 1,000 routes and reach `ready()`, for trellis
// (dist/entry/index.cjs), Fastify 4.3.0 (devDependency alias `fastify43`) and Fastify 5.
//
//   npm run bench:boot                      # build, then 5 rounds
//   node bench/boot.mjs --rounds 3          # after npm run build
//   node bench/boot.mjs --child trellis distinct   # one measurement, prints JSON (what the parent runs)
//
// Every measurement is a fresh process (nothing compiled or cached by an earlier one), the
// frameworks interleaved within each round; medians over rounds. Measured from before the factory
// call to after `await app.ready()`: wall time, CPU time of the process (user + system, less
// sensitive to a busy machine) and RSS after ready() (after a forced GC where --expose-gc allows).
// Nothing of it runs in CI.
// trellis with the persistent schema cache (`schemaCache: { dir }`, docs/schema-cache.md) is
// measured twice: "cold" boots into an empty directory (it compiles and writes every entry),
// "warm" is the restart: a first, unmeasured process fills a fresh directory, then the measured one
// boots from it. Those rows are left out for the scenario without schemas (nothing to cache).
// What-if: BOOT_AJV_OPT=1 node bench/boot.mjs --child trellis distinct   passes Ajv's
// `code: { optimize: true }` to trellis (Ajv's own default, which trellis turns off; see docs/benchmarks.md).
// Results: the table is printed, and written with the command, machine, Node version and date to
// bench/results/boot-node<major>-<UTC date and time>.md, every round's figures to the .json beside it
// (bench/results.mjs; gitignored). Nothing is written into docs/ (`--no-write`, which kept the run
// from rewriting a table in docs/benchmarks.md, is gone and ignored).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './stats.mjs'
import { machine, resultsHead, writeResults } from './results.mjs'
import distinctSchemaParts from './distinct-schemas.cjs'

const { distinctBody, distinctResponse } = distinctSchemaParts

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const ROUTES = 1000

const FRAMEWORKS = [
  { name: 'trellis', label: 'trellis' },
  { name: 'trellis-cache-cold', label: 'trellis, schema cache cold (first boot)', cache: 'cold' },
  { name: 'trellis-cache-warm', label: 'trellis, schema cache warm (restart)', cache: 'warm' },
  { name: 'fastify43', label: 'fastify 4.3.0' },
  { name: 'fastify', label: `fastify ${require('fastify/package.json').version}` }
]
const SCENARIOS = [
  { key: 'none', label: '1,000 routes, no schemas' },
  { key: 'shared', label: '1,000 routes, `{ $ref: \'body#\' }` / `{ $ref: \'reply#\' }` to one shared schema' },
  { key: 'distinct', label: '1,000 routes, each a distinct body + response schema' }
]

/** A body schema and a response schema that differ per route `i` (bench/distinct-schemas.cjs). */
function distinctSchemas (i) {
  return { body: distinctBody(i), response: distinctResponse(i) }
}

const SHARED_BODY = {
  $id: 'body',
  type: 'object',
  required: ['name', 'count'],
  properties: {
    name: { type: 'string', maxLength: 50 },
    count: { type: 'integer', minimum: 0 },
    tags: { type: 'array', maxItems: 10, items: { type: 'string' } },
    when: { type: 'string', format: 'date-time' }
  }
}
const SHARED_REPLY = {
  $id: 'reply',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    ok: { type: 'boolean' },
    score: { type: 'number' },
    items: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'number' } } } }
  }
}

function handler () { return { id: 1, name: 'x', ok: true, score: 1, items: [] } }

async function child (name, scenario) {
  const isTrellis = name.startsWith('trellis')
  const factory = isTrellis ? require(join(root, 'dist', 'entry', 'index.cjs')) : require(name)
  const options = { logger: false }
  if (process.env.BOOT_AJV_OPT && isTrellis) options.ajv = { customOptions: { code: { optimize: true } } }
  if (name.startsWith('trellis-cache')) options.schemaCache = { dir: process.env.BOOT_CACHE_DIR }
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const app = factory(options)
  if (scenario === 'shared') {
    app.addSchema(structuredClone(SHARED_BODY))
    app.addSchema(structuredClone(SHARED_REPLY))
  }
  for (let i = 0; i < ROUTES; i++) {
    const opts = {}
    // each route's schema objects are new, as when routes are declared one by one
    if (scenario === 'shared') opts.schema = { body: { $ref: 'body#' }, response: { 200: { $ref: 'reply#' } } }
    if (scenario === 'distinct') opts.schema = distinctSchemas(i)
    app.post('/r' + i, opts, handler)
  }
  await app.ready()
  const ms = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  if (typeof globalThis.gc === 'function') globalThis.gc()
  const rss = process.memoryUsage().rss
  // a sanity check that the routes work (not timed)
  const res = await app.inject({ method: 'POST', url: '/r7', payload: scenario === 'distinct' ? { name7: 'a', count: 8 } : { name: 'a', count: 8 } })
  if (res.statusCode !== 200) throw new Error(`${name} ${scenario}: POST /r7 answered ${res.statusCode} ${res.body}`)
  await app.close()
  process.stdout.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, rss }) + '\n')
}

function runChild (name, scenario, env) {
  const out = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', name, scenario], { encoding: 'utf8', env: { ...process.env, ...env } })
  return JSON.parse(out.trim().split('\n').pop())
}

function measureOnce (framework, scenario) {
  if (framework.cache === undefined) return runChild(framework.name, scenario, {})
  const dir = mkdtempSync(join(tmpdir(), 'trellis-boot-cache-'))
  try {
    if (framework.cache === 'warm') runChild(framework.name, scenario, { BOOT_CACHE_DIR: dir }) // fills the cache, not measured
    return runChild(framework.name, scenario, { BOOT_CACHE_DIR: dir })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const runsIn = (f, s) => f.cache === undefined || s.key !== 'none'

async function main () {
  const args = process.argv.slice(2)
  if (args[0] === '--child') return child(args[1], args[2])
  const roundsAt = args.indexOf('--rounds')
  const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 5
  const started = new Date()
  const loadBefore = loadavg()
  const results = {}
  for (let r = 0; r < rounds; r++) {
    for (const s of SCENARIOS) {
      for (const f of FRAMEWORKS) {
        if (!runsIn(f, s)) continue
        const m = measureOnce(f, s.key)
        const cell = (results[s.key] ??= {})[f.name] ??= { ms: [], cpuMs: [], rss: [] }
        cell.ms.push(m.ms); cell.cpuMs.push(m.cpuMs); cell.rss.push(m.rss)
      }
    }
    process.stderr.write(`round ${r + 1}/${rounds} done\n`)
  }
  const lines = [
    '| scenario | server | ready() ms | CPU ms | RSS MB | time / 4.3.0 | CPU / 4.3.0 | RSS / 4.3.0 |',
    '|---|---|---:|---:|---:|---:|---:|---:|'
  ]
  for (const s of SCENARIOS) {
    const base = results[s.key].fastify43
    for (const f of FRAMEWORKS) {
      if (!runsIn(f, s)) continue
      const c = results[s.key][f.name]
      const ms = median(c.ms); const cpu = median(c.cpuMs); const rss = median(c.rss) / 2 ** 20
      lines.push(`| ${s.label} | ${f.label} | ${ms.toFixed(0)} | ${cpu.toFixed(0)} | ${rss.toFixed(1)} | ` +
        `${(ms / median(base.ms)).toFixed(2)} | ${(cpu / median(base.cpuMs)).toFixed(2)} | ${(median(c.rss) / median(base.rss)).toFixed(2)} |`)
    }
  }
  const loadAfter = loadavg()
  const host = machine()
  const command = (process.env.npm_lifecycle_event === 'bench:boot' ? 'npm run bench:boot' : 'node bench/boot.mjs') +
    (roundsAt >= 0 ? ` --rounds ${rounds}` : '')
  const footer = `(${process.version}, ${rounds} rounds, a fresh process per cell, medians)`
  const table = lines.join('\n') + '\n\n' + footer + '\n'
  console.log(table)
  writeResults({
    name: 'boot',
    nodeVersion: process.version,
    started,
    markdown: [
      resultsHead({ title: 'Boot: ready() for 1,000 routes', command, script: 'bench/boot.mjs', started, host, loadBefore, loadAfter }),
      '',
      table
    ].join('\n'),
    data: {
      benchmark: 'boot',
      command,
      started: started.toISOString(),
      machine: { nproc: host.nproc, cpu: host.cpu, memGiB: host.memGiB },
      node: process.version,
      rounds,
      loadBefore,
      loadAfter,
      scenarios: SCENARIOS.map((s) => ({ key: s.key, label: s.label })),
      frameworks: FRAMEWORKS.map((f) => ({ key: f.name, label: f.label })),
      // scenario key -> framework key -> { ms, cpuMs, rss (bytes) }, one entry per round
      results
    }
  })
}

await main()
