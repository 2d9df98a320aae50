// What the runtime's own objects cost per request, in-process, on whichever runtime runs this
// (node, bun, deno run -A): the pieces trellis' fetch path uses and Hono's does not, or uses
// differently. Not a timed test; figures are ns per operation, the lowest of 5 rounds, each
// operation in a process of its own (what one leaves for the collector does not slow the next).
//   bun bench/runtimes/costs.mjs; deno run -A bench/runtimes/costs.mjs
//   BENCH_COSTS_N=500000 bun bench/runtimes/costs.mjs      # operations per round
// (run from the repository root after npm run build: trellis' own URL split comes from dist/)
import { AsyncResource } from 'node:async_hooks'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const { splitRequestUrl } = createRequire(join(process.cwd(), 'package.json'))('./dist/lib/transport/fetch-request.js')
const N = Number(process.env.BENCH_COSTS_N ?? 200_000)
const runtime = typeof globalThis.Bun !== 'undefined' ? `bun ${globalThis.Bun.version}` : typeof globalThis.Deno !== 'undefined' ? `deno ${globalThis.Deno.version.deno}` : `node ${process.version}`

if (runtime.startsWith('node')) throw new Error('Bun and Deno only (node keeps every Response made in a loop until the loop yields)')
const only = process.env.BENCH_COSTS_ONLY
let sink = 0
function cost (name, fn) {
  if (only === undefined) { costs.push(name); return }
  if (only !== name) return
  for (let i = 0; i < N / 10; i++) fn()
  let best = Infinity
  for (let round = 0; round < 5; round++) {
    const start = performance.now()
    for (let i = 0; i < N; i++) { if (fn() === sink) sink++ }
    best = Math.min(best, (performance.now() - start) * 1e6 / N)
  }
  console.log(`${name.padEnd(66)} ${best.toFixed(0).padStart(6)} ns`)
}

const costs = []
const small = '{"hello":"world"}'
const type = 'application/json; charset=utf-8'
const request = new Request('http://127.0.0.1:3000/items?x=1', { headers: { host: '127.0.0.1:3000', 'content-type': 'application/json', 'content-length': '25' } })
if (only === undefined) console.log(`${runtime}, ${N} operations per round`)
cost('new Response(string, content-type)', () => new Response(small, { status: 200, headers: { 'content-type': type } }))
cost('new Response(string, content-type in a null-prototype object)', () => { const headers = Object.create(null); headers['content-type'] = type; return new Response(small, { status: 200, headers }) })
cost('new Response(string, content-type + content-length)', () => new Response(small, { status: 200, headers: { 'content-type': type, 'content-length': '17' } }))
cost('Response.json(object)', () => Response.json({ hello: 'world' }))
cost('the Request\'s headers as an object (forEach)', () => { const h = {}; request.headers.forEach((v, k) => { h[k] = v }); return h })
if (typeof request.headers.toJSON === 'function') cost('the Request\'s headers as an object (Bun: toJSON)', () => request.headers.toJSON())
cost('two headers read with get()', () => request.headers.get('content-type') + request.headers.get('content-length'))
cost('the URL split (trellis splitRequestUrl)', () => splitRequestUrl(request.url))
cost('a Promise resolved at once', () => new Promise((resolve) => { resolve(1) }))
cost('an AsyncResource made, entered, destroyed (body parsing)', () => { const r = new AsyncResource('x'); r.runInAsyncScope(noop, null); r.emitDestroy() })
function noop () {}

if (only === undefined) {
  const { execFileSync } = await import('node:child_process')
  const self = process.argv[1]
  const args = typeof globalThis.Deno !== 'undefined' ? ['run', '-A', self] : [self]
  for (const name of costs) {
    process.stdout.write(execFileSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, BENCH_COSTS_ONLY: name } }))
  }
}
