// npm run bench:runtimes — trellis served natively on Bun (Bun.serve) and Deno (Deno.serve) beside
// Hono on Bun.serve and Deno.serve, Elysia on Bun, the runtimes' own servers returning
// Response.json, and trellis on Node for the ratio; one run, side by side. A benchmark, not a test.
//
// Each server (bench/runtimes/server.mjs) runs alone, pinned to CPU 1 when taskset exists; the
// load generator (wrk when installed — `apt-get install wrk` —, else autocannon) on CPU 0, 50
// connections to 127.0.0.1, per route 1 s of warm-up then BENCH_SECONDS (default 3) measured.
// Besides req/s it reports the server's CPU time per request (utime + stime from /proc, all its
// threads), which a busy machine disturbs less than req/s. The bun and deno binaries, hono and
// elysia come from test/runtimes (installed on first use into a cache outside the repository).
//
//   npm run bench:runtimes                       # builds dist/ first
//   BENCH_SECONDS=10 node bench/runtimes.mjs     # longer rounds
//   BENCH_ONLY=bun node bench/runtimes.mjs       # servers whose label contains 'bun'
//   BENCH_BASELINE=/other/checkout               # also that checkout's built trellis on Bun.serve / Deno.serve
//   BENCH_ROUNDS=2                               # rounds, interleaved (every server once per round); the
//                                                # table gives the median round, each round's CPU is printed
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { runtimeBinary } from '../test/runtimes/install.mjs'

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..')
const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const connections = 50
if (!existsSync(join(root, 'dist', 'entry', 'index.cjs'))) throw new Error('dist/ is missing: npm run build')

const has = (bin) => { try { execFileSync('which', [bin], { stdio: 'ignore' }); return true } catch { return false } }
const useWrk = has('wrk')
const pin = has('taskset')
const bun = runtimeBinary('bun')
const deno = runtimeBinary('deno')
const deps = bun.dir ?? deno.dir

const SERVERS = [
  { label: 'trellis on Node (node:http)', bin: process.execPath, args: [], kind: 'trellis', ref: true },
  { label: 'trellis on Bun (Bun.serve)', bin: bun.bin, args: [], kind: 'trellis' },
  { label: "trellis on Bun (Bun's node:http)", bin: bun.bin, args: [], kind: 'trellis', env: { BENCH_RUNTIME_SERVER: 'node' } },
  { label: 'Hono on Bun.serve', bin: bun.bin, args: [], kind: 'hono' },
  { label: 'Elysia on Bun', bin: bun.bin, args: [], kind: 'elysia' },
  { label: 'Bun.serve, Response.json', bin: bun.bin, args: [], kind: 'bare' },
  { label: 'trellis on Deno (Deno.serve)', bin: deno.bin, args: ['run', '-A'], kind: 'trellis' },
  { label: "trellis on Deno (Deno's node:http)", bin: deno.bin, args: ['run', '-A'], kind: 'trellis', env: { BENCH_RUNTIME_SERVER: 'node' } },
  { label: 'Hono on Deno.serve', bin: deno.bin, args: ['run', '-A'], kind: 'hono' },
  { label: 'Deno.serve, Response.json', bin: deno.bin, args: ['run', '-A'], kind: 'bare' },
  ...(process.env.BENCH_BASELINE === undefined
    ? []
    : [
        { label: 'trellis on Bun (Bun.serve), baseline', bin: bun.bin, args: [], kind: 'trellis', cwd: process.env.BENCH_BASELINE },
        { label: 'trellis on Deno (Deno.serve), baseline', bin: deno.bin, args: ['run', '-A'], kind: 'trellis', cwd: process.env.BENCH_BASELINE }
      ])
].filter((s) => process.env.BENCH_ONLY === undefined || s.label.toLowerCase().includes(process.env.BENCH_ONLY.toLowerCase()))

const ROUTES = [
  { name: 'GET / {hello}', method: 'GET', path: '/' },
  { name: 'POST /items (validated)', method: 'POST', path: '/items', body: '{"name":"widget","qty":3}' },
  { name: 'GET /items (100 items)', method: 'GET', path: '/items' }
]

const work = mkdtempSync(join(tmpdir(), 'trellis-bench-runtimes-'))
const postLua = join(work, 'post.lua')
writeFileSync(postLua, `wrk.method = "POST"\nwrk.body = '${ROUTES[1].body}'\nwrk.headers["content-type"] = "application/json"\n`)

function cpuTicks (pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch { return NaN }
}
const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())

