// Runs every test file (test/**/*.test.ts) with node's own test runner, TypeScript loaded by tsx.
// Usage: node scripts/run-tests.mjs [path-filter ...]
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
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
const filters = process.argv.slice(2)
const files = collect(join(root, 'test'), []).sort()
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
if (files.length === 0) { console.error('no test files matched'); process.exit(1) }
const args = ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=60000', ...files]
const result = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root })
process.exit(result.status ?? 1)
