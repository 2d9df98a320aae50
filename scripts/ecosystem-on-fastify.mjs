// Runs test/ecosystem against the real Fastify instead of trellis (the same tests, the same plugins):
// every test that passes on trellis must pass there too, or it asserts something Fastify does not do.
// Two columns, one per line (test/ecosystem/target.ts):
//   v4: fastify@4.29.1 with the plugins' Fastify-4 majors: the package the conformance harness
//       fetches into the gitignored conformance/.work/ (npm pack; fetched here when missing);
//   v5: fastify@5.12.8 (the `fastify` devDependency, node_modules/fastify) with their Fastify-5
//       majors (the `fastify5-<name>` aliases), ECOSYSTEM_LINE=5.
// Usage: npm run test:ecosystem-on-fastify [-- --line=4|5] [-- path-filter ...]
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { SUITES } from '../conformance/suites.mjs'

const argv = process.argv.slice(2)
const lineArg = argv.find((a) => a.startsWith('--line='))
const lines = lineArg === undefined ? ['4', '5'] : [lineArg.slice('--line='.length)]
const filters = argv.filter((a) => !a.startsWith('--line='))
const runner = new URL('./run-tests.mjs', import.meta.url).pathname

function fastify4 () {
  const suite = SUITES['4.29']
  suite.fetch()
  return { version: suite.version, src: suite.src }
}
function fastify5 () {
  const pkg = createRequire(import.meta.url).resolve('fastify/package.json')
  return { version: createRequire(import.meta.url)('fastify/package.json').version, src: dirname(pkg) }
}

const count = (output, label) => Number((output.match(new RegExp(`^# ${label} (\\d+)$`, 'm')) ?? [])[1] ?? NaN)
const rows = []
let status = 0
for (const line of lines) {
  if (line !== '4' && line !== '5') throw new Error(`--line=${line}: 4 or 5`)
  const target = line === '5' ? fastify5() : fastify4()
  console.log(`# test/ecosystem, Fastify ${line} line, on fastify@${target.version} (${target.src})`)
  const result = spawnSync(process.execPath, [runner, ...(filters.length > 0 ? filters : ['test/ecosystem/'])], {
    stdio: ['inherit', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ECOSYSTEM_TARGET: target.src, ECOSYSTEM_LINE: line }
  })
  process.stdout.write(result.stdout)
  status ||= result.status ?? 1
  const out = result.stdout
  rows.push(`| ${line} | fastify@${target.version} | ${count(out, 'tests')} | ${count(out, 'pass')} | ${count(out, 'fail')} | ${count(out, 'skipped')} | ${count(out, 'cancelled')} |`)
}
console.log(`\n| line | target | tests | pass | fail | skipped | cancelled |\n|---|---|---|---|---|---|---|\n${rows.join('\n')}`)
process.exit(status)