function load (port, route, duration) {
  const url = `http://127.0.0.1:${port}${route.path}`
  if (useWrk) {
    const args = ['-t1', `-c${connections}`, `-d${duration}s`, '--latency']
    if (route.method === 'POST') args.push('-s', postLua)
    const cmd = pin ? ['taskset', ['-c', '0', 'wrk', ...args, url]] : ['wrk', [...args, url]]
    const out = execFileSync(cmd[0], cmd[1], { encoding: 'utf8' })
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
    const requests = Number(/(\d+) requests in/.exec(out)?.[1])
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
    return { rps, requests, errors: non2xx }
  }
  const out = execFileSync(process.execPath, [join(root, 'node_modules', 'autocannon', 'autocannon.js'), '-j', '-c', String(connections), '-d', String(duration),
    ...(route.method === 'POST' ? ['-m', 'POST', '-H', 'content-type=application/json', '-b', route.body] : []), url], { encoding: 'utf8', maxBuffer: 1 << 26 })
  const r = JSON.parse(out)
  return { rps: r.requests.average, requests: r.requests.total, errors: r.non2xx + r.errors }
}

async function start (server) {
  const cmd = pin ? 'taskset' : server.bin
  // a baseline runs this server script with its own dist/ (the script's working directory)
  const args = [...(pin ? ['-c', '1', server.bin] : []), ...server.args, join(root, 'bench', 'runtimes', 'server.mjs')]
  const child = spawn(cmd, args, { cwd: server.cwd ?? root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...server.env, BENCH_KIND: server.kind, BENCH_DEPS: deps, NO_COLOR: '1' } })
  let out = ''
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${server.label}: no READY in 30 s\n${out}`)), 30_000)
    child.stdout.on('data', (c) => { out += c; const m = /READY (\d+)/.exec(out); if (m) { clearTimeout(timer); resolve(Number(m[1])) } })
    child.stderr.on('data', (c) => { out += c })
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${server.label} exited ${code}\n${out}`)) })
  })
  child.removeAllListeners('exit')
  // taskset execs the runtime: the pid is the server's
  return { child, port }
}

async function check (port) {
  for (const route of ROUTES) {
    const res = await fetch(`http://127.0.0.1:${port}${route.path}`, { method: route.method, body: route.body, headers: route.body ? { 'content-type': 'application/json' } : {} })
    const body = await res.json()
    if (res.status !== 200) throw new Error(`${route.name}: ${res.status}`)
    if (route.path === '/items' && route.method === 'GET' && body.length !== 100) throw new Error('100 items expected')
  }
}

const fmt = (n) => n >= 1000 ? `${(n / 1000).toFixed(1)} k` : n.toFixed(0)
const loadBefore = loadavg()
console.log(`bench:runtimes — ${new Date().toISOString()}, node ${process.version}, bun ${bun.version ?? `(none: ${bun.reason})`}, ${deno.version ?? `deno (none: ${deno.reason})`}`)
console.log(`load generator: ${useWrk ? 'wrk' : 'autocannon'}, ${connections} connections, ${seconds} s per route after 1 s warm-up${pin ? ', server on CPU 1, load on CPU 0' : ''}`)
console.log(`load average before: ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`)

const rounds = Number(process.env.BENCH_ROUNDS ?? 1)
const perRound = new Map()
for (let round = 1; round <= rounds; round++) {
  for (const server of SERVERS) {
    if (server.bin === undefined) { if (round === 1) console.log(`skipped ${server.label}: ${server.bin === bun.bin ? bun.reason : deno.reason}`); continue }
    const { child, port } = await start(server)
    try {
      await check(port)
      const row = { label: server.label, ref: server.ref === true, routes: [] }
      for (const route of ROUTES) {
        load(port, route, 1)
        const before = cpuTicks(child.pid)
        const r = load(port, route, seconds)
        const cpu = (cpuTicks(child.pid) - before) * TICK_US
        row.routes.push({ ...r, cpuPerRequest: cpu / r.requests })
      }
      if (!perRound.has(server.label)) perRound.set(server.label, [])
      perRound.get(server.label).push(row)
      console.log(`${rounds > 1 ? `round ${round}, ` : ''}${server.label}: ${row.routes.map((r, i) => `${ROUTES[i].name} ${fmt(r.rps)} req/s, ${r.cpuPerRequest.toFixed(1)} µs CPU/req${r.errors ? ` (${r.errors} non-2xx)` : ''}`).join('; ')}`)
    } finally {
      child.kill('SIGKILL')
    }
  }
}
// per server and route, the round with the median CPU per request (the lower of two)
const results = [...perRound.values()].map((rows) => ({
  label: rows[0].label,
  ref: rows[0].ref,
  routes: ROUTES.map((_, i) => rows.map((row) => row.routes[i]).sort((a, b) => a.cpuPerRequest - b.cpuPerRequest)[(rows.length - 1) >> 1])
}))

const ref = results.find((r) => r.ref)
console.log(`\nload average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`)
console.log(`| server | ${ROUTES.map((r) => `${r.name}: req/s (× trellis on Node) · µs CPU/req`).join(' | ')} |`)
console.log(`|---|${ROUTES.map(() => '---:').join('|')}|`)
for (const row of results) {
  console.log(`| ${row.label} | ${row.routes.map((r, i) => `${fmt(r.rps)} (${ref ? (r.rps / ref.routes[i].rps).toFixed(2) : '–'}) · ${r.cpuPerRequest.toFixed(1)}`).join(' | ')} |`)
}
