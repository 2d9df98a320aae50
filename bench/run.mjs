// Whole-server benchmark (`npm run bench`): the same three routes on a raw node:http server,
// trellis (dist/entry/index.cjs), Fastify 4.3.0 (devDependency alias `fastify43`) and current
// Fastify (devDependency `fastify`). Each server runs in its own child process on 127.0.0.1 and a
// free port, one after the other; autocannon (programmatic API) loads it from this process.
// Results are printed and written to docs/benchmarks.md, section "## Whole server (npm run bench)".
//
//   node bench/run.mjs                 # parent: runs everything
//   node bench/run.mjs --server <name> # child: one server (used by the parent)
//
// Env: BENCH_WARMUP (s, default 3), BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 50),
//      BENCH_NO_WRITE=1 (print only).
import { fork } from 'node:child_process'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')

// ------------------------------------------------------------------ the workload (shared)
const PROFILE = {
  id: 4242, name: 'Ada Lovelace', email: 'ada@example.com', age: 36, active: true,
  score: 98.5, tags: ['math', 'engines'], createdAt: '1843-07-10T00:00:00.000Z', country: 'UK', city: 'London'
}
const profileSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' }, age: { type: 'integer' },
    active: { type: 'boolean' }, score: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } },
    createdAt: { type: 'string' }, country: { type: 'string' }, city: { type: 'string' }
  }
}
const userBodySchema = {
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 50 },
    age: { type: 'integer', minimum: 0 },
    email: { type: 'string', maxLength: 100 },
    tags: { type: 'array', maxItems: 10, items: { type: 'string' } }
  },
  required: ['name', 'age']
}
const POST_BODY = JSON.stringify({ name: 'Ada', age: 36, email: 'ada@example.com', tags: ['a', 'b'] })

const ROUTES = [
  { key: 'json', label: 'GET /json → `{ hello: \'world\' }`', method: 'GET', path: '/json' },
  { key: 'profile', label: 'GET /profile, response schema (10 fields)', method: 'GET', path: '/profile' },
  { key: 'users', label: 'POST /users, body schema (validation)', method: 'POST', path: '/users', body: POST_BODY }
]

const SERVERS = [
  { name: 'node-http', label: 'node:http' },
  { name: 'trellis', label: 'trellis' },
  { name: 'fastify43', label: 'fastify 4.3.0' },
  { name: 'fastify', label: `fastify ${require('fastify/package.json').version}` }
]

// ------------------------------------------------------------------ child: one server
function frameworkRoutes (app) {
  app.get('/json', async () => ({ hello: 'world' }))
  app.get('/profile', { schema: { response: { 200: profileSchema } } }, async () => PROFILE)
  app.post('/users', { schema: { body: userBodySchema } }, async (req) => ({ ok: true, name: req.body.name }))
  return app
}

function rawServer () {
  const profileOut = () => JSON.stringify(PROFILE)
  return createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify({ hello: 'world' }))
    } else if (req.method === 'GET' && req.url === '/profile') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
      res.end(profileOut())
    } else if (req.method === 'POST' && req.url === '/users') {
      const chunks = []
      req.on('data', (c) => chunks.push(c))
      req.on('end', () => {
        let body
        try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')) } catch { body = null }
        // a hand-written check of the same schema (what an app without a framework would do)
        const ok = body !== null && typeof body === 'object' && typeof body.name === 'string' && body.name.length <= 50 &&
          Number.isInteger(body.age) && body.age >= 0
        res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json; charset=utf-8' })
        res.end(JSON.stringify(ok ? { ok: true, name: body.name } : { statusCode: 400 }))
      })
    } else {
      res.writeHead(404)
      res.end()
    }
  })
}

async function runChild (name) {
  let listen
  if (name === 'node-http') {
    const server = rawServer()
    listen = () => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)))
  } else {
    const factory = name === 'trellis'
      ? require(join(root, 'dist', 'entry', 'index.cjs'))
      : require(name) // 'fastify43' or 'fastify'
    const app = frameworkRoutes(factory({ logger: false }))
    listen = async () => {
      await app.listen({ port: 0, host: '127.0.0.1' })
      return app.server.address().port
    }
  }
  const port = await listen()
  process.send({ port })
  // the parent asks for this process's CPU time around each measurement (µs, user + system)
  process.on('message', (msg) => {
    if (msg === 'cpu') { const u = process.cpuUsage(); process.send({ cpu: u.user + u.system }) }
  })
}

