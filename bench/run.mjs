// Whole-server benchmark: `npm run bench` (= npm run build && node bench/run.mjs). Not part of CI.
//
// Five routes (bench/servers.mjs: hello with a response schema, a 404, a route 5 plugin levels deep
// with an onRequest hook + request decorator per level, a validated POST with a 25-field response, 100
// items × 8 fields) on four servers: a bare node:http server doing the same work by hand (Ajv +
// JSON.stringify), trellis (dist), Fastify 4.3.0 (devDependency alias `fastify43`) and Fastify 5.
//
// How it measures:
// - each server runs in its own process, pinned with `taskset` to the last core; the load generator
//   runs in its own process pinned to core 0 (without taskset, or on one core, nothing is pinned);
// - load generator: `wrk` (Debian: apt-get install -y wrk), 1 thread; if wrk is missing, autocannon's
//   CLI in its own process (BENCH_LOADGEN=autocannon forces it);
// - every server and route is checked first (status and body; the bodies must agree across servers),
//   then warmed up (BENCH_WARMUP s per route, discarded);
// - then BENCH_ROUNDS rounds: in each round every route is loaded on every server for BENCH_DURATION s,
//   servers taking turns (the order rotates each round);
// - every round starts fresh server processes, in a rotated order, each warmed up again: on Node 20
//   on this machine two processes of the same code differ by up to 1.3x in req/s for their whole
//   life (docs/benchmarks.md, "Whole server"), so with one process per server a ratio is a draw
//   (BENCH_RESTART=0: one process per server for the whole run);
// - per measurement: req/s, latency p50/p99, and the server's CPU time (user + system, read from the
//   server process itself) divided by the requests answered = CPU µs/request, the figure least
//   disturbed by other load on the machine; the same for user and system time apart, minor page
//   faults and context switches (process.resourceUsage()), so a gap in CPU can be placed in the
//   server's own code (user) or in the kernel on its behalf (system: socket I/O, page faults);
// - reported: medians over the rounds, and ratios trellis/other as the median of per-round ratios
//   (req/s ratio: > 1 means trellis is faster; CPU ratio = other's µs/req ÷ trellis's: > 1 means
//   trellis spends less CPU per request).
// Results: the tables are printed, and written with the run's command, machine, Node version and
// date to bench/results/whole-server-node<major>-<UTC date and time>.md, every round's figures to
// the .json beside it (bench/results.mjs; gitignored). Nothing is written into docs/.
// `node bench/pool-rounds.mjs bench/results/whole-server-node20-*.json` pools the rounds of several runs.
//
// Defaults take about 5 minutes (4 servers × 5 routes × 3 rounds × (1 s warm-up + 3 s)); the
// figures in docs/benchmarks.md use BENCH_WARMUP=2 BENCH_ROUNDS=7 (about 12 minutes).
//
// Env knobs:
//   BENCH_DURATION=3        seconds per measurement
//   BENCH_ROUNDS=3          interleaved rounds (the median is reported)
//   BENCH_WARMUP=1          seconds of warm-up per server and route, each round (0: none)
//   BENCH_RESTART=0         one process per server for the whole run (warm-up once) instead of fresh ones each round
//   BENCH_CONNECTIONS=50    concurrent connections
//   BENCH_NODE=24           run the servers under another Node line (scripts/node-line.mjs installs it
//                           into ~/.cache); a path to a node binary works too. Default: this node.
//   BENCH_SERVERS=bare,trellis          a subset of servers (bare, trellis, fastify43, fastify), or the
//                                       tracing servers trellis-otel, fastify429-otel, fastify429 and the
//                                       servers that split trellis/otel's cost, or trellis-v5 (the
//                                       Fastify 5 line of the same build; bench/servers.mjs)
//   BENCH_SUBJECT=trellis-otel          the server of the ratio table (default trellis)
//   BENCH_BASELINE=/other/checkout      adds that checkout's built trellis as server `baseline` (a change
//                                       measured against the code before it, in the same rounds)
//   BENCH_ROUTES=hello,post             a subset of routes (hello, notFound, nested, post, items)
//   BENCH_LOADGEN=autocannon            use autocannon even when wrk is installed
//   BENCH_NODE_FLAGS='--max-semi-space-size=1'   V8/Node flags for every server process (what-if runs)
//   BENCH_NOTE="quiet machine"          a note written next to the run's load average
//   BENCH_RESULTS_DIR=/some/dir         where the results files go (default bench/results)
//   (BENCH_NO_WRITE is gone: no run writes into docs/, and a results file is always written.)
//
//   node bench/run.mjs --server trellis   (internal: one server process, used by the parent)
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ROUTES, SERVER_NAMES, OTEL_SERVER_NAMES, OTEL_PART_NAMES, TRELLIS_VARIANT_NAMES, serverLabel, startServer, POST_BAD_BODY } from './servers.mjs'
import { median } from './stats.mjs'
import { machine, writeResults } from './results.mjs'
import { askUsage, autocannonLoadGen, cpuPlan, hasCommand, killAllStarted, nodeBinary, startChild, stopChild, usagePerRequest, wrkLoadGen } from './processes.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

