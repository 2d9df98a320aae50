// Instructions per request, a figure other load on a busy machine does not disturb: `npm run bench:icount`
// (= npm run build && node bench/icount.mjs). Not part of CI. Needs valgrind (Debian: apt-get install -y valgrind).
//
// Each server of bench/servers.mjs runs under `valgrind --tool=callgrind` (the same child process
// as `npm run bench`, bench/run.mjs --server), with V8's memory reducer off (see NODE_FLAGS). A
// client in this process (keep-alive, 4 connections) first warms every route up, twice in turn
// (BENCH_ICOUNT_WARMUP requests each time), then per route measures windows of BENCH_ICOUNT_REQUESTS
// requests (callgrind's counters zeroed before, dumped after) until three windows in a row lie
// within ±2 % of their median (at most BENCH_ICOUNT_MAX_WINDOWS); reported is that median, in
// instructions executed by the whole server process (every thread: main, V8's compiler and GC
// threads) per request. Each window's count is printed, so compiling still going on shows (the
// first windows of a route are often 1.5–5× the settled count: V8 still optimizing, or
// deoptimizing after another route's shapes); a route that never settles is flagged NOT settled.
// Other load on the machine does not change these counts. Instructions are not time (a cache miss
// or a system call costs more than its instruction count), so this ranks changes and compares
// servers; `npm run bench` on a quiet machine gives req/s.
//
// About 5–10 minutes per pair of servers on an idle machine (valgrind runs node ~50× slower); servers
// are measured two at a time.
//
//   BENCH_SERVERS=bare,trellis            servers (default: bare,trellis; baseline with BENCH_BASELINE; the
//                                         tracing servers of bench/servers.mjs too, e.g. trellis-otel, and
//                                         trellis-v5, the Fastify 5 line of the same build)
//   BENCH_BASELINE=/other/checkout        that checkout's built trellis as server `baseline`
//   BENCH_ROUTES=hello,post               routes (default: all five)
//   BENCH_ICOUNT_WARMUP=2000              warm-up requests per route and pass
//   BENCH_ICOUNT_REQUESTS=1000            requests per measured window
//   BENCH_ICOUNT_MAX_WINDOWS=12           windows per route at most
//   BENCH_ICOUNT_TOLERANCE=0.02           how close three windows must be
//   BENCH_ICOUNT_NODE_FLAGS='--no-memory-reducer --trace-deopt'   the server's node flags
//   BENCH_ICOUNT_KEEP=/some/dir           keep the callgrind dumps (callgrind_annotate) and the
//                                         server's output there, with a line `=== <window>` after each window
//   BENCH_NODE=24                         servers on another Node line (as for npm run bench)
//   BENCH_ICOUNT_CACHE=1                  also simulate the caches (callgrind --cache-sim=yes): first-level
//                                         instruction and data misses and last-level misses per request, and
//                                         an estimated cycle count (Ir + 10 × L1 misses + 100 × LL misses, the
//                                         weighting of valgrind's manual); the cache sizes are valgrind's
//                                         reading of this CPU. Windows settle on the instruction count.
//   BENCH_ICOUNT_BRANCH=1                 also simulate branch prediction (callgrind --branch-sim=yes):
//                                         conditional and indirect branches and their mispredictions per
//                                         request (valgrind's simple predictor, not this CPU's: it ranks
//                                         servers; a misprediction costs some 15–20 cycles on a current core)
//   BENCH_ICOUNT_VALGRIND_FLAGS='--LL=524288,8,64'   more valgrind flags; with the cache simulation, a last
//                                         level the size of one core's L2 (valgrind models two levels
//                                         only, and its default last level is the shared L3)
import { spawn, execFileSync } from 'node:child_process'
import http from 'node:http'
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ROUTES, SERVER_NAMES, TRELLIS_VARIANT_NAMES, OTEL_SERVER_NAMES, OTEL_PART_NAMES, serverLabel, BASELINE } from './servers.mjs'
import { hasCommand, nodeBinary } from './processes.mjs'
import { median } from './stats.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const serverMain = join(root, 'bench', 'run.mjs')