// ------------------------------------------------------------------ parent
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2)
const DURATION = Number(process.env.BENCH_DURATION ?? 5)
// Servers are measured in alternating rounds (the order rotates each round) and the median round is
// reported: on a shared 2-core VM, single sequential runs drifted by ±20 % between runs.
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3))
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const children = new Set()

function startServer (name) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--server', name], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    children.add(child)
    child.once('message', (msg) => resolve({ child, port: msg.port }))
    child.once('error', reject)
    child.once('exit', (code) => { children.delete(child); reject(new Error(`${name} server exited early (code ${code})`)) })
  })
}

/** CPU time (µs) the server process has used so far. */
function askCpu (child) {
  return new Promise((resolve) => {
    child.once('message', (msg) => resolve(msg.cpu))
    child.send('cpu')
  })
}

function stopServer (child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) { children.delete(child); resolve(); return }
    child.removeAllListeners('exit')
    child.once('exit', () => { children.delete(child); resolve() })
    process.kill(child.pid, 'SIGTERM') // only the child we started, by its PID
  })
}

function killAllStarted () {
  for (const child of children) {
    try { process.kill(child.pid, 'SIGKILL') } catch {}
  }
}

async function load (autocannon, url, route, duration) {
  return autocannon({
    url: url + route.path,
    method: route.method,
    connections: CONNECTIONS,
    duration,
    headers: route.body !== undefined ? { 'content-type': 'application/json' } : {},
    body: route.body
  })
}