// ------------------------------------------------------------------ child: one server
async function runChild (name) {
  const port = await startServer(name)
  process.send({ port, version: process.version })
  // the parent asks for this process's counters around each measurement (CPU µs, user and system, page faults, context switches)
  process.on('message', (msg) => {
    if (msg === 'cpu') {
      const u = process.resourceUsage()
      process.send({ cpu: u.userCPUTime + u.systemCPUTime, user: u.userCPUTime, system: u.systemCPUTime, minflt: u.minorPageFault, vcsw: u.voluntaryContextSwitches, ivcsw: u.involuntaryContextSwitches })
    }
    // bench/icount.mjs with BENCH_ICOUNT_KEEP: a line in the server's output between measured windows (beside --trace-gc etc.)
    if (msg !== null && typeof msg === 'object' && typeof msg.mark === 'string') console.log(`=== ${msg.mark}`)
    if (msg === 'profile:start' || msg === 'profile:stop' || msg === 'heap:start' || msg === 'heap:stop') profileCommand(msg).then((reply) => process.send(reply), (err) => process.send({ error: String(err) }))
  })
  process.on('disconnect', () => process.exit(0))
}

/**
 * V8's profilers around the measured window only (not startup or warm-up): the CPU profiler for
 * bench/profile.mjs ('profile:…'), the sampling heap profiler for bench/alloc.mjs ('heap:…', every
 * allocation sampled, including objects the garbage collector has already freed).
 */
let inspectorSession = null
async function profileCommand (msg) {
  const { Session } = await import('node:inspector')
  const post = (method, params) => new Promise((resolve, reject) => inspectorSession.post(method, params, (err, res) => err ? reject(err) : resolve(res)))
  if (msg === 'profile:start' || msg === 'heap:start') {
    inspectorSession = new Session()
    inspectorSession.connect()
    if (msg === 'heap:start') {
      await post('HeapProfiler.enable')
      await post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
    } else {
      await post('Profiler.enable')
      await post('Profiler.setSamplingInterval', { interval: 100 })
      await post('Profiler.start')
    }
    return { started: true }
  }
  const { profile } = await post(msg === 'heap:stop' ? 'HeapProfiler.stopSampling' : 'Profiler.stop')
  inspectorSession.disconnect()
  return { profile }
}

// ------------------------------------------------------------------ parent
const num = (name, fallback, min) => {
  const v = Number(process.env[name] ?? fallback)
  if (!Number.isFinite(v) || v < min) throw new Error(`${name} must be a number >= ${min}`)
  return v
}
const DURATION = num('BENCH_DURATION', 3, 1)
const ROUNDS = Math.floor(num('BENCH_ROUNDS', 3, 1))
const WARMUP = num('BENCH_WARMUP', 1, 0)
const CONNECTIONS = Math.floor(num('BENCH_CONNECTIONS', 50, 1))
const RESTART = process.env.BENCH_RESTART !== '0'
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter((f) => f !== '')
const pick = (env, all, known = all) => {
  if (process.env[env] === undefined || process.env[env] === '') return all
  const wanted = process.env[env].split(',').map((s) => s.trim())
  for (const w of wanted) if (!known.includes(w)) throw new Error(`${env}: unknown ${w} (known: ${known.join(', ')})`)
  return [...new Set(wanted)]
}
// in the order named: servers start in that order (rotated each round when restarting)
const servers = pick('BENCH_SERVERS', SERVER_NAMES, [...SERVER_NAMES, ...TRELLIS_VARIANT_NAMES, ...OTEL_SERVER_NAMES, ...OTEL_PART_NAMES])
// BENCH_SUBJECT: the server the ratio table is about (default trellis), e.g. trellis-otel
const SUBJECT = process.env.BENCH_SUBJECT || 'trellis'
if (!servers.includes(SUBJECT) && process.env.BENCH_SUBJECT) throw new Error(`BENCH_SUBJECT ${SUBJECT} is not in BENCH_SERVERS`)
const routes = pick('BENCH_ROUTES', ROUTES.map((x) => x.key)).map((key) => ROUTES.find((r) => r.key === key))