const list = (env, all, fallback = all) => {
  const v = process.env[env]
  if (v === undefined || v === '') return fallback
  const wanted = v.split(',').map((s) => s.trim())
  for (const w of wanted) if (!all.includes(w)) throw new Error(`${env}: unknown ${w} (known: ${all.join(', ')})`)
  return wanted
}
const servers = list('BENCH_SERVERS', [...SERVER_NAMES, ...TRELLIS_VARIANT_NAMES, ...OTEL_SERVER_NAMES, ...OTEL_PART_NAMES], BASELINE !== undefined ? ['bare', 'trellis', 'baseline'] : ['bare', 'trellis'])
const routes = ROUTES.filter((r) => list('BENCH_ROUTES', ROUTES.map((x) => x.key)).includes(r.key))
const WARMUP = Number(process.env.BENCH_ICOUNT_WARMUP ?? 2000)
const REQUESTS = Number(process.env.BENCH_ICOUNT_REQUESTS ?? 1000)
const STABLE_WINDOWS = 3
const TOLERANCE = Number(process.env.BENCH_ICOUNT_TOLERANCE ?? 0.02)
const MAX_WINDOWS = Number(process.env.BENCH_ICOUNT_MAX_WINDOWS ?? 12)
// Under valgrind the server allocates ~50× slower in wall time, so V8's memory reducer (compacting
// full GCs for a process that looks idle) fires between windows; such a GC drops optimized code
// that embeds objects it frees ("weak objects" deopts) and the next windows recompile. A loaded
// server never looks idle to it, so it is off here.
const NODE_FLAGS = (process.env.BENCH_ICOUNT_NODE_FLAGS ?? '--no-memory-reducer').split(' ').filter((f) => f !== '')
const KEEP = process.env.BENCH_ICOUNT_KEEP || undefined
const CACHE = process.env.BENCH_ICOUNT_CACHE === '1'
const BRANCH = process.env.BENCH_ICOUNT_BRANCH === '1'
const VALGRIND_FLAGS = (process.env.BENCH_ICOUNT_VALGRIND_FLAGS ?? '').split(' ').filter((f) => f !== '')
/** callgrind's event names with --cache-sim=yes, and how they are reported. */
const MISS_EVENTS = [['I1mr', 'I1 misses'], ['D1mr', 'D1 read misses'], ['D1mw', 'D1 write misses'], ['ILmr', 'LL instruction misses'], ['DLmr', 'LL read misses'], ['DLmw', 'LL write misses']]
/** callgrind's event names with --branch-sim=yes. */
const BRANCH_EVENTS = [['Bc', 'conditional branches'], ['Bcm', 'conditional mispredicted'], ['Bi', 'indirect branches'], ['Bim', 'indirect mispredicted']]
/** The simulated events this run reports. */
const SIMULATED = [...(CACHE ? MISS_EVENTS : []), ...(BRANCH ? BRANCH_EVENTS : [])]
/** valgrind's manual estimate of cycles from the simulated events. */
const estimatedCycles = (e) => e.Ir + 10 * (e.I1mr + e.D1mr + e.D1mw) + 100 * (e.ILmr + e.DLmr + e.DLmw)

/** Sends `n` requests for `route` over 4 keep-alive connections; rejects on an unexpected status. */
function load (port, route, n) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })
  let sent = 0
  let done = 0
  let retries = 0
  return new Promise((resolve, reject) => {
    const one = () => {
      if (sent >= n) return
      sent++
      const headers = route.body !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(route.body) } : {}
      const req = http.request({ host: '127.0.0.1', port, method: route.method, path: route.path, agent, headers }, (res) => {
        res.resume()
        res.on('end', () => {
          if (res.statusCode !== route.status) { reject(new Error(`${route.path}: status ${res.statusCode}`)); return }
          if (++done === n) resolve()
          else one()
        })
      })
      req.on('error', (err) => {
        // under valgrind on a loaded machine the server can close an idle keep-alive connection just as
        // the agent reuses it: that request is sent again (at most 10 times per load), anything else fails
        if (err.code === 'ECONNRESET' && retries++ < 10) { sent--; one(); return }
        reject(err)
      })
      req.end(route.body)
    }
    for (let i = 0; i < 4; i++) one()
  }).finally(() => agent.destroy())
}

function callgrindControl (args) {
  execFileSync('callgrind_control', args, { stdio: 'ignore' })
}

/**
 * The totals of the dump whose trigger names `label`, by event name (Ir; with CACHE the cache events,
 * their estimated cycles, and `config`: the simulated cache sizes as valgrind reports them).
 */
function readDump (dir, prefix, label) {
  for (const file of readdirSync(dir)) {
    if (!file.startsWith(prefix)) continue
    const text = readFileSync(join(dir, file), 'utf8')
    if (!new RegExp(`^desc: Trigger: .*\\b${label}\\b`, 'm').test(text)) continue
    const m = /^(?:summary|totals):((?: \d+)+)/m.exec(text)
    const names = /^events:((?: \w+)+)/m.exec(text)
    if (m === null || names === null) continue
    if (KEEP === undefined) rmSync(join(dir, file))
    const values = m[1].trim().split(' ').map(Number)
    const events = Object.fromEntries(names[1].trim().split(' ').map((n, i) => [n, values[i] ?? 0]))
    if (CACHE) {
      events.cycles = estimatedCycles(events)
      events.config = [...text.matchAll(/^desc: ((?:I1|D1|LL) cache: .*)$/gm)].map((x) => x[1]).join('; ')
    }
    return events
  }
  throw new Error(`no callgrind dump for ${label} in ${dir}`)
}