async function check (url, route) {
  const res = await fetch(url + route.path, { method: route.method, body: route.body, headers: route.body !== undefined ? { 'content-type': 'application/json' } : {} })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${route.method} ${route.path}: status ${res.status} ${text}`)
  return text
}

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
const ratio = (a, b) => (b > 0 ? (a / b).toFixed(2) : '–')

async function runParent () {
  const autocannon = require('autocannon')
  process.on('SIGINT', () => { killAllStarted(); process.exit(130) })
  process.on('exit', killAllStarted)

  const started = new Date()
  const loadBefore = loadavg()
  const results = {} // results[server][route] = { rps, p50, p99, errors, non2xx } (median round)
  const samples = {} // samples[server][route] = [round results]
  const outputs = {}
  const running = []
  try {
    for (const server of SERVERS) {
      const { child, port } = await startServer(server.name)
      running.push({ server, child, url: `http://127.0.0.1:${port}` })
      samples[server.name] = {}
    }
    for (const { server, url } of running) {
      for (const route of ROUTES) {
        const body = await check(url, route)
        ;(outputs[route.key] ??= {})[server.name] = body
        if (WARMUP > 0) await load(autocannon, url, route, WARMUP)
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const route of ROUTES) {
        const order = running.map((_, k) => running[(k + round) % running.length])
        for (const { server, url, child } of order) {
          const cpuBefore = await askCpu(child)
          const r = await load(autocannon, url, route, DURATION)
          const cpuPerRequest = (await askCpu(child) - cpuBefore) / Math.max(1, r.requests.total)
          ;(samples[server.name][route.key] ??= []).push({ cpu: cpuPerRequest, rps: r.requests.average, mean: r.latency.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, total: r.requests.total })
          console.log(`round ${round + 1}/${ROUNDS} ${server.label.padEnd(16)} ${route.method.padEnd(4)} ${route.path.padEnd(9)} ${fmt(r.requests.average).padStart(8)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  errors ${r.errors + r.timeouts}  non-2xx ${r.non2xx}`)
        }
      }
    }
  } finally {
    for (const { child } of running) await stopServer(child)
  }
  for (const server of SERVERS) {
    results[server.name] = {}
    for (const route of ROUTES) {
      const rounds = [...samples[server.name][route.key]].sort((a, b) => a.rps - b.rps)
      const median = rounds[Math.floor(rounds.length / 2)]
      const errors = rounds.reduce((a, r) => a + r.errors, 0)
      const non2xx = rounds.reduce((a, r) => a + r.non2xx, 0)
      const cpus = rounds.map((r) => r.cpu).sort((a, b) => a - b)
      results[server.name][route.key] = { ...median, cpu: cpus[Math.floor(cpus.length / 2)], errors, non2xx, spread: rounds.map((r) => Math.round(r.rps)) }
    }
  }
  const loadAfter = loadavg()
  const elapsed = (Date.now() - started.getTime()) / 1000

  // same responses from every server (else the comparison is meaningless)
  for (const [key, bodies] of Object.entries(outputs)) {
    const distinct = new Set(Object.values(bodies).map((b) => JSON.stringify(JSON.parse(b))))
    if (distinct.size !== 1) console.warn(`warning: servers answered ${key} differently: ${[...distinct].join(' | ')}`)
  }

  const lines = []
  for (const route of ROUTES) {
    lines.push(`**${route.label}**`, '')
    lines.push('| server | req/s (median) | rounds | server CPU µs/req | mean ms | p50 ms | p99 ms | req/s vs node:http | vs fastify 4.3 | vs ' + SERVERS[3].label + ' |')
    lines.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|')
    for (const server of SERVERS) {
      const r = results[server.name][route.key]
      const bad = r.errors + r.non2xx > 0 ? ` (${r.errors} errors, ${r.non2xx} non-2xx)` : ''
      lines.push(`| ${server.label}${bad} | ${fmt(r.rps)} | ${r.spread.map((x) => fmt(x)).join(' / ')} | ${fmt(r.cpu, 1)} | ${fmt(r.mean, 2)} | ${r.p50} | ${r.p99} | ${ratio(r.rps, results['node-http'][route.key].rps)} | ${ratio(r.rps, results.fastify43[route.key].rps)} | ${ratio(r.rps, results.fastify[route.key].rps)} |`)
    }
    lines.push('')
  }
  const table = lines.join('\n')
  console.log('\n' + table)

  const nproc = typeof availableParallelism === 'function' ? availableParallelism() : cpus().length
  const section = [
    '## Whole server (npm run bench)',
    '',
    'The same three routes on a raw `node:http` server, trellis (`dist/entry/index.cjs`), Fastify 4.3.0',
    `and Fastify ${require('fastify/package.json').version}, each in its own child process on 127.0.0.1,`,
    `loaded by autocannon ${require('autocannon/package.json').version} (programmatic API, in the parent process):`,
    `${CONNECTIONS} connections, ${WARMUP} s warm-up per server and route (discarded), then ${ROUNDS} rounds of ${DURATION} s per route in which`,
    'the servers take turns (the order rotates each round); the table shows the median round and every round\'s req/s. Loggers off.',
    'Client and server share the 2 cores, so req/s also measures how much CPU each server leaves to autocannon; "server CPU µs/req"',
    '(the server process\'s user+system CPU time over the requests it answered, median of the rounds) is the steadier figure of a server\'s own cost.',
    'The raw server answers with `JSON.stringify` and checks the POST body by hand (same rules as the schema).',
    'req/s is autocannon\'s mean per second; latencies are autocannon\'s (whole ms for p50/p99); ratios are req/s over the other server\'s req/s (> 1 is faster).',
    '',
    '```',
    'npm run bench        # npm run build && node bench/run.mjs',
    '```',
    '',
    `Run: ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${Math.round(elapsed)} s; machine: nproc ${nproc} (${cpus()[0]?.model?.trim() ?? 'unknown cpu'}), node ${process.version}, ${process.platform}/${process.arch}.`,
    `Load average before/after: ${loadBefore.map((x) => x.toFixed(2)).join(' ')} / ${loadAfter.map((x) => x.toFixed(2)).join(' ')}` +
      (process.env.BENCH_NOTE ? ` — ${process.env.BENCH_NOTE}` : ''),
    '',
    table.trimEnd(),
    ''
  ].join('\n')

  if (process.env.BENCH_NO_WRITE !== '1') writeSection(section)
}

/** Replaces (or appends) the "## Whole server (npm run bench)" section; other sections untouched. */
function writeSection (section) {
  const file = join(root, 'docs', 'benchmarks.md')
  const text = readFileSync(file, 'utf8') // read right before writing: others edit this file too
  const heading = '## Whole server (npm run bench)'
  const start = text.indexOf(heading)
  let out
  if (start === -1) {
    out = text.replace(/\s*$/, '\n\n') + section
  } else {
    const rest = text.slice(start + heading.length)
    const next = rest.search(/\n## /)
    const end = next === -1 ? text.length : start + heading.length + next + 1
    out = text.slice(0, start) + section + (end < text.length ? '\n' + text.slice(end) : '')
  }
  writeFileSync(file, out)
  console.log(`\nwrote ${file}`)
}

// ------------------------------------------------------------------ entry
const serverArg = process.argv.indexOf('--server')
if (serverArg !== -1) {
  runChild(process.argv[serverArg + 1]).catch((err) => { console.error(err); process.exit(1) })
} else {
  runParent().catch((err) => { console.error(err); killAllStarted(); process.exit(1) })
}
