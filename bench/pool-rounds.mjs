// Pools the per-round ratios of several `npm run bench` runs. Not part of CI.
//
//   node bench/pool-rounds.mjs bench/results/whole-server-node20-*.json
//   node bench/pool-rounds.mjs run1.json run2.md run3.log
//
// Each argument is one run: a results file of bench/run.mjs (bench/results/whole-server-*.json, every
// round's figures; or the .md beside it, from its "rounds" column), or a saved copy of a run's printed
// output (its `round i/n …` lines; or, when it has none, its table's "rounds" column). Nothing is
// read from docs/ (`--doc`, which read a section of docs/benchmarks.md, is gone).
//
// One run's median over 7 rounds moves by ±0.05–0.10 on this VM, where the per-round ratio of two
// servers ranges from about 0.7 to 1.4. Printed per route and server: each run's median of
// trellis / other, the median of all rounds pooled and, in brackets, an interval of that median
// from the order statistics: the k-th smallest and k-th largest round, k = n/2 − 0.98·√n rounded
// (at least 1). For n = 14 that is the 3rd and 12th, which hold the median between them with
// probability 98.7 % (exact, from the binomial distribution: 1 − 2·P(B(n, ½) < k)); the
// probability for each n in the output is printed under the table.
import { readFileSync } from 'node:fs'
import { ROUTES } from './servers.mjs'
import { median } from './stats.mjs'

/** route key -> server label -> req/s per round, from a results file's JSON (bench/run.mjs). */
function fromResults (file) {
  const data = JSON.parse(readFileSync(file, 'utf8'))
  if (data.benchmark !== 'whole-server' || data.samples === undefined) throw new Error(`${file}: not a whole-server results file of bench/run.mjs`)
  const label = new Map((data.servers ?? []).map((s) => [s.key, s.label]))
  const rows = {}
  for (const [server, byRoute] of Object.entries(data.samples)) {
    for (const [route, rounds] of Object.entries(byRoute)) {
      ;(rows[route] ??= {})[label.get(server) ?? server] = rounds.map((r) => r.rps)
    }
  }
  return rows
}

/** The same, from a run's printed `round i/n  <route> <server>  <req/s> req/s …` lines. */
function fromRoundLines (text) {
  const rows = {}
  for (const line of text.split('\n')) {
    const m = /^round (\d+)\/\d+\s+(\S+)\s+(.+?)\s+([\d,]+) req\/s/.exec(line)
    if (m === null) continue
    ;((rows[m[2]] ??= {})[m[3]] ??= [])[Number(m[1]) - 1] = Number(m[4].replace(/,/g, ''))
  }
  return rows
}

/** The same, from the "rounds" column (`a / b / c`) of the per-server table a run prints and writes. */
function fromTable (text) {
  const keyOf = new Map(ROUTES.map((r) => [r.label, r.key]))
  const rows = {}
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    if (cells.length < 9 || !keyOf.has(cells[1]) || !/^[\d,]+( \/ [\d,]+)+$/.test(cells[4])) continue
    ;(rows[keyOf.get(cells[1])] ??= {})[cells[2]] = cells[4].split(' / ').map((x) => Number(x.replace(/,/g, '')))
  }
  return rows
}

function readRun (file) {
  if (file.endsWith('.json')) return fromResults(file)
  const text = readFileSync(file, 'utf8')
  const rows = fromRoundLines(text)
  return Object.keys(rows).length > 0 ? rows : fromTable(text)
}

const args = process.argv.slice(2)
if (args.includes('--doc')) throw new Error('--doc is gone: runs are pooled from their results files (bench/results/whole-server-*.json) or saved output, never from docs/')
if (args.length === 0) throw new Error('usage: node bench/pool-rounds.mjs bench/results/whole-server-node20-<when>.json ... (or saved outputs of npm run bench)')
const runs = args.map((file) => {
  const run = readRun(file)
  if (Object.keys(run).length === 0) throw new Error(`${file}: no rounds found`)
  return run
})

/** Probability that the k-th smallest and k-th largest of n samples enclose the median: 1 − 2·P(B(n, ½) < k). */
function coverage (n, k) {
  let below = 0
  let c = 1 // C(n, i)
  for (let i = 0; i < k; i++) { below += c; c = c * (n - i) / (i + 1) }
  return 1 - 2 * below / 2 ** n
}
const ordinal = (k) => k + (k % 100 >= 11 && k % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][k % 10] ?? 'th')
const intervals = new Map() // rounds -> k

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
    intervals.set(n, k)
  }
}
console.log('')
for (const [n, k] of [...intervals].sort((a, b) => a[0] - b[0])) {
  const nth = k === 1 ? '' : ordinal(k) + ' '
  console.log(`interval for ${n} rounds: the ${nth}smallest to the ${nth}largest ratio, holding the median with probability ${(coverage(n, k) * 100).toFixed(1)} %`)
}
