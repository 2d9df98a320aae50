// Runs test/ecosystem against the real fastify@4.29.1 instead of trellis (the same tests, the same
// plugins): every test that passes on trellis must pass there too, or it asserts something Fastify
// does not do. Uses the fastify@4.29.1 package the conformance harness fetches into the gitignored
// conformance/.work/ (npm pack; fetched here when missing).
// Usage: npm run test:ecosystem-on-fastify [-- path-filter ...]
import { spawnSync } from 'node:child_process'
import { SUITES } from '../conformance/suites.mjs'

const suite = SUITES['4.29']
suite.fetch()
const filters = process.argv.slice(2)
console.log(`# test/ecosystem on fastify@${suite.version} (${suite.src})`)
const runner = new URL('./run-tests.mjs', import.meta.url).pathname
const result = spawnSync(process.execPath, [runner, ...(filters.length > 0 ? filters : ['test/ecosystem/'])], {
  stdio: 'inherit', env: { ...process.env, ECOSYSTEM_TARGET: suite.src }
})
process.exit(result.status ?? 1)
