/**
 * @fastify/otel (0.21.2, its newest release, which still supports Fastify 4) loads unchanged on
 * trellis: its own test suite (from its npm tarball, fetched into the gitignored conformance/.work/
 * with its test dependencies, never committed) runs against trellis's built package, as the plugin's
 * `test:v4` script runs it against Fastify 4; on the Fastify 5 line (ECOSYSTEM_LINE=5) against
 * trellis/v5. Under `npm run test:ecosystem-on-fastify` it runs against the real fastify@4.29.1 (or
 * fastify@5.12.8) instead. Needs `npm run build` (npm test builds first) and the npm registry (or
 * npm's cache) the first time.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { line, onFastify } from './target'

const TESTS = 73

test('@fastify/otel\'s own test suite passes on the target', { timeout: 240_000 }, async () => {
  const { runSuite, VERSION } = await import(join(__dirname, '..', '..', 'scripts', 'fastify-otel-suite.mjs')) as {
    runSuite: (target: string) => Promise<{ tests: number, pass: number, fail: number, output: string }>, VERSION: string
  }
  const target = line === 5 ? (onFastify ? 'fastify5' : 'trellis-v5') : (onFastify ? 'fastify' : 'trellis')
  const result = await runSuite(target)
  const failures = result.output.split('\n').filter((l) => /^\s*not ok/.test(l)).join('\n')
  assert.equal(result.fail, 0, `@fastify/otel@${VERSION} on ${target}:\n${failures}`)
  assert.equal(result.tests, TESTS, `the suite's ${TESTS} tests ran`)
  assert.equal(result.pass, TESTS)
})
