// Where the instructions of each kept icount window went, by thread and by kind:
// `node bench/icount-split.mjs <BENCH_ICOUNT_KEEP dir> [requests per window, default 500]`.
//
// bench/icount.mjs counts every thread of the server process. A window's count swings by 2–5× with
// work of V8's background threads (optimizing compiles, concurrent marking) that lands in it, while
// the main thread's count moves little. For each dump kept with BENCH_ICOUNT_KEEP this prints, per
// request: the total (what icount reports), the main thread's event loop without garbage collection
// and on-thread optimizing compiles ("mutator": the request path's own instructions), its garbage
// collections ("gc", what the request path's allocations cost), and the other threads ("threads").
// Compare servers on mutator + gc, the request path's cost without the background threads' timing,
// within one run: on an idle machine V8 runs most of a scavenge on its helper threads ("threads"),
// on a loaded one on the main thread, so compare across runs on the mutator alone.
// Needs callgrind_annotate (valgrind).
import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

const [dir, perWindow = '500'] = process.argv.slice(2)
if (dir === undefined) throw new Error('usage: node bench/icount-split.mjs <BENCH_ICOUNT_KEEP dir> [requests per window]')
const requests = Number(perWindow)

/** The inclusive count of the first function whose name contains `needle`, or 0. */
function inclusive (lines, needle) {
  for (const line of lines) {
    const m = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line)
    if (m !== null && m[2].includes(needle)) return Number(m[1].replaceAll(',', ''))
  }
  return 0
}

const dumps = readdirSync(dir).filter((f) => /^cg\..*\.out\.\d+$/.test(f))
  .sort((a, b) => a.replace(/\.\d+$/, '').localeCompare(b.replace(/\.\d+$/, '')) || Number(a.split('.').pop()) - Number(b.split('.').pop()))
console.log('| window | total | mutator | gc | mutator + gc | threads |')
console.log('|---|---:|---:|---:|---:|---:|')
for (const file of dumps) {
  const text = execFileSync('callgrind_annotate', ['--threshold=100', '--inclusive=yes', join(dir, file)], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  const lines = text.split('\n')
  const label = /Trigger: dump (\S+)/.exec(text)?.[1] ?? file
  const total = inclusive(lines, 'PROGRAM TOTALS')
  const main = inclusive(lines, 'node::SpinEventLoopInternal')
  const gc = inclusive(lines, 'v8::internal::Heap::CollectGarbage(')
  const compile = inclusive(lines, 'v8::internal::Compiler::CompileOptimized(')
  const threads = inclusive(lines, 'start_thread')
  const per = (n) => Math.round(n / requests).toLocaleString('en-US')
  console.log(`| ${label.replace(/^icount-/, '')} | ${per(total)} | ${per(main - gc - compile)} | ${per(gc)} | ${per(main - compile)} | ${per(threads)} |`)
}
