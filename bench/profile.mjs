// Where a server's CPU time per request goes: `node bench/profile.mjs <server> <route> [seconds]`
// (after `npm run build`). Starts one server of bench/servers.mjs (bare, trellis, fastify43, fastify,
// or a tracing server: trellis-otel, fastify429-otel, ...) pinned like `npm run bench`, warms it up,
// loads one route (hello, notFound, nested, post, items) for `seconds` (default 5) with V8's CPU
// profiler on (100 µs sampling, only during that window), and prints the functions with the most self
// time as µs per request (self time ÷ requests answered), the same grouped by where the code lives
// (trellis, trellis/otel, each package, node internals, GC, ...), and the process's CPU µs per request
// over the window. `--save file.cpuprofile` keeps the profile (Chrome DevTools opens it);
// `--top N` prints N functions (default 30); BENCH_NODE=24 profiles under another Node line.
// `--warm-all` first loads every route for 2 s, as `npm run bench` warms a server, so the profile
// shows the route as it runs in a server that serves the others too (shared code sees every shape).
//
//   node bench/profile.mjs trellis hello
//   node bench/profile.mjs bare post 10 --top 50
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROUTES, SERVER_NAMES, TRELLIS_VARIANT_NAMES, OTEL_SERVER_NAMES, OTEL_PART_NAMES } from './servers.mjs'
import { askChild as ask, askCpu, autocannonLoadGen, cpuPlan, hasCommand, killAllStarted, nodeBinary, startChild, stopChild, wrkLoadGen } from './processes.mjs'

const args = process.argv.slice(2)
const option = (name, fallback) => { const i = args.indexOf(name); if (i === -1) return fallback; const v = args[i + 1]; args.splice(i, 2); return v }
const save = option('--save', undefined)
const top = Number(option('--top', 30))
const warmAllAt = args.indexOf('--warm-all')
const warmAll = warmAllAt !== -1
if (warmAll) args.splice(warmAllAt, 1)
const [server, routeKey, secondsArg] = args
const route = ROUTES.find((r) => r.key === routeKey)
const KNOWN = [...SERVER_NAMES, ...TRELLIS_VARIANT_NAMES, ...OTEL_SERVER_NAMES, ...OTEL_PART_NAMES]
if (!KNOWN.includes(server) || route === undefined) {
  console.error(`usage: node bench/profile.mjs <${KNOWN.join('|')}> <${ROUTES.map((r) => r.key).join('|')}> [seconds] [--top N] [--save file]`)
  process.exit(2)
}
const seconds = Number(secondsArg ?? 5)

function where (url) {
  if (url === '') return 'native / V8'
  if (url.includes('/dist/lib/otel')) return 'trellis/otel'
  if (url.includes('/dist/lib/')) return 'trellis'
  if (/\/node_modules\/fastify(43|429)?\//.test(url)) return 'fastify'
  const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
  if (m !== null) return m[1]
  if (url.startsWith('node:')) return url.replace(/^node:internal\//, 'node internal ').replace(/\/.*$/, '')
  if (url.includes('/bench/')) return 'bench (routes, handlers)'
  return url
}

function summarize (profile, requests) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map()
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i + 1] ?? 0
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt)
  }
  const fns = new Map()
  const places = new Map()
  let total = 0
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id)
    if (callFrame.functionName === '(idle)') continue
    total += us
    const file = callFrame.url.replace(/^.*\/(node_modules|dist|bench)\//, '$1/')
    const key = `${callFrame.functionName || '(anonymous)'}  ${file}${callFrame.url === '' ? '' : ':' + (callFrame.lineNumber + 1)}`
    fns.set(key, (fns.get(key) ?? 0) + us)
    const place = callFrame.url === '' && callFrame.functionName.startsWith('(') ? callFrame.functionName : where(callFrame.url)
    places.set(place, (places.get(place) ?? 0) + us)
  }
  const per = (us) => (us / requests).toFixed(2).padStart(7)
  console.log(`\nsampled (not idle): ${per(total)} µs/request over ${requests} requests\n\nby place:`)
  for (const [place, us] of [...places].sort((a, b) => b[1] - a[1])) console.log(`${per(us)} µs  ${(100 * us / total).toFixed(1).padStart(5)} %  ${place}`)
  console.log(`\ntop ${top} functions by self time:`)
  for (const [key, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${per(us)} µs  ${(100 * us / total).toFixed(1).padStart(5)} %  ${key}`)
}

async function main () {
  process.on('exit', killAllStarted)
  const plan = cpuPlan()
  const workdir = mkdtempSync(join(tmpdir(), 'trellis-profile-'))
  const loadGen = process.env.BENCH_LOADGEN !== 'autocannon' && hasCommand('wrk')
    ? wrkLoadGen(plan.client, workdir, 50)
    : autocannonLoadGen(plan.client, 50)
  const { child, port, version } = await startChild(server, nodeBinary(), plan.server)
  const url = `http://127.0.0.1:${port}`
  try {
    if (warmAll) for (const other of ROUTES) await loadGen.load(url, other, 2)
    await loadGen.load(url, route, 2) // warm-up: the optimizing compiler has settled before profiling
    await ask(child, 'profile:start')
    const cpuBefore = await askCpu(child)
    const r = await loadGen.load(url, route, seconds)
    const cpu = (await askCpu(child) - cpuBefore) / r.total
    const { profile } = await ask(child, 'profile:stop')
    console.log(`${server} ${route.method} ${route.path} on node ${version}: ${Math.round(r.rps)} req/s, process CPU ${cpu.toFixed(2)} µs/request (with the profiler on)`)
    summarize(profile, r.total)
    if (save !== undefined) { writeFileSync(save, JSON.stringify(profile)); console.log(`\nsaved ${save}`) }
  } finally {
    await stopChild(child)
    rmSync(workdir, { recursive: true, force: true })
  }
}

main().catch((err) => { console.error(err); killAllStarted(); process.exit(1) })
