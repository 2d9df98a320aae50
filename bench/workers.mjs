// Scaling with workers (`npm run bench:workers`): req/s and server CPU per request of
// `trellis start --workers N` on a hello route, the load generator pinned to its own core with
// taskset (wrk when installed, else autocannon). The table is printed, and written with the run's
// machine, Node version and date to bench/results/workers-node<major>-<UTC date and time>.md, the
// figures of every run to the .json beside it (bench/results.mjs; gitignored). Nothing is written
// into docs/ (BENCH_NO_WRITE, which kept the run from rewriting docs/benchmarks.md, is gone).
//
// Env: BENCH_DURATION (s per run, default 5), BENCH_RUNS (default 3, the median is reported),
//      BENCH_WARMUP (s, default 2), BENCH_CONNECTIONS (default 64), BENCH_RESULTS_DIR.
import { spawn, execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { machine, writeResults } from './results.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(root, 'dist', 'bin', 'trellis.js')
const DURATION = Number(process.env.BENCH_DURATION ?? 5)
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64)
const TICKS = 100 // USER_HZ on Linux: /proc/<pid>/stat times are in 1/100 s

function which (name) {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir !== '' && existsSync(join(dir, name))) return join(dir, name)
  return undefined
}
const WRK = which('wrk')
const TASKSET = which('taskset')
const nproc = availableParallelism()
const pin = TASKSET !== undefined && nproc >= 2

const APP = `module.exports = async function (app) {
  app.get('/', async () => ({ hello: 'world' }))
  app.get('/pid', async () => ({ pid: process.pid }))
}
`
const SCENARIOS = [
  { name: '1 worker', workers: 1, serverCpus: '0', loadCpus: '1' },
  { name: '2 workers on the same core', workers: 2, serverCpus: '0', loadCpus: '1' },
  { name: '2 workers on both cores (sharing one with the load generator)', workers: 2, serverCpus: '0,1', loadCpus: '1' }
]

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

function freePort () {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)) })
  })
}
function get (port, path) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = ''
      res.on('data', (c) => { body += c })
      res.on('end', () => resolve(body))
    }).on('error', reject)
  })
}
/** user+system CPU seconds of a process and its children (the cluster's workers). */
function treeCpu (pid) {
  const pids = [pid]
  try { pids.push(...readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)) } catch {}
  let total = 0
  for (const p of pids) {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')
      total += (Number(fields[11]) + Number(fields[12])) / TICKS
    } catch {}
  }
  return total
}

function wrkVersion () {
  // wrk prints its version with the usage text and exits 1
  let out = ''
  try { out = execFileSync(WRK, ['--version'], { encoding: 'utf8' }) } catch (err) { out = String(err.stdout ?? '') }
  return out.split('\n')[0].split(' Copyright')[0].trim() || 'version unknown'
}

function pinned (cpuList, command, args) {
  return pin ? [TASKSET, ['-c', cpuList, command, ...args]] : [command, args]
}

/** One load run: requests/s and total requests. */
function load (port, seconds, cpuList) {
  const url = `http://127.0.0.1:${port}/`
  if (WRK !== undefined) {
    const [cmd, args] = pinned(cpuList, WRK, ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, url])
    const out = execFileSync(cmd, args, { encoding: 'utf8' })
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
    const total = Number(/(\d+) requests in/.exec(out)?.[1])
    const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? '0'
    const socketErrors = /Socket errors: (.*)/.exec(out)?.[1]
    if (errors !== '0' || socketErrors !== undefined) console.warn(`  wrk reported errors: non-2xx ${errors}; ${socketErrors ?? ''}`)
    return { rps, total }
  }
  const autocannon = join(root, 'node_modules', 'autocannon', 'autocannon.js')
  const [cmd, args] = pinned(cpuList, process.execPath, [autocannon, '-c', String(CONNECTIONS), '-d', String(seconds), '-j', url])
  const result = JSON.parse(execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))
  return { rps: result.requests.average, total: result.requests.total }
}

