// Runs every test file (test/**/*.test.ts) with node's own test runner, TypeScript loaded by tsx.
// Usage: node scripts/run-tests.mjs [--coverage] [--exclude=path-filter ...] [path-filter ...]
//   --exclude   leaves out the files whose path contains it (repeatable)
//   --coverage  the same run under c8 (settings and floor in .c8rc.json): V8 coverage of every process
//               the tests start, mapped back to src/**/*.ts through tsx's source maps; a summary on
//               stdout, an HTML report in coverage/. The run fails when a figure is below the floor
//               or nothing was measured; with a path filter the figures are shown but not checked.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'

const root = new URL('..', import.meta.url).pathname
function collect (dir, out) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) collect(full, out)
    else if (/\.test\.(ts|mts|cts|mjs|cjs|js)$/.test(name)) out.push(relative(root, full))
  }
  return out
}
const argv = process.argv.slice(2)
const coverage = argv.includes('--coverage')
const excludes = argv.filter((a) => a.startsWith('--exclude=')).map((a) => a.slice('--exclude='.length))
const filters = argv.filter((a) => a !== '--coverage' && !a.startsWith('--exclude='))
const files = collect(join(root, 'test'), []).sort()
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .filter((f) => !excludes.some((x) => f.includes(x)))
if (files.length === 0) { console.error('no test files matched'); process.exit(1) }
// test/package/ installs the package as `npm pack` makes it from HEAD: pack it once, before the test
// files start (each file has its own time limit), for them to share (test/package/packed.ts)
if (files.some((f) => f.startsWith('test/package/'))) {
  spawnSync(process.execPath, ['--import', 'tsx', join('test', 'package', 'packed.ts')], { stdio: 'inherit', cwd: root })
}
let args = ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=60000', ...files]
if (coverage) {
  const c8 = createRequire(import.meta.url).resolve('c8/bin/c8.js')
  args = [c8, ...(filters.length > 0 ? ['--no-check-coverage'] : []), process.execPath, ...args]
}
const result = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root })
if (coverage && result.status === 0) {
  // c8 passes its floor when it measured nothing (0 of 0 lines): a run that mapped no src/ file fails
  const summary = JSON.parse(readFileSync(join(root, 'coverage', 'coverage-summary.json'), 'utf8'))
  if (!(summary.total.lines.total > 0)) {
    console.error('coverage: no line of src/ was measured (are the source maps of tsx still read?)')
    process.exit(1)
  }
}
process.exit(result.status ?? 1)
