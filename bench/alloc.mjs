// Bytes allocated per request, by allocation site: `npm run bench:alloc -- [route] [seconds]`
// (or `node bench/alloc.mjs` after `npm run build`). Not part of CI.
//
// Each server of bench/servers.mjs (BENCH_SERVERS, default bare,trellis) runs in its own process,
// pinned like `npm run bench`; every GET route is loaded for 2 s first (the request path sees every
// route's shapes), then one route (default hello) for N seconds (default 5) with V8's sampling heap
// profiler on, counting objects the garbage collector has already freed too. Printed: the sampled
// bytes per request and the sites (the JavaScript function an allocation was made in, after
// inlining: an optimized function is charged for what the functions it inlined allocate) that
// allocate the most per request. The sampling interval is 256 bytes, so totals are estimates
// within a few percent; the bare server's figure is node's own cost of a request.
//
//   BENCH_SERVERS=bare,trellis,fastify43   servers
//   BENCH_NODE=24                          servers on another Node line
//   BENCH_ALLOC_TOP=25                     sites listed per server
//
//   node bench/alloc.mjs --serve <server>   (internal: one server process)
import { spawn } from 'node:child_process'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ROUTES, SERVER_NAMES, serverLabel, startServer } from './servers.mjs'
import { cpuPlan, hasCommand, killAllStarted, nodeBinary, pinned, children } from './processes.mjs'

const here = fileURLToPath(import.meta.url)
const root = join(dirname(here), '..')

/** The server process: starts the server, then profiles allocations between 'start' and 'stop'. */
async function serve (name) {
  const { Session } = await import('node:inspector/promises')
  const port = await startServer(name)
  const session = new Session()
  session.connect()
  await session.post('HeapProfiler.enable')
  process.on('message', async (msg) => {
    if (msg === 'start') {
      await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
      process.send({ started: true })
    } else if (msg === 'stop') {
      const { profile } = await session.post('HeapProfiler.stopSampling')
      process.send({ sites: bySite(profile.head) })
    }
  })
  process.on('disconnect', () => process.exit(0))
  process.send({ port, version: process.version })
}

/** Self bytes per allocation site (function, file, line), summed over the profile's call tree. */
function bySite (head) {
  const sites = {}
  const walk = (node) => {
    if (node.selfSize > 0) {
      const f = node.callFrame
      const file = f.url.replace(/^file:\/\//, '').replace(root + '/', '')
      const label = `${f.functionName || '(anonymous)'} ${file}${file === '' ? '' : ':' + (f.lineNumber + 1)}`
      sites[label] = (sites[label] ?? 0) + node.selfSize
    }
    for (const child of node.children) walk(child)
  }
  walk(head)
  return sites
}

function ask (child, msg) {
  return new Promise((resolve) => { child.once('message', resolve); child.send(msg) })
}

function wrk (cpu, url, seconds) {
  const [cmd, args] = pinned(cpu, 'wrk', ['-t1', '-c50', `-d${seconds}s`, url])
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    children.add(p)
    let out = ''
    p.stdout.on('data', (d) => { out += d })
    p.once('exit', () => {
      children.delete(p)
      const n = Number(/(\d+) requests in/.exec(out)?.[1])
      if (Number.isFinite(n)) resolve(n); else reject(new Error(`cannot read wrk output:\n${out}`))
    })
  })
}

async function main () {
  if (!hasCommand('wrk')) throw new Error('wrk not found (apt-get install -y wrk)')
  process.on('exit', killAllStarted)
  const [routeKey = 'hello', seconds = '5'] = process.argv.slice(2)
  const route = ROUTES.find((r) => r.key === routeKey)
  if (route === undefined || route.method !== 'GET') throw new Error(`route: one of ${ROUTES.filter((r) => r.method === 'GET').map((r) => r.key).join(', ')}`)
  const servers = (process.env.BENCH_SERVERS || 'bare,trellis').split(',')
  for (const s of servers) if (!SERVER_NAMES.includes(s)) throw new Error(`unknown server ${s}`)
  const top = Number(process.env.BENCH_ALLOC_TOP ?? 25)
  const plan = cpuPlan()
  const node = nodeBinary()
  for (const name of servers) {
    const [cmd, args] = pinned(plan.server, node, [here, '--serve', name])
    const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    children.add(child)
    const { port, version } = await new Promise((resolve, reject) => { child.once('message', resolve); child.once('exit', () => reject(new Error(`${name} exited early`))) })
    const base = `http://127.0.0.1:${port}`
    for (const r of ROUTES) if (r.method === 'GET') await wrk(plan.client, base + r.path, 2)
    await ask(child, 'start')
    const requests = await wrk(plan.client, base + route.path, Number(seconds))
    const { sites } = await ask(child, 'stop')
    child.removeAllListeners('exit')
    child.disconnect()
    const total = Object.values(sites).reduce((a, b) => a + b, 0)
    console.log(`\n${serverLabel(name)} (node ${version}), ${route.key}: ${requests.toLocaleString('en-US')} requests, ${Math.round(total / requests).toLocaleString('en-US')} bytes allocated per request (sampled)`)
    for (const [site, bytes] of Object.entries(sites).sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${String(Math.round(bytes / requests)).padStart(7)}  ${site}`)
    }
  }
}

const serveArg = process.argv.indexOf('--serve')
if (serveArg !== -1) serve(process.argv[serveArg + 1]).catch((err) => { console.error(err); process.exit(1) })
else main().catch((err) => { console.error(err); killAllStarted(); process.exit(1) })
