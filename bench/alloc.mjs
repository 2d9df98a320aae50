// Bytes allocated per request, by allocation site: `npm run bench:alloc -- [route] [seconds]`
// (or `node bench/alloc.mjs` after `npm run build`). Not part of CI.
//
// Each server of bench/servers.mjs (BENCH_SERVERS, default bare,trellis) runs in its own process,
// pinned like `npm run bench` (the same child, bench/run.mjs --server); every route is loaded
// for 2 s first (the request path sees every route's shapes), then one route (default hello) for N
// seconds (default 5) with V8's sampling heap profiler on, counting objects the garbage collector
// has already freed too. Printed: the sampled bytes per request and the sites (the JavaScript
// function an allocation was made in, after inlining: an optimized function is charged for what the
// functions it inlined allocate) that allocate the most per request. The sampling interval is 256
// bytes, so totals are estimates within a few percent; the bare server's figure is node's own cost
// of a request.
//
//   BENCH_SERVERS=bare,trellis,fastify43   servers
//   BENCH_NODE=24                          servers on another Node line
//   BENCH_ALLOC_TOP=25                     sites listed per server
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ROUTES, SERVER_NAMES, serverLabel } from './servers.mjs'
import { askChild, cpuPlan, hasCommand, killAllStarted, nodeBinary, startChild, stopChild, wrkLoadGen } from './processes.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

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

async function main () {
  if (!hasCommand('wrk')) throw new Error('wrk not found (apt-get install -y wrk)')
  process.on('exit', killAllStarted)
  const [routeKey = 'hello', seconds = '5'] = process.argv.slice(2)
  const route = ROUTES.find((r) => r.key === routeKey)
  if (route === undefined) throw new Error(`route: one of ${ROUTES.map((r) => r.key).join(', ')}`)
  const servers = (process.env.BENCH_SERVERS || 'bare,trellis').split(',')
  for (const s of servers) if (!SERVER_NAMES.includes(s)) throw new Error(`unknown server ${s}`)
  const top = Number(process.env.BENCH_ALLOC_TOP ?? 25)
  const plan = cpuPlan()
  const node = nodeBinary()
  const workdir = mkdtempSync(join(tmpdir(), 'trellis-alloc-'))
  const loadGen = wrkLoadGen(plan.client, workdir, 50)
  try {
    for (const name of servers) {
      const { child, port, version } = await startChild(name, node, plan.server)
      const url = `http://127.0.0.1:${port}`
      try {
        for (const r of ROUTES) await loadGen.load(url, r, 2)
        await askChild(child, 'heap:start')
        const { total: requests } = await loadGen.load(url, route, Number(seconds))
        const sites = bySite((await askChild(child, 'heap:stop')).profile.head)
        const bytes = Object.values(sites).reduce((a, b) => a + b, 0)
        console.log(`\n${serverLabel(name)} (node ${version}), ${route.key}: ${requests.toLocaleString('en-US')} requests, ${Math.round(bytes / requests).toLocaleString('en-US')} bytes allocated per request (sampled)`)
        for (const [site, n] of Object.entries(sites).sort((a, b) => b[1] - a[1]).slice(0, top)) {
          console.log(`${String(Math.round(n / requests)).padStart(7)}  ${site}`)
        }
      } finally {
        await stopChild(child)
      }
    }
  } finally {
    rmSync(workdir, { recursive: true, force: true })
  }
}

main().catch((err) => { console.error(err); killAllStarted(); process.exit(1) })
