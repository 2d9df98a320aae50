// Instructions per request, a figure other load on a busy machine does not disturb: `npm run bench:icount`
// (= npm run build && node bench/icount.mjs). Not part of CI. Needs valgrind (Debian: apt-get install -y valgrind).
//
// Each server of bench/servers.mjs runs under `valgrind --tool=callgrind` (the same child process
// as `npm run bench`, bench/run.mjs --server). A client in this process (keep-alive, 4 connections)
// first warms every route up (BENCH_ICOUNT_WARMUP requests each: V8's optimizing compiler has settled),
// then per route: callgrind's counters are zeroed, BENCH_ICOUNT_REQUESTS requests are answered, and
// the counters are dumped. Reported: instructions executed by the whole server process (every
// thread: the main thread, V8's compiler and GC threads) per request, and ratios. Other load on the
// machine does not change these counts, but when V8's background compiler and GC happen to run does:
// absolute counts of two runs differed by up to 40 %, and same-run ratios of one unchanged route
// by ~4 %. Compare servers measured in the same run, and read differences of a few percent as noise.
// Instructions are not time (a cache miss or a system call costs more than its instruction count),
// so this ranks changes and compares servers; `npm run bench` on a quiet machine gives req/s.
//
// About 2–4 minutes per server (valgrind runs node ~50× slower); servers are measured two at a time.
//
//   BENCH_SERVERS=bare,trellis            servers (default: bare,trellis; baseline with BENCH_BASELINE)
//   BENCH_BASELINE=/other/checkout        that checkout's built trellis as server `baseline`
//   BENCH_ROUTES=hello,post               routes (default: all five)
//   BENCH_ICOUNT_WARMUP=1000              warm-up requests per route
//   BENCH_ICOUNT_REQUESTS=3000            measured requests per route
//   BENCH_NODE=24                         servers on another Node line (as for npm run bench)
import { spawn, execFileSync } from 'node:child_process'
import http from 'node:http'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ROUTES, SERVER_NAMES, serverLabel, BASELINE } from './servers.mjs'
import { hasCommand, nodeBinary } from './processes.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const serverMain = join(root, 'bench', 'run.mjs')

const list = (env, all, fallback = all) => {
  const v = process.env[env]
  if (v === undefined || v === '') return fallback
  const wanted = v.split(',').map((s) => s.trim())
  for (const w of wanted) if (!all.includes(w)) throw new Error(`${env}: unknown ${w} (known: ${all.join(', ')})`)
  return wanted
}
const servers = list('BENCH_SERVERS', SERVER_NAMES, BASELINE !== undefined ? ['bare', 'trellis', 'baseline'] : ['bare', 'trellis'])
const routes = ROUTES.filter((r) => list('BENCH_ROUTES', ROUTES.map((x) => x.key)).includes(r.key))
const WARMUP = Number(process.env.BENCH_ICOUNT_WARMUP ?? 1000)
const REQUESTS = Number(process.env.BENCH_ICOUNT_REQUESTS ?? 3000)

/** Sends `n` requests for `route` over 4 keep-alive connections; rejects on an unexpected status. */
function load (port, route, n) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })
  let sent = 0
  let done = 0
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
      req.on('error', reject)
      req.end(route.body)
    }
    for (let i = 0; i < 4; i++) one()
  }).finally(() => agent.destroy())
}

function callgrindControl (args) {
  execFileSync('callgrind_control', args, { stdio: 'ignore' })
}

/** The total instruction count of the dump whose trigger names `label`. */
function readDump (dir, label) {
  for (const file of readdirSync(dir)) {
    if (!file.startsWith('cg.out')) continue
    const text = readFileSync(join(dir, file), 'utf8')
    if (!new RegExp(`^desc: Trigger: .*\\b${label}\\b`, 'm').test(text)) continue
    const m = /^(?:summary|totals): (\d+)/m.exec(text)
    if (m !== null) return Number(m[1])
  }
  throw new Error(`no callgrind dump for ${label} in ${dir}`)
}

async function measure (name, node) {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-icount-'))
  const child = spawn('valgrind', ['--tool=callgrind', `--callgrind-out-file=${join(dir, 'cg.out')}`, '--dump-instr=no', '--compress-strings=no',
    node, serverMain, '--server', name], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], cwd: dir })
  try {
    const { port, version } = await new Promise((resolve, reject) => {
      child.once('message', resolve)
      child.once('error', reject)
      child.once('exit', (code) => reject(new Error(`${name} exited early (code ${code})`)))
    })
    for (const route of routes) await load(port, route, WARMUP)
    const out = {}
    for (const route of routes) {
      await load(port, route, Math.min(WARMUP, 500))
      callgrindControl(['-z', String(child.pid)])
      await load(port, route, REQUESTS)
      callgrindControl(['-d', `icount-${route.key}`, String(child.pid)])
      out[route.key] = readDump(dir, `icount-${route.key}`) / REQUESTS
      console.log(`${serverLabel(name).padEnd(18)} ${route.key.padEnd(9)} ${Math.round(out[route.key]).toLocaleString('en-US').padStart(9)} instructions/request`)
    }
    return { version, out }
  } finally {
    child.removeAllListeners('exit')
    if (child.exitCode === null) process.kill(child.pid, 'SIGTERM') // only the child started here, by its PID
    await new Promise((resolve) => { if (child.exitCode !== null) resolve(); else child.once('exit', resolve) })
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main () {
  if (!hasCommand('valgrind') || !hasCommand('callgrind_control')) throw new Error('valgrind not found (apt-get install -y valgrind)')
  const node = nodeBinary()
  const started = Date.now()
  const results = {}
  let version = ''
  // two servers at a time: counts do not depend on how busy the machine is, only the wall time does
  for (let i = 0; i < servers.length; i += 2) {
    const batch = servers.slice(i, i + 2)
    const done = await Promise.all(batch.map((s) => measure(s, node)))
    batch.forEach((s, k) => { results[s] = done[k].out; version = done[k].version })
  }
  const ref = servers.includes('bare') ? 'bare' : servers[0]
  console.log(`\nnode ${version}; ${WARMUP} warm-up + ${REQUESTS} measured requests per route; ${Math.round((Date.now() - started) / 1000)} s\n`)
  const ratioNames = servers.filter((s) => s !== ref).map((s) => [s, ref])
  if (ref !== 'trellis' && servers.includes('baseline') && servers.includes('trellis')) ratioNames.push(['trellis', 'baseline'])
  const head = [...servers.map((s) => `${serverLabel(s)}, instructions/request`), ...ratioNames.map(([a, b]) => `${serverLabel(a)} / ${serverLabel(b)}`)]
  console.log(`| route | ${head.join(' | ')} |`)
  console.log(`|---|${head.map(() => '---:').join('|')}|`)
  for (const route of routes) {
    const cells = [...servers.map((s) => Math.round(results[s][route.key]).toLocaleString('en-US')),
      ...ratioNames.map(([a, b]) => (results[a][route.key] / results[b][route.key]).toFixed(3))]
    console.log(`| ${route.label} | ${cells.join(' | ')} |`)
  }
}

main().catch((err) => { console.error(err); process.exit(1) })
