// Pools the per-round ratios of several `npm run bench` runs: `node bench/pool-rounds.mjs run1.log
// run2.log ...` (each file the printed output of a run), or `--doc "## Whole server, Node 20"` for
// the run written in that section of docs/benchmarks.md (its "rounds" column). Not part of CI.
//
// One run's median over 7 rounds moves by ±0.05–0.10 on this VM, where the per-round ratio of two
// servers ranges from about 0.7 to 1.4. Printed per route and server: each run's median of
// trellis / other, the median of all rounds pooled and, in brackets, an interval of that median
// from the order statistics (k-th smallest and k-th largest, k = n/2 − 0.98·√n rounded: about 94 %
// for n = 14).
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ROUTES } from './servers.mjs'
import { median } from './stats.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** route key -> server label -> req/s per round, from a run's printed rounds. */
function fromLog (file) {
  const rows = {}
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^round (\d+)\/\d+\s+(\S+)\s+(.+?)\s+([\d,]+) req\/s/.exec(line)
    if (m === null) continue
    ;((rows[m[2]] ??= {})[m[3]] ??= [])[Number(m[1]) - 1] = Number(m[4].replace(/,/g, ''))
  }
  return rows
}

/** The same, from the rounds column of a whole-server section of docs/benchmarks.md. */
function fromDoc (heading) {
  const text = readFileSync(join(root, 'docs', 'benchmarks.md'), 'utf8')
  const at = text.indexOf(heading + ' ')
  if (at < 0) throw new Error(`no section "${heading}" in docs/benchmarks.md`)
  const section = text.slice(at).split('\n## ')[0]
  const keyOf = new Map(ROUTES.map((r) => [r.label, r.key]))
  const rows = {}
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    if (cells.length < 9 || !keyOf.has(cells[1]) || !cells[4].includes(' / ')) continue
    ;(rows[keyOf.get(cells[1])] ??= {})[cells[2]] = cells[4].split(' / ').map((x) => Number(x.replace(/,/g, '')))
  }
  return rows
}

const runs = []
const args = process.argv.slice(2)
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--doc') runs.push(fromDoc(args[++i]))
  else runs.push(fromLog(args[i]))
}
if (runs.length === 0) throw new Error('usage: node bench/pool-rounds.mjs [--doc "## Whole server, Node 20"] run.log ...')

const others = [...new Set(runs.flatMap((r) => Object.values(r).flatMap((s) => Object.keys(s))))].filter((s) => s !== 'trellis')
console.log('| route | vs | each run\'s median | pooled median [interval] | rounds |')
console.log('|---|---|---:|---:|---:|')
for (const { key } of ROUTES) {
  for (const other of others) {
    const pooled = []
    const perRun = []
    for (const run of runs) {
      const s = run[key]
      if (s?.trellis === undefined || s[other] === undefined) continue
      const ratios = s.trellis.map((v, i) => v / s[other][i])
      pooled.push(...ratios)
      perRun.push(median(ratios))
    }
    if (pooled.length === 0) continue
    pooled.sort((a, b) => a - b)
    const n = pooled.length
    const k = Math.max(1, Math.round(n / 2 - 0.98 * Math.sqrt(n)))
    console.log(`| ${key} | ${other} | ${perRun.map((m) => m.toFixed(2)).join(' / ')} | ${median(pooled).toFixed(2)} [${pooled[k - 1].toFixed(2)}–${pooled[n - k].toFixed(2)}] | ${n} |`)
  }
}
