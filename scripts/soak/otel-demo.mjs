// npm run soak:otel: the demo (examples/demo.mjs, unchanged) with trellis/otel on and an SDK sampling
// every request (scripts/soak/otel-preload.cjs), under a bounded keep-alive load on 127.0.0.1 over
// the demo's routes, for SOAK_SECONDS (default 600). Every 5 s it reads the server's RSS and live heap
// right after a full GC (the same treatment for every sample: what the process holds, not how far
// V8 let garbage grow since the last collection), and compares the mean RSS of the last third of the
// samples with the first third (after SOAK_WARMUP seconds, default 60, that are not counted: V8
// compiling, pools filling), and counts errors: any answer other than the route's expected status,
// any client error, a server crash. Exit 0 when there are no errors and the last third is within 5 %
// of the first. Not part of `npm test`; the last report is in docs/security.md (#soak).
//   SOAK_SECONDS=600  SOAK_WARMUP=60  SOAK_CONCURRENCY=8 (keep-alive clients)
import { fork } from 'node:child_process'
import http from 'node:http'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { drive, sendOne } from './load.mjs'

const seconds = Number(process.env.SOAK_SECONDS ?? 600)
const warmup = Number(process.env.SOAK_WARMUP ?? 60)
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 8)
const KEY = 'soak-otel-key'
const demo = fileURLToPath(new URL('../../examples/demo.mjs', import.meta.url))
const preload = fileURLToPath(new URL('./otel-preload.cjs', import.meta.url))

const server = fork(demo, { execArgv: ['--expose-gc', '--require', preload], env: { ...process.env, PORT: '0', HOST: '127.0.0.1', API_KEY: KEY }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
let crashed = null
const pending = []
server.on('message', (m) => {
  if (m.type === 'crash') { crashed = m.message; return }
  pending.shift()?.(m)
})
server.on('exit', (code, signal) => { if (!stopping) crashed = crashed ?? `server exited (${code ?? signal})` })
let stopping = false
// every sample is taken right after a full GC (node --expose-gc in the server)
const stats = () => new Promise((resolve) => { pending.push(resolve); server.send('stats-gc') })

const port = await new Promise((resolve, reject) => {
  let out = ''
  server.stdout.on('data', (chunk) => {
    out += chunk
    const found = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)
    if (found) resolve(Number(found[1]))
  })
  server.on('exit', () => reject(new Error(`the demo exited before listening: ${out}`)))
})

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
const json = { 'content-type': 'application/json' }
// [name, request options, body, expected status]: the demo's routes, its errors included
const mix = [
  ['A: no key', { path: '/one' }, null, 401],
  ['A: key', { path: '/one', headers: { authorization: `Bearer ${KEY}` } }, null, 200],
  ['A: wrong key', { path: '/one', headers: { authorization: 'Bearer nope' } }, null, 401],
  ['B', { path: '/two' }, null, 200],
  ['C', { path: '/three' }, null, 200],
  ['create item', { path: '/items', method: 'POST', headers: json }, '{"name":"soak","price":"9.5","quantity":2}', 201],
  ['invalid item', { path: '/items', method: 'POST', headers: json }, '{"name":""}', 400],
  ['bad JSON', { path: '/items', method: 'POST', headers: json }, '{"name":', 400],
  ['user', { path: '/users/1' }, null, 200],
  ['no such user', { path: '/users/2' }, null, 404],
  ['bad user id', { path: '/users/abc' }, null, 400],
  ['no route', { path: '/nowhere' }, null, 404],
  ['OpenAPI document', { path: '/documentation/json' }, null, 200]
]

const counts = { requests: 0, errors: 0 }
const byName = Object.fromEntries(mix.map(([name]) => [name, 0]))
const samples = []
function error (what) {
  counts.errors++
  if (samples.length < 10) samples.push(what)
}

const one = (kind) => sendOne(port, agent, kind, { onAnswer: (name) => { counts.requests++; byName[name]++ }, onProblem: error })

const started = Date.now()
const deadline = started + seconds * 1000
const rss = [] // [seconds since start, bytes], after a full GC
const liveHeap = [] // [seconds, heap used after the same GC]
const sampler = setInterval(async () => {
  const at = (Date.now() - started) / 1000
  const s = await stats()
  if (at < warmup) return
  rss.push([at, s.rss])
  liveHeap.push([at, s.heapUsed])
}, 5000)
const loadBefore = loadavg()
await drive({ concurrency, deadline, up: () => crashed === null, step: (_client, n) => one(mix[n % mix.length]) })
clearInterval(sampler)
const end = await stats()
const loadAfter = loadavg()
stopping = true
agent.destroy()
server.kill('SIGTERM')

const mb = (b) => (b / 1048576).toFixed(1) + ' MB'
const perMinute = (series) => {
  const minutes = new Map()
  for (const [at, b] of series) {
    const m = Math.floor(at / 60)
    minutes.set(m, [...(minutes.get(m) ?? []), b])
  }
  return [...minutes].map(([m, bs]) => `${m}: ${(mean(bs) / 1048576).toFixed(1)}`)
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length
const third = Math.floor(rss.length / 3)
const firstThird = mean(rss.slice(0, third).map(([, b]) => b))
const lastThird = mean(rss.slice(rss.length - third).map(([, b]) => b))
const ratio = lastThird / firstThird
const heapFirst = mean(liveHeap.slice(0, third).map(([, b]) => b))
const heapLast = mean(liveHeap.slice(liveHeap.length - third).map(([, b]) => b))
const flat = third > 0 && ratio <= 1.05
const report = [
  `soak:otel: ${seconds} s (${warmup} s warm-up not counted), ${concurrency} keep-alive clients, Node ${process.version}, ${cpus().length} cores, load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before / ${loadAfter.map((l) => l.toFixed(1)).join(' ')} after`,
  `requests answered: ${counts.requests} (${Math.round(counts.requests / seconds)}/s) over ${mix.length} kinds; spans exported: ${end.spans}; metric exports: ${end.metricExports}`,
  `errors (unexpected status, client error, crash): ${counts.errors + (crashed === null ? 0 : 1)}${samples.length ? ' — ' + samples.join('; ') : ''}${crashed === null ? '' : ' — ' + crashed}`,
  `server RSS after a full GC, ${rss.length} samples every 5 s: first third ${mb(firstThird)}, last third ${mb(lastThird)} (${((ratio - 1) * 100).toFixed(1)} %), min ${mb(Math.min(...rss.map(([, b]) => b)))}, max ${mb(Math.max(...rss.map(([, b]) => b)))}`,
  `server RSS by minute (MB): ${perMinute(rss).join(', ')}`,
  `server heap used after the same GCs: first third ${mb(heapFirst)}, last third ${mb(heapLast)}; by minute (MB): ${perMinute(liveHeap).join(', ')}`,
  `verdict: ${counts.errors === 0 && crashed === null ? '0 errors' : 'ERRORS'}, RSS ${flat ? 'flat (last third within 5 % of the first)' : 'NOT flat'}`
]
console.log(report.join('\n'))
process.exit(counts.errors === 0 && crashed === null && flat ? 0 : 1)
