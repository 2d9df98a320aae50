// Where a cold start's time goes: runs the cold-start benchmark's process (bench/coldstart/app.cjs)
// once under V8's CPU profiler from process start (`node --cpu-prof`, 100 µs sampling) and sorts
// every sample of the main thread into one bucket, by the first rule that matches its stack:
//   module loading: <package>   inside require(): resolving, reading, compiling and running a module
//                               (by the package of the innermost module being loaded)
//   GC                          the garbage collector
//   Ajv: meta-schema            validating schemas against the JSON Schema meta-schema (compiling it first)
//   Ajv: compile                Ajv generating and evaluating validators
//   serializers                 trellis' serializer generator
//   find-my-way                 inserting routes into the router
//   app                         the application's own code (building its schemas)
//   framework: other            the rest of the framework's code (registration, hooks, listen)
//   node / V8: other            node's internals and V8 outside the above (bootstrap, listen, http)
// Printed: ms per bucket, its share of the samples, and the process's own figures (CPU ms from
// process start to listen). Samples are wall-clock: on a busy machine every bucket is inflated
// alike; compare shares, and CPU figures from bench/coldstart.mjs.
//
//   node bench/coldstart-profile.mjs [routes] [framework] [--save file.cpuprofile] [--detail 'bucket name']
//     --detail: also the 25 functions with the most self time in that bucket
//     framework: trellis (default; dist/, after npm run build), fastify, fastify429, or a path
//     env as for bench/coldstart.mjs: TRELLIS_SCHEMA_CACHE_DIR, TRELLIS_AOT_DIR
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const saveAt = args.indexOf('--save')
const save = saveAt >= 0 ? args.splice(saveAt, 2)[1] : undefined
const detailAt = args.indexOf('--detail')
const detail = detailAt >= 0 ? args.splice(detailAt, 2)[1] : undefined
const routes = Number(args[0] ?? 10)
const which = args[1] ?? 'trellis'
const framework = which === 'trellis' ? join(root, 'dist', 'entry', 'index.cjs') : which

function packageOf (url) {
  if (url.includes('/dist/lib/') || url.includes('/dist/entry/')) return 'trellis'
  if (url.includes('/bench/coldstart/')) return 'app'
  const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
  if (m !== null) return m[1] === 'fastify429' ? 'fastify' : m[1]
  return url.startsWith('node:') || url === '' ? 'node' : url
}

function classify (stack) {
  // stack: callFrames, leaf first
  let loading = -1
  for (let i = 0; i < stack.length; i++) {
    if (stack[i].functionName === 'Module._load') { loading = i; break } // the innermost require
  }
  if (loading >= 0) {
    // the module being loaded: the innermost module body (line 0) under that require, else the requirer
    for (let i = loading - 1; i >= 0; i--) {
      if (stack[i].lineNumber === 0 && stack[i].functionName === '' && stack[i].url !== '') return `module loading: ${packageOf(stack[i].url)}`
    }
    const requirer = stack.slice(loading + 1).find((f) => f.url !== '' && !f.url.startsWith('node:'))
    return `module loading: ${requirer === undefined ? 'node' : packageOf(requirer.url)}`
  }
  const leaf = stack[0]
  if (leaf.functionName === '(garbage collector)') return 'GC'
  if (leaf.functionName === '(idle)') return 'idle'
  const pkgs = stack.map((f) => packageOf(f.url))
  if (stack.some((f) => f.functionName === 'validateSchema' && packageOf(f.url) === 'ajv')) return 'Ajv: meta-schema'
  if (pkgs.includes('ajv') || pkgs.includes('fast-uri') || pkgs.includes('ajv-formats') || pkgs.includes('json-schema-traverse') ||
    pkgs.includes('@fastify/ajv-compiler')) return 'Ajv: compile'
  if (stack.some((f) => f.url.includes('/schema/serialization/')) || pkgs.includes('fast-json-stringify') || pkgs.includes('@fastify/fast-json-stringify-compiler')) return 'serializers'
  if (pkgs.includes('find-my-way')) return 'find-my-way'
  // the app's own frames (building its schemas); its calls into the framework count for the framework
  if (pkgs.find((p) => p !== 'node') === 'app') return 'app'
  if (pkgs.some((p) => p === 'trellis' || p === 'fastify' || p === 'avvio' || p.startsWith('@fastify/'))) return 'framework: other'
  return 'node / V8: other'
}

function summarize (profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const stacks = new Map()
  const stackOf = (id) => {
    let s = stacks.get(id)
    if (s === undefined) {
      s = []
      for (let at = id; at !== undefined; at = parent.get(at)) s.push(byId.get(at).callFrame)
      stacks.set(id, s)
    }
    return s
  }
  const buckets = new Map()
  const selfIn = new Map()
  let total = 0
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000 // a sample's time runs until the next one
    const b = classify(stackOf(profile.samples[i]))
    buckets.set(b, (buckets.get(b) ?? 0) + dt)
    total += dt
    if (b === detail) {
      const f = stackOf(profile.samples[i])[0]
      const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist\/lib|node_modules)\//, '')}:${f.lineNumber + 1}`
      selfIn.set(name, (selfIn.get(name) ?? 0) + dt)
    }
  }
  return { total, buckets: [...buckets].sort((a, b) => b[1] - a[1]), detail: [...selfIn].sort((a, b) => b[1] - a[1]).slice(0, 25) }
}

const dir = mkdtempSync(join(tmpdir(), 'trellis-coldstart-prof-'))
try {
  const out = execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', dir, join(root, 'bench', 'coldstart', 'app.cjs')], {
    encoding: 'utf8', env: { ...process.env, COLDSTART_FRAMEWORK: framework, COLDSTART_ROUTES: String(routes) }
  })
  const figures = JSON.parse(out.trim().split('\n').pop())
  const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.cpuprofile')))
  if (save !== undefined) copyFileSync(file, save)
  const { total, buckets, detail: top } = summarize(JSON.parse(readFileSync(file, 'utf8')))
  console.log(`${which}, ${routes} routes, profiled from process start to exit (${total.toFixed(0)} ms of samples); ` +
    `unprofiled figures of the same process: first line at ${figures.start.toFixed(0)} ms, listen at ${(figures.start + figures.listen).toFixed(0)} ms, ` +
    `CPU ${figures.cpuStart.toFixed(0)} ms at the first line and ${figures.cpuListen.toFixed(0)} ms at listen`)
  for (const [name, ms] of buckets) console.log(`${ms.toFixed(1).padStart(9)} ms ${(100 * ms / total).toFixed(1).padStart(5)} %  ${name}`)
  if (detail !== undefined) {
    console.log(`\nself time in "${detail}":`)
    for (const [name, ms] of top) console.log(`${ms.toFixed(1).padStart(9)} ms  ${name}`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
