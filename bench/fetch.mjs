// app.fetch on Node, in-process: a Request made here, answered through trellis' fetch transport,
// side by side with Hono's app.fetch (its app *is* a fetch handler) and with trellis' inject, on the
// same machine in one run. Not a timed test: `npm run bench:fetch` (= npm run build && node bench/fetch.mjs).
//
// Per server and route: BENCH_FETCH_WARMUP requests, then BENCH_FETCH_ROUNDS rounds of
// BENCH_FETCH_REQUESTS requests one after another (each awaited, body read); reported is the median
// round in requests per second and CPU microseconds per request (process.cpuUsage, user + system).
// Rounds are interleaved across servers so load on the machine spreads over all of them; the load
// average is printed beside the figures.
//
// Hono comes from bench/fetch/package.json (pinned by its package-lock.json), installed on first use
// into a cache dir outside the repository (BENCH_FETCH_CACHE, default the OS temp dir).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const fixture = join(root, 'bench', 'fetch')
const num = (name, fallback) => Number(process.env[name] ?? fallback)
const WARMUP = num('BENCH_FETCH_WARMUP', 5000)
const REQUESTS = num('BENCH_FETCH_REQUESTS', 5000)
const ROUNDS = num('BENCH_FETCH_ROUNDS', 5)

function installFixture () {
  const lock = readFileSync(join(fixture, 'package-lock.json'))
  const hash = createHash('sha256').update(readFileSync(join(fixture, 'package.json'))).update(lock).digest('hex').slice(0, 12)
  const dir = join(process.env.BENCH_FETCH_CACHE ?? tmpdir(), `trellis-bench-fetch-${hash}`)
  if (!existsSync(join(dir, 'node_modules', 'hono'))) {
    mkdirSync(dir, { recursive: true })
    copyFileSync(join(fixture, 'package.json'), join(dir, 'package.json'))
    copyFileSync(join(fixture, 'package-lock.json'), join(dir, 'package-lock.json'))
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' })
  }
  return createRequire(join(dir, 'package.json'))
}

const requireFixture = installFixture()
const { Hono } = requireFixture('hono')
const trellis = createRequire(import.meta.url)(join(root, 'dist', 'entry', 'index.cjs'))

const helloSchema = { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } }
const itemSchema = {
  body: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, qty: { type: 'integer' } } },
  response: { 200: { type: 'object', properties: { name: { type: 'string' }, qty: { type: 'integer' } } } }
}

const app = trellis()
app.get('/', { schema: helloSchema }, async () => ({ hello: 'world' }))
app.post('/items', { schema: itemSchema }, async (req) => req.body)
await app.ready()

const hono = new Hono()
hono.get('/', (c) => c.json({ hello: 'world' }))
hono.post('/items', async (c) => c.json(await c.req.json()))

const itemBody = JSON.stringify({ name: 'pen', qty: 2 })
const ROUTES = {
  hello: { make: () => new Request('http://localhost/'), inject: { url: '/' } },
  post: {
    make: () => new Request('http://localhost/items', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(itemBody.length) }, body: itemBody }),
    inject: { method: 'POST', url: '/items', headers: { 'content-type': 'application/json' }, payload: itemBody }
  }
}

const SERVERS = {
  'trellis app.fetch': async (route) => { const res = await app.fetch(route.make()); await res.text(); return res.status },
  'hono app.fetch': async (route) => { const res = await hono.fetch(route.make()); await res.text(); return res.status },
  'trellis inject': async (route) => (await app.inject(route.inject)).statusCode
}

async function round (send, route, n) {
  const cpu = process.cpuUsage()
  const start = process.hrtime.bigint()
  for (let i = 0; i < n; i++) {
    const status = await send(route)
    if (status !== 200) throw new Error(`status ${status}`)
  }
  const ns = Number(process.hrtime.bigint() - start)
  const used = process.cpuUsage(cpu)
  return { rps: n / (ns / 1e9), cpuUs: (used.user + used.system) / n }
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] }
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ')

console.log(`node ${process.version}, ${WARMUP} warm-up + ${ROUNDS} rounds of ${REQUESTS} requests; load average before: ${load()}`)
for (const [routeName, route] of Object.entries(ROUTES)) {
  for (const send of Object.values(SERVERS)) await round(send, route, WARMUP)
  const results = Object.fromEntries(Object.keys(SERVERS).map((name) => [name, []]))
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, send] of Object.entries(SERVERS)) results[name].push(await round(send, route, REQUESTS))
  }
  const base = median(results['hono app.fetch'].map((x) => x.rps))
  for (const [name, rounds] of Object.entries(results)) {
    const rps = median(rounds.map((x) => x.rps))
    const cpu = median(rounds.map((x) => x.cpuUs))
    console.log(`${routeName.padEnd(6)} ${name.padEnd(18)} ${(rps / 1000).toFixed(1).padStart(6)} k req/s  ${cpu.toFixed(1).padStart(6)} µs CPU/req  (${(rps / base).toFixed(2)}× hono)`)
  }
}
console.log(`load average after: ${load()}`)
await app.close()
