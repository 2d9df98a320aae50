// npm run soak: mixed traffic at saturation against a trellis server on 127.0.0.1 (valid, invalid,
// 404, auth failures, large bodies, aborted requests) for SOAK_SECONDS (default 300). Reports
// unexpected answers (must be 0), the server's RSS and heap (after GC) at start and end, and its
// event-loop delay p99. Not part of `npm test`; the last report is in docs/security.md.
import { fork } from 'node:child_process'
import http from 'node:http'
import net from 'node:net'
import { fileURLToPath } from 'node:url'
import { drive, sendOne } from './soak/load.mjs'

const seconds = Number(process.env.SOAK_SECONDS ?? 300)
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 32)
const server = fork(fileURLToPath(new URL('./soak/server.cjs', import.meta.url)), { execArgv: ['--expose-gc'] })
const pending = []
server.on('message', (m) => {
  if (m.type === 'crash') { console.error('SERVER CRASHED', m.message); process.exit(1) }
  const next = pending.shift()
  if (next) next(m)
})
const nextMessage = () => new Promise((resolve) => pending.push(resolve))
const stats = (gc = false) => { const p = nextMessage(); server.send(gc ? 'stats-gc' : 'stats'); return p }

const { port } = await nextMessage()
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
const big = JSON.stringify({ data: 'x'.repeat(200 * 1024) })
const tooBig = JSON.stringify({ data: 'x'.repeat(600 * 1024) })

// [name, request options, body, expected status]
const mix = [
  ['valid GET', { path: '/health' }, null, 200],
  ['valid POST', { path: '/echo', method: 'POST', headers: { 'content-type': 'application/json' } }, '{"name":"soak"}', 200],
  ['schema reply', { path: '/items/42' }, null, 200],
  ['invalid body', { path: '/echo', method: 'POST', headers: { 'content-type': 'application/json' } }, '{"name":', 400],
  ['invalid schema', { path: '/echo', method: 'POST', headers: { 'content-type': 'application/json' } }, '{"nom":1}', 400],
  ['poisoned body', { path: '/echo', method: 'POST', headers: { 'content-type': 'application/json' } }, '{"__proto__":{"x":1},"name":"a"}', 400],
  ['bad param', { path: '/items/abc' }, null, 400],
  ['bad media type', { path: '/echo', method: 'POST', headers: { 'content-type': 'application/jsonx' } }, '{}', 415],
  ['404', { path: '/nowhere' }, null, 404],
  ['auth missing', { path: '/x/data' }, null, 401],
  ['auth wrong', { path: '/x/data', headers: { authorization: 'Bearer nope' } }, null, 401],
  ['auth ok', { path: '/x/data', headers: { authorization: 'Bearer soak-key' } }, null, 200],
  ['large body', { path: '/upload', method: 'POST', headers: { 'content-type': 'application/json' } }, big, 200],
  ['body over limit', { path: '/upload', method: 'POST', headers: { 'content-type': 'application/json' } }, tooBig, 413]
]

// SOAK_ONLY=<regex>: only the request kinds whose name matches (to find what costs what)
if (process.env.SOAK_ONLY) mix.splice(0, mix.length, ...mix.filter(([name]) => new RegExp(process.env.SOAK_ONLY).test(name)))

const counts = { requests: 0, aborted: 0, unexpected: 0 }
const unexpectedSamples = []
function unexpected (what) {
  counts.unexpected++
  if (unexpectedSamples.length < 10) unexpectedSamples.push(what)
}

/** One request of the mix; a body over the limit may be cut off while it is still being sent: the 413 was the answer. */
const one = (kind) => sendOne(port, agent, kind, {
  onAnswer: () => { counts.requests++ },
  onProblem: unexpected,
  tolerate: (name, err) => name === 'body over limit' && (err.code === 'ECONNRESET' || err.code === 'EPIPE')
})

function aborted () {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"name":"')
      setTimeout(() => { socket.destroy(); counts.aborted++; resolve() }, 2)
    })
    socket.on('error', () => resolve())
  })
}

const start = await stats(true)
await stats() // resets the event-loop histogram after that GC
const deadline = Date.now() + seconds * 1000
let worstP99 = 0
const p99s = []
const sampler = setInterval(async () => { const s = await stats(); p99s.push(s.p99); worstP99 = Math.max(worstP99, s.p99) }, 5000)
await drive({
  concurrency,
  deadline,
  step: (client, n) => n % 50 === client % 50 ? aborted() : one(mix[n % mix.length])
})
clearInterval(sampler)
const loaded = await stats(true)
// the clients disconnect: what the server still holds then is what it would keep for good
agent.destroy()
await new Promise((resolve) => setTimeout(resolve, 500))
const end = await stats(true)
server.send('close')

const median = (xs) => xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const mb = (b) => (b / 1048576).toFixed(1) + ' MB'
const report = [
  `soak: ${seconds} s, ${concurrency} concurrent clients, Node ${process.version}`,
  `requests answered: ${counts.requests} (${Math.round(counts.requests / seconds)}/s), aborted by the client: ${counts.aborted}`,
  `unexpected answers or errors: ${counts.unexpected}${unexpectedSamples.length ? ' — ' + unexpectedSamples.join('; ') : ''}`,
  `server 5xx: ${end.serverErrors}`,
  'server memory after GC  at start / at end of load (32 connections open) / after the clients left:',
  `  RSS ${mb(start.rss)} / ${mb(loaded.rss)} / ${mb(end.rss)}; heap used ${mb(start.heapUsed)} / ${mb(loaded.heapUsed)} / ${mb(end.heapUsed)}; external (Buffers) ${mb(start.external)} / ${mb(loaded.external)} / ${mb(end.external)}`,
  `server event-loop delay p99 per 5 s window: median ${median(p99s).toFixed(1)} ms, worst ${worstP99.toFixed(1)} ms`
]
console.log(report.join('\n'))
process.exit(counts.unexpected === 0 && end.serverErrors === 0 ? 0 : 1)
