// trellis under Bun and Deno natively: ./runner.ts, run by each runtime's binary (the npm packages
// `bun` and `deno`, installed on first use by ./install.mjs into a cache outside the repository),
// loads the built dist/ and serves with listen() on Bun.serve / Deno.serve over a loopback port: the
// behaviour table on both lines (socket and app.fetch, the same answers), the runtime's own
// convention with a detached app.fetch, listen's results, app.server.address(), graceful close,
// the log line and runtimeServer option, ecosystem plugins (@fastify/websocket on node:http), and
// request.raw / reply.raw as plugins use them (../fetch/raw-request.ts).
// Each check the runner reports is a subtest here. A runtime whose package cannot be installed or
// whose binary does not run here is skipped, saying which package.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { CASES } from '../fetch/behaviour-table'
import { RAW_CASES } from '../fetch/raw-request'

const root = join(__dirname, '..', '..')
// the first run installs the binaries (about 200 MB from npm): more than the suite's 60 s per test
const INSTALL_AND_RUN_MS = 300_000

interface Result { name: string, ok: boolean, error?: string }

async function run (bin: string, args: string[]): Promise<{ results: Result[], done: boolean, output: string }> {
  const child = spawn(bin, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
  // a hung runtime is stopped (by its own pid) rather than holding the suite
  const timer = setTimeout(() => { child.kill('SIGKILL') }, 120_000)
  await new Promise<void>((resolve) => child.once('close', () => resolve()))
  clearTimeout(timer)
  const results = output.split('\n').filter((l) => l.startsWith('RESULT ')).map((l) => JSON.parse(l.slice(7)) as Result)
  return { results, done: output.split('\n').includes('DONE'), output }
}

const tableChecks = [4, 5].reduce((n, line) => n + CASES.filter((c) => c.lines === undefined || c.lines.includes(line as 4 | 5)).length, 0)

for (const [runtime, args] of [['bun', ['test/runtimes/runner.ts']], ['deno', ['run', '-A', '--sloppy-imports', 'test/runtimes/runner.ts']]] as const) {
  test(`${runtime}: trellis' dist/ served natively passes the behaviour table, conventions and plugins`, { timeout: INSTALL_AND_RUN_MS }, async (t) => {
    assert.ok(existsSync(join(root, 'dist', 'entry', 'index.cjs')), 'dist/ is missing: run `npm run build` first (npm test builds before testing)')
    const { runtimeBinary } = await import('./install.mjs')
    const found = runtimeBinary(runtime)
    if (found.bin === undefined) { t.skip(found.reason); return }
    t.diagnostic(`${runtime} ${found.version}`)
    const { results, done, output } = await run(found.bin, [...args])
    assert.ok(done, `the runner did not finish:\n${output.slice(-3000)}`)
    assert.equal(results.filter((r) => r.name.startsWith('table ')).length, tableChecks, 'every case of the behaviour table ran on both lines')
    assert.ok(results.length >= tableChecks + 12, `conventions and plugins ran (${results.length} checks)`)
    assert.equal(results.filter((r) => r.name.startsWith('raw request, ')).length, 2 * RAW_CASES.length, 'every raw request case ran through app.fetch and over a socket')
    for (const result of results) {
      await t.test(result.name, () => { if (!result.ok) assert.fail(result.error) })
    }
  })
}

async function freePort (): Promise<number> {
  const { createServer } = await import('node:net')
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

test('bun: `export default { fetch: app.fetch }` is served by Bun itself', { timeout: INSTALL_AND_RUN_MS }, async (t) => {
  assert.ok(existsSync(join(root, 'dist', 'entry', 'index.cjs')), 'dist/ is missing: run `npm run build` first (npm test builds before testing)')
  const { runtimeBinary } = await import('./install.mjs')
  const found = runtimeBinary('bun')
  if (found.bin === undefined) { t.skip(found.reason); return }
  const port = await freePort()
  const child = spawn(found.bin, ['test/runtimes/bun-default-export.mjs'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PORT: String(port) } })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
  try {
    let res: Response | undefined
    for (let i = 0; i < 100 && res === undefined; i++) {
      try { res = await fetch(`http://127.0.0.1:${port}/`) } catch { await new Promise((resolve) => setTimeout(resolve, 100)) }
    }
    assert.ok(res !== undefined, `bun did not serve on ${port}:\n${output}`)
    assert.deepEqual(await res.json(), { hello: 'world' })
    const bad = await fetch(`http://127.0.0.1:${port}/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    assert.equal(bad.status, 400)
    const ok = await fetch(`http://127.0.0.1:${port}/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' })
    assert.deepEqual(await ok.json(), { got: 'x' })
  } finally {
    child.kill('SIGKILL')
  }
})