// ------------------------------------------------------------------ checks before measuring
async function fetchRoute (url, route, body = route.body) {
  const res = await fetch(url + route.path, { method: route.method, body, headers: body !== undefined ? { 'content-type': 'application/json' } : {} })
  return { status: res.status, text: await res.text() }
}

async function checkServer (name, url, outputs) {
  for (const route of routes) {
    const { status, text } = await fetchRoute(url, route)
    if (status !== route.status) throw new Error(`${name} ${route.method} ${route.path}: status ${status} (expected ${route.status}): ${text}`)
    ;(outputs[route.key] ??= {})[name] = JSON.parse(text)
    if (route.body !== undefined) {
      const bad = await fetchRoute(url, route, POST_BAD_BODY)
      if (bad.status !== 400) throw new Error(`${name} ${route.path} with an invalid body: status ${bad.status} (expected 400)`)
    }
  }
}

// ------------------------------------------------------------------ report
const fmt = (n, digits = 0) => Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '–'

function report (samples, meta) {
  const others = servers.filter((s) => s !== SUBJECT)
  const lines = []
  if (servers.includes(SUBJECT) && others.length > 0) {
    lines.push('| route | ' + others.map((o) => `${serverLabel(SUBJECT)} / ${serverLabel(o)}: req/s | CPU`).join(' | ') + ' |')
    lines.push('|---|' + others.map(() => '---:|---:').join('|') + '|')
    for (const route of routes) {
      const t = samples[SUBJECT][route.key]
      const cells = others.map((o) => {
        const s = samples[o][route.key]
        const rps = median(t.map((x, i) => x.rps / s[i].rps))
        const cpu = median(t.map((x, i) => s[i].cpu / x.cpu))
        return `${rps.toFixed(2)} | ${cpu.toFixed(2)}`
      })
      lines.push(`| ${route.label} | ${cells.join(' | ')} |`)
    }
    lines.push('')
    lines.push('req/s: median over the rounds of trellis\'s req/s ÷ the other server\'s in the same round (> 1: trellis faster). ' +
      'CPU: the other server\'s CPU µs/request ÷ trellis\'s (> 1: trellis spends less CPU per request).')
    lines.push('')
  }
  lines.push('| route | server | req/s (median) | rounds | CPU µs/req (median) | p50 ms | p99 ms | errors |')
  lines.push('|---|---|---:|---|---:|---:|---:|---:|')
  for (const route of routes) {
    for (const s of servers) {
      const xs = samples[s][route.key]
      const bad = xs.reduce((a, x) => a + x.errors + (route.status === 200 ? x.non2xx : 0), 0)
      lines.push(`| ${route.label} | ${serverLabel(s)} | ${fmt(median(xs.map((x) => x.rps)))} | ${xs.map((x) => fmt(x.rps)).join(' / ')} | ${fmt(median(xs.map((x) => x.cpu)), 1)} | ${fmt(median(xs.map((x) => x.p50)), 2)} | ${fmt(median(xs.map((x) => x.p99)), 2)} | ${bad} |`)
    }
  }
  lines.push('')
  lines.push('Where each server\'s CPU goes (medians over the rounds, per request; faults and context switches per 1,000 requests):')
  lines.push('')
  lines.push('| route | server | user µs | system µs | minor page faults | voluntary ctx switches | involuntary ctx switches |')
  lines.push('|---|---|---:|---:|---:|---:|---:|')
  for (const route of routes) {
    for (const s of servers) {
      const xs = samples[s][route.key].map((x) => x.usage)
      const per = (key, scale, digits) => fmt(median(xs.map((u) => u[key] * scale)), digits)
      lines.push(`| ${route.label} | ${serverLabel(s)} | ${per('user', 1, 1)} | ${per('system', 1, 1)} | ${per('minflt', 1000, 1)} | ${per('vcsw', 1000, 1)} | ${per('ivcsw', 1000, 1)} |`)
    }
  }
  const table = lines.join('\n')
  const markdown = [
    `# Whole server, Node ${meta.nodeMajor}`,
    '',
    `Command: \`${meta.command}\` (bench/run.mjs; how it measures is described at the top of that file).`,
    `Servers in their own processes${meta.pinned ? ` pinned to core ${meta.serverCpu}, load generator pinned to core ${meta.clientCpu}` : ' (not pinned)'}; ` +
      `load generator: ${meta.loadGen}; ${CONNECTIONS} connections; ` +
      (RESTART ? `${ROUNDS} interleaved rounds of ${DURATION} s, each with fresh server processes started in a rotated order and warmed up ${WARMUP} s per route; loggers off.` : `${WARMUP} s warm-up per server and route, then ${ROUNDS} interleaved rounds of ${DURATION} s (one process per server); loggers off.`) +
      (NODE_FLAGS.length > 0 ? ` Server node flags: ${NODE_FLAGS.join(' ')}.` : ''),
    '',
    `Run: ${meta.started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${Math.round(meta.elapsed)} s; ${meta.machine.text}; ` +
      `servers on node ${meta.serverNode}, load average before/after ${meta.loadBefore.map((x) => x.toFixed(2)).join(' ')} / ${meta.loadAfter.map((x) => x.toFixed(2)).join(' ')}` +
      (process.env.BENCH_NOTE ? ` — ${process.env.BENCH_NOTE}` : '') + '.',
    '',
    table,
    ''
  ].join('\n')
  return { markdown, table }
}

