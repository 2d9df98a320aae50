// Runs fast-json-stringify@5's own test files (node_modules/fast-json-stringify/test/*.test.js)
// against trellis' serializer compiler, through scripts/fjs-suite/{hook,adapter,tap}.cjs.
// Usage: node scripts/fjs-suite.mjs [--verbose] [file-filter ...]
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const dir = join(root, 'node_modules/fast-json-stringify/test')
const args = process.argv.slice(2)
const verbose = args.includes('--verbose')
const filters = args.filter((a) => !a.startsWith('--'))
const files = [...readdirSync(dir), ...readdirSync(join(dir, 'json-schema-test-suite')).map((f) => 'json-schema-test-suite/' + f)]
  .filter((f) => f.endsWith('.test.js') && (filters.length === 0 || filters.some((x) => f.includes(x)))).sort()
let pass = 0; let fail = 0
const rows = []
for (const file of files) {
  const r = spawnSync(process.execPath, ['--require', join(root, 'scripts/fjs-suite/hook.cjs'), join(dir, file)],
    { cwd: join(root, 'node_modules/fast-json-stringify'), encoding: 'utf8', timeout: 60000 })
  const last = (r.stdout || '').trim().split('\n').pop()
  let res
  try { res = JSON.parse(last) } catch { res = { pass: 0, fail: 1, failures: ['file did not run: ' + (r.stderr || '').split('\n').slice(0, 4).join(' | ')] } }
  pass += res.pass; fail += res.fail
  rows.push([file, res.pass, res.fail])
  const pct = res.pass + res.fail === 0 ? 100 : (100 * res.pass / (res.pass + res.fail))
  console.log(`${file.padEnd(34)} ${String(res.pass).padStart(4)} pass ${String(res.fail).padStart(4)} fail  ${pct.toFixed(1)}%`)
  if (verbose) for (const f of res.failures.slice(0, 30)) console.log('    - ' + f)
}
console.log(`\nTOTAL ${pass} pass, ${fail} fail (${(100 * pass / Math.max(1, pass + fail)).toFixed(1)}% of assertions)`)