/** Whether the last STABLE_WINDOWS counts lie within TOLERANCE of their median. */
function settled (counts) {
  if (counts.length < STABLE_WINDOWS) return false
  const last = counts.slice(-STABLE_WINDOWS)
  const m = median(last)
  return last.every((c) => Math.abs(c - m) <= TOLERANCE * m)
}

async function measure (name, node) {
  const dir = KEEP ?? mkdtempSync(join(tmpdir(), 'trellis-icount-'))
  const out = join(dir, `cg.${name}.out`)
  const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, '--dump-instr=no', '--compress-strings=no',
    ...(CACHE ? ['--cache-sim=yes'] : []), ...(BRANCH ? ['--branch-sim=yes'] : []), ...VALGRIND_FLAGS,
    node, ...NODE_FLAGS, serverMain, '--server', name], { stdio: ['ignore', KEEP === undefined ? 'ignore' : 'pipe', 'ignore', 'ipc'], cwd: dir })
  // BENCH_ICOUNT_KEEP: the server's output (e.g. BENCH_ICOUNT_NODE_FLAGS='--trace-gc --trace-deopt') with a line per window
  if (KEEP !== undefined) child.stdout.pipe(createWriteStream(join(dir, `${name}.log`)))
  let dumps = 0
  /** Zeroes the counters, sends `n` requests, dumps: the events (instructions, misses) those requests cost. */
  const window = async (port, route, n) => {
    callgrindControl(['-z', String(child.pid)])
    await load(port, route, n)
    const label = `icount-${name}-${route.key}-${++dumps}`
    callgrindControl(['-d', label, String(child.pid)])
    if (KEEP !== undefined) child.send({ mark: label })
    return readDump(dir, `cg.${name}.out`, label)
  }
  try {
    const { port, version } = await new Promise((resolve, reject) => {
      child.once('message', resolve)
      child.once('error', reject)
      child.once('exit', (code) => reject(new Error(`${name} exited early (code ${code})`)))
    })
    // every route first, twice in turn: the shared request path sees every route's shapes before any window
    for (let pass = 0; pass < 2; pass++) for (const route of routes) await load(port, route, WARMUP)
    const result = {}
    let cacheConfig
    for (const route of routes) {
      await load(port, route, Math.min(WARMUP, 500))
      const counts = []
      const events = []
      while (!settled(counts) && counts.length < MAX_WINDOWS) {
        const e = await window(port, route, REQUESTS)
        events.push(e)
        counts.push(e.Ir / REQUESTS)
      }
      const last = counts.slice(-STABLE_WINDOWS)
      const m = median(last)
      const spread = (Math.max(...last) - Math.min(...last)) / m
      // per event, the median over the same last windows
      const perRequest = (name) => median(events.slice(-STABLE_WINDOWS).map((e) => e[name] / REQUESTS))
      const sim = SIMULATED.length > 0 ? Object.fromEntries([...(CACHE ? ['cycles'] : []), ...SIMULATED.map(([n]) => n)].map((n) => [n, perRequest(n)])) : undefined
      result[route.key] = { median: m, spread, windows: counts.length, stable: settled(counts), sim }
      if (CACHE) cacheConfig = events[events.length - 1].config
      console.log(`${serverLabel(name).padEnd(18)} ${route.key.padEnd(9)} ${Math.round(m).toLocaleString('en-US').padStart(9)} instructions/request` +
        ` (windows: ${counts.map((c) => Math.round(c / 100) / 10 + 'k').join(' ')}${settled(counts) ? '' : '; NOT settled'})` +
        (sim === undefined ? '' : `; ${SIMULATED.map(([n]) => `${n} ${Math.round(sim[n])}`).join(', ')}` + (CACHE ? `, est. cycles ${Math.round(sim.cycles).toLocaleString('en-US')}` : '')))
    }
    return { version, out: result, cacheConfig }
  } finally {
    child.removeAllListeners('exit')
    if (child.exitCode === null) process.kill(child.pid, 'SIGTERM') // only the child started here, by its PID
    await new Promise((resolve) => { if (child.exitCode !== null) resolve(); else child.once('exit', resolve) })
    if (KEEP === undefined) rmSync(dir, { recursive: true, force: true })
  }
}