/** The command that reproduces this run: the BENCH_* variables set, then the script. */
function commandLine () {
  const quote = (v) => /^[\w@%+=:,./-]*$/.test(v) ? v : `'${v.replace(/'/g, "'\\''")}'`
  const skip = new Set(['BENCH_NOTE', 'BENCH_NO_WRITE', 'BENCH_RESULTS_DIR'])
  const env = Object.keys(process.env).filter((k) => k.startsWith('BENCH_') && !skip.has(k) && process.env[k] !== '').sort()
    .map((k) => `${k}=${quote(process.env[k])}`)
  return [...env, process.env.npm_lifecycle_event === 'bench' ? 'npm run bench' : 'node bench/run.mjs'].join(' ')
}

async function runParent () {
  process.on('SIGINT', () => { killAllStarted(); process.exit(130) })
  process.on('SIGTERM', () => { killAllStarted(); process.exit(143) })
  process.on('exit', killAllStarted)
  if (process.env.BENCH_NO_WRITE !== undefined) console.log('BENCH_NO_WRITE is gone: nothing is written into docs/; the results go to bench/results/')
  if (!existsSync(join(root, 'dist', 'entry', 'index.cjs')) && servers.includes('trellis')) throw new Error('dist/ missing: run `npm run build` (npm run bench does)')

  const node = nodeBinary()
  const plan = cpuPlan()
  const workdir = mkdtempSync(join(tmpdir(), 'trellis-bench-'))
  const useWrk = process.env.BENCH_LOADGEN !== 'autocannon' && hasCommand('wrk')
  if (!useWrk && process.env.BENCH_LOADGEN !== 'autocannon') console.warn('wrk not found (apt-get install -y wrk): using autocannon in its own process')
  const loadGen = useWrk ? wrkLoadGen(plan.client, workdir, CONNECTIONS) : autocannonLoadGen(plan.client, CONNECTIONS)
  const started = new Date()
  const loadBefore = loadavg()
  const estimate = servers.length * routes.length * ((RESTART ? ROUNDS : 1) * WARMUP + ROUNDS * DURATION) + (RESTART ? ROUNDS * servers.length : 0) + 10
  console.log(`servers: ${servers.join(', ')}; routes: ${routes.map((r) => r.key).join(', ')}; load: ${loadGen.name}; ` +
    `${plan.server === null ? 'not pinned' : `server cpu ${plan.server}, client cpu ${plan.client}`}; about ${Math.round(estimate)} s`)

  const samples = Object.fromEntries(servers.map((name) => [name, {}]))
  let running = []
  let serverNode = ''
  /** Starts every server, first to last in `order`; checks their answers (first time) and warms them up. */
  const startAll = async (order, check) => {
    running = []
    for (const name of order) {
      const { child, port, version } = await startChild(name, node, plan.server, NODE_FLAGS)
      serverNode = version
      running.push({ name, child, url: `http://127.0.0.1:${port}` })
    }
    if (check) {
      const outputs = {}
      for (const { name, url } of running) await checkServer(name, url, outputs)
      for (const [key, bodies] of Object.entries(outputs)) {
        if (key === 'notFound') continue // each server words its 404 body its own way
        const distinct = new Set(Object.values(bodies).map((b) => JSON.stringify(b)))
        if (distinct.size !== 1) throw new Error(`servers answered ${key} differently: ${[...distinct].join(' | ')}`)
      }
    }
    if (WARMUP > 0) {
      for (const { url } of running) for (const route of routes) await loadGen.load(url, route, WARMUP)
    }
  }
  const rotated = (list, k) => list.map((_, i) => list[(i + k) % list.length])
  try {
    if (!RESTART) await startAll(servers, true)
    for (let round = 0; round < ROUNDS; round++) {
      if (RESTART) {
        // fresh processes each round, started in a rotated order (why: the header above)
        for (const { child } of running) await stopChild(child)
        await startAll(rotated(servers, round), round === 0)
      }
      for (const route of routes) {
        const order = rotated(servers, round).map((name) => running.find((r) => r.name === name))
        for (const { name, url, child } of order) {
          const before = await askUsage(child)
          const r = await loadGen.load(url, route, DURATION)
          const usage = usagePerRequest(before, await askUsage(child), r.total)
          const cpu = usage.cpu
          ;(samples[name][route.key] ??= []).push({ ...r, cpu, usage })
          console.log(`round ${round + 1}/${ROUNDS}  ${route.key.padEnd(8)} ${serverLabel(name).padEnd(16)} ${fmt(r.rps).padStart(7)} req/s  ${fmt(cpu, 1).padStart(5)} µs/req  p50 ${fmt(r.p50, 2)} ms  p99 ${fmt(r.p99, 2)} ms` +
            (r.errors > 0 ? `  errors ${r.errors}` : '') + (route.status === 200 && r.non2xx > 0 ? `  non-2xx ${r.non2xx}` : ''))
        }
      }
    }
  } finally {
    for (const { child } of running) await stopChild(child)
    rmSync(workdir, { recursive: true, force: true })
  }

  const nodeMajor = serverNode.replace(/^v/, '').split('.')[0]
  const meta = {
    nodeMajor,
    serverNode,
    command: commandLine(),
    pinned: plan.server !== null,
    serverCpu: plan.server,
    clientCpu: plan.client,
    loadGen: loadGen.name,
    started,
    elapsed: (Date.now() - started.getTime()) / 1000,
    machine: machine(),
    loadBefore,
    loadAfter: loadavg()
  }
  const { markdown, table } = report(samples, meta)
  console.log('\n' + table)
  writeResults({
    name: 'whole-server',
    nodeVersion: serverNode,
    started,
    markdown,
    data: {
      benchmark: 'whole-server',
      command: meta.command,
      started: started.toISOString(),
      elapsedSeconds: Math.round(meta.elapsed),
      machine: { nproc: meta.machine.nproc, cpu: meta.machine.cpu, memGiB: meta.machine.memGiB },
      serverNode,
      loadGenerator: loadGen.name,
      pinned: meta.pinned ? { server: plan.server, client: plan.client } : null,
      settings: { duration: DURATION, rounds: ROUNDS, warmup: WARMUP, restart: RESTART, connections: CONNECTIONS, nodeFlags: NODE_FLAGS },
      loadBefore,
      loadAfter: meta.loadAfter,
      note: process.env.BENCH_NOTE ?? null,
      servers: servers.map((key) => ({ key, label: serverLabel(key) })),
      routes: routes.map((r) => ({ key: r.key, label: r.label })),
      // server key -> route key -> one entry per round, in round order
      samples
    }
  })
}

// ------------------------------------------------------------------ entry
const serverArg = process.argv.indexOf('--server')
if (serverArg !== -1) {
  runChild(process.argv[serverArg + 1]).catch((err) => { console.error(err); process.exit(1) })
} else {
  runParent().catch((err) => { console.error(err); killAllStarted(); process.exit(1) })
}
