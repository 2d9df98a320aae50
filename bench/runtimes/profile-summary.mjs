// Summarizes a .cpuprofile (bun --cpu-prof, deno --cpu-prof, node --cpu-prof): self time by area
// (trellis' src/ folder of the dist/lib file, a package under node_modules, or the runtime) and
// the functions with most self time; total time under chosen functions (inclusive).
//   node bench/runtimes/profile-summary.mjs <file.cpuprofile> [functionName ...]
import { readFileSync } from 'node:fs'

const [file, ...inclusiveNames] = process.argv.slice(2)
const profile = JSON.parse(readFileSync(file, 'utf8'))
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const self = new Map()
// a sample that follows a pause of the process (descheduled on a busy machine, idle at the end)
// carries the whole pause as its delta: such a delta counts as the median sampling interval
const sorted = profile.timeDeltas.filter((d) => d > 0).sort((x, y) => x - y)
const interval = sorted[sorted.length >> 1] ?? 1000
const deltas = profile.timeDeltas.map((d) => d > 20 * interval ? interval : d)
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0))
let total = 0
for (const v of self.values()) total += v

function area (url) {
  if (url === '' || url === undefined) return '(runtime, native)'
  const lib = /dist\/lib\/([^/]+)\//.exec(url)
  if (lib) return `trellis ${lib[1]}/`
  const mod = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (mod) return mod[1]
  if (/^(node:|bun:|ext:|internal)/.test(url) || (!url.startsWith('file:') && !url.startsWith('/'))) return `(runtime JS: ${url.split(/[/:]/).filter(Boolean)[0]})`
  return url.replace(/.*\//, '')
}

const areas = new Map()
const fns = new Map()
for (const [id, t] of self) {
  const n = byId.get(id)
  const a = area(n.callFrame.url)
  areas.set(a, (areas.get(a) ?? 0) + t)
  const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/.*\/(dist\/lib\/)?/, '')}:${n.callFrame.lineNumber + 1}`
  fns.set(key, (fns.get(key) ?? 0) + t)
}
const pct = (t) => `${(100 * t / total).toFixed(1)} %`
console.log(`total sampled: ${(total / 1000).toFixed(0)} ms`)
console.log('\nself time by area:')
for (const [a, t] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, 20)) console.log(`  ${pct(t).padStart(7)}  ${a}`)
console.log('\nfunctions, self time:')
for (const [f, t] of [...fns].sort((x, y) => y[1] - x[1]).slice(0, 30)) console.log(`  ${pct(t).padStart(7)}  ${f}`)
if (inclusiveNames.length > 0) {
  console.log('\ninclusive time (samples with the function on the stack):')
  for (const name of inclusiveNames) {
    let t = 0
    for (let i = 0; i < profile.samples.length; i++) {
      let id = profile.samples[i]
      while (id !== undefined) {
        if (byId.get(id).callFrame.functionName === name) { t += deltas[i] ?? 0; break }
        id = parent.get(id)
      }
    }
    console.log(`  ${pct(t).padStart(7)}  ${name}`)
  }
}