async function main () {
  if (!hasCommand('valgrind') || !hasCommand('callgrind_control')) throw new Error('valgrind not found (apt-get install -y valgrind)')
  const node = nodeBinary()
  const started = Date.now()
  const results = {}
  let version = ''
  let cacheConfig
  // two servers at a time: counts do not depend on how busy the machine is, only the wall time does
  for (let i = 0; i < servers.length; i += 2) {
    const batch = servers.slice(i, i + 2)
    const done = await Promise.all(batch.map((s) => measure(s, node)))
    batch.forEach((s, k) => { results[s] = done[k].out; version = done[k].version; cacheConfig ??= done[k].cacheConfig })
  }
  const ref = servers.includes('bare') ? 'bare' : servers[0]
  console.log(`\nnode ${version}${NODE_FLAGS.length > 0 ? ' ' + NODE_FLAGS.join(' ') : ''}; warm-up 2 × ${WARMUP} requests per route; windows of ${REQUESTS} requests until ${STABLE_WINDOWS} in a row lie within ±${TOLERANCE * 100} % of their median (at most ${MAX_WINDOWS}); the median of those ${STABLE_WINDOWS}; ${Math.round((Date.now() - started) / 1000)} s\n`)
  const unsettled = servers.flatMap((s) => routes.filter((r) => !results[s][r.key].stable).map((r) => `${s} ${r.key}`))
  if (unsettled.length > 0) console.log(`NOT settled (read with care): ${unsettled.join(', ')}\n`)
  const ratioNames = servers.filter((s) => s !== ref).map((s) => [s, ref])
  if (ref !== 'trellis' && servers.includes('baseline') && servers.includes('trellis')) ratioNames.push(['trellis', 'baseline'])
  const head = [...servers.map((s) => `${serverLabel(s)}, instructions/request`), ...ratioNames.map(([a, b]) => `${serverLabel(a)} / ${serverLabel(b)}`)]
  console.log(`| route | ${head.join(' | ')} |`)
  console.log(`|---|${head.map(() => '---:').join('|')}|`)
  for (const route of routes) {
    const cells = [...servers.map((s) => Math.round(results[s][route.key].median).toLocaleString('en-US')),
      ...ratioNames.map(([a, b]) => (results[a][route.key].median / results[b][route.key].median).toFixed(3))]
    console.log(`| ${route.label} | ${cells.join(' | ')} |`)
  }
  if (BRANCH) {
    console.log("\nSimulated branch prediction (valgrind's predictor), per request\n")
    console.log(`| route | server | ${BRANCH_EVENTS.map(([, l]) => l).join(' | ')} | mispredicted, all | mispredicted / ${serverLabel(ref)} |`)
    console.log(`|---|---|${BRANCH_EVENTS.map(() => '---:').join('|')}|---:|---:|`)
    const mispredicted = (b) => b.Bcm + b.Bim
    for (const route of routes) {
      for (const s of servers) {
        const b = results[s][route.key].sim
        console.log(`| ${route.label} | ${serverLabel(s)} | ${BRANCH_EVENTS.map(([n]) => Math.round(b[n]).toLocaleString('en-US')).join(' | ')} | ` +
          `${Math.round(mispredicted(b)).toLocaleString('en-US')} | ${(mispredicted(b) / mispredicted(results[ref][route.key].sim)).toFixed(3)} |`)
      }
    }
  }
  if (!CACHE) return
  if (cacheConfig !== undefined) console.log(`\n${cacheConfig}`)
  // per request: each simulated miss count, then the estimated cycles and their ratio to the reference
  console.log("\nSimulated caches (valgrind's model of this CPU), per request; est. cycles = Ir + 10 × L1 misses + 100 × LL misses\n")
  console.log(`| route | server | ${MISS_EVENTS.map(([, l]) => l).join(' | ')} | est. cycles | est. cycles / ${serverLabel(ref)} |`)
  console.log(`|---|---|${MISS_EVENTS.map(() => '---:').join('|')}|---:|---:|`)
  for (const route of routes) {
    for (const s of servers) {
      const c = results[s][route.key].sim
      console.log(`| ${route.label} | ${serverLabel(s)} | ${MISS_EVENTS.map(([n]) => Math.round(c[n]).toLocaleString('en-US')).join(' | ')} | ` +
        `${Math.round(c.cycles).toLocaleString('en-US')} | ${(c.cycles / results[ref][route.key].sim.cycles).toFixed(3)} |`)
    }
  }
}

main().catch((err) => { console.error(err); process.exit(1) })