async function runScenario (scenario, appDir) {
  const port = await freePort()
  const [cmd, args] = pinned(scenario.serverCpus, process.execPath, [BIN, 'start', '-a', '127.0.0.1', '-p', String(port), '--workers', String(scenario.workers), '--log-level', 'warn', 'app.cjs'])
  const child = spawn(cmd, args, { cwd: appDir, stdio: ['ignore', 'ignore', 'inherit'] })
  try {
    const pids = new Set()
    for (let i = 0; i < 400 && pids.size < scenario.workers; i++) {
      try { pids.add(JSON.parse(await get(port, '/pid')).pid) } catch { await sleep(50) }
    }
    if (pids.size < scenario.workers) throw new Error(`${scenario.name}: only ${pids.size} worker(s) answered`)
    load(port, WARMUP, scenario.loadCpus)
    const runs = []
    for (let r = 0; r < RUNS; r++) {
      const before = treeCpu(child.pid)
      const { rps, total } = load(port, DURATION, scenario.loadCpus)
      const cpu = treeCpu(child.pid) - before
      runs.push({ rps, cpuUsPerReq: (cpu / total) * 1e6 })
    }
    return { ...scenario, runs, rps: median(runs.map((r) => r.rps)), cpuUsPerReq: median(runs.map((r) => r.cpuUsPerReq)) }
  } finally {
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  }
}

function section (results, startedAt, load0, load1) {
  const base = results[0].rps
  const rows = results.map((r) => `| ${r.name} | ${r.serverCpus} | ${r.loadCpus} | ${Math.round(r.rps)} | ${(r.rps / base).toFixed(2)}× | ${r.cpuUsPerReq.toFixed(1)} | ${r.runs.map((x) => Math.round(x.rps)).join(', ')} |`)
  return [
    '# Workers (npm run bench:workers)',
    '',
    '`trellis start --workers N` (node:cluster) serving `GET /` → `{"hello":"world"}` with `--log-level warn`,',
    `loaded by ${generatorName()} with ${CONNECTIONS} keep-alive connections; ${pin ? 'server and load generator pinned with taskset to the CPUs shown' : 'NOT pinned (taskset missing or a single core)'}.`,
    `${WARMUP} s warm-up, then ${RUNS} runs of ${DURATION} s; the table shows the median run (and every run's req/s).`,
    '"server CPU µs/req" is the user+system CPU of the primary and its workers over the requests answered.',
    '',
    `Command: \`${process.env.npm_lifecycle_event === 'bench:workers' ? 'npm run bench:workers' : 'node bench/workers.mjs'}\``,
    '',
    `Run: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC; machine: ${machine().text}; node ${process.version}.`,
    `Load average before/after: ${load0.map((x) => x.toFixed(2)).join(' ')} / ${load1.map((x) => x.toFixed(2)).join(' ')}` +
      (Math.max(load0[0], load1[0]) > nproc ? ' — a busy machine (load above the core count): other processes took CPU from both server and load generator, so rerun on a quiet machine before reading anything into these figures.' : ''),
    '',
    '| setup | server CPUs | load CPUs | req/s | vs 1 worker | server CPU µs/req | runs (req/s) |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    ''
  ].join('\n')
}

function generatorName () {
  return WRK !== undefined ? `wrk (${wrkVersion()}, 1 thread)` : 'autocannon (its CLI, one process)'
}

if (!existsSync(BIN)) { console.error(`${BIN} is missing: run npm run build`); process.exit(1) }
const appDir = mkdtempSync(join(tmpdir(), 'trellis-bench-workers-'))
writeFileSync(join(appDir, 'app.cjs'), APP)
const startedAt = new Date()
const load0 = loadavg()
const results = []
for (const scenario of SCENARIOS) {
  if (!pin && scenario.serverCpus === '0,1') continue
  const result = await runScenario(scenario, appDir)
  console.log(`${result.name}: ${Math.round(result.rps)} req/s (runs ${result.runs.map((r) => Math.round(r.rps)).join(', ')}), ${result.cpuUsPerReq.toFixed(1)} server CPU µs/req`)
  results.push(result)
}
if (process.env.BENCH_NO_WRITE !== undefined) console.log('BENCH_NO_WRITE is gone: nothing is written into docs/; the results go to bench/results/')
const load1 = loadavg()
const text = section(results, startedAt, load0, load1)
console.log('\n' + text)
const host = machine()
writeResults({
  name: 'workers',
  nodeVersion: process.version,
  started: startedAt,
  markdown: text,
  data: {
    benchmark: 'workers',
    started: startedAt.toISOString(),
    machine: { nproc: host.nproc, cpu: host.cpu, memGiB: host.memGiB },
    node: process.version,
    loadGenerator: generatorName(),
    pinned: pin,
    settings: { duration: DURATION, runs: RUNS, warmup: WARMUP, connections: CONNECTIONS },
    loadBefore: load0,
    loadAfter: load1,
    // per setup: the median run's req/s and server CPU µs/request, and every run
    results
  }
})
