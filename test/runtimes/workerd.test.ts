// Cloudflare Workers: `trellis build --target worker` (the built dist/ CLI) writes the demo
// application (examples/demo-worker.mjs: examples/demo-app.mjs without its docs page) as one Worker
// module, and workerd (npm package `workerd`, installed on first use by ./install.mjs into a cache
// outside the repository) serves it on a loopback port; the checks go over HTTP: the spec's worked
// scenario (encapsulated decorators, bearer auth on context A), a validation 400 with its JSON body,
// a malformed JSON body, response stripping, the 404 route and the OpenAPI document, on both Fastify
// lines; then an application with the logger on (pino's lines on workerd's output). workerd refuses
// code generation from strings (`new Function`, `eval`) at all times, so every answer here is also
// proof that the Worker compiled nothing from a string. workerd is stopped by its PID.
// Skipped, naming the package, only when workerd cannot be installed or does not run here.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, startProcess, type Started } from './processes'
import { runChild } from '../run-child'
import { envWithoutCoverage } from '../run-tsc'

const root = join(__dirname, '..', '..')
const BIN = join(root, 'dist', 'bin', 'trellis.js')
// the first run installs the runtimes' packages (about 250 MB from npm)
const INSTALL_AND_RUN_MS = 300_000
const KEY = 'demo-key-change-me'

// the built command (dist/, which c8 does not map: off coverage), awaited: the test process goes on
// with other files' tests while it builds
async function buildWorker (app: string, out: string, ...flags: string[]): Promise<string> {
  const made = await runChild(process.execPath, [BIN, 'build', '--target', 'worker', app, '--out', out, ...flags], { cwd: root, env: { ...envWithoutCoverage(), NODE_OPTIONS: '' }, timeout: 120_000 })
  assert.equal(made.status, 0, `trellis build --target worker failed:\n${made.stdout}\n${made.stderr}`)
  for (const file of ['worker.mjs', 'workerd.capnp', 'wrangler.toml']) assert.ok(existsSync(join(out, file)), `${file} written`)
  return made.stdout
}

interface Served extends Started { base: string }

async function serve (workerd: string, dir: string): Promise<Served> {
  const port = await freePort()
  const { child, output, stop } = startProcess(workerd, ['serve', join(dir, 'workerd.capnp'), '--socket-addr', `http=127.0.0.1:${port}`], { cwd: dir })
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 150; i++) {
    try {
      await fetch(`${base}/nothing-here`)
      return { base, child, output, stop }
    } catch {
      if (child.exitCode !== null) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  await stop()
  throw new Error(`workerd did not serve on ${port}:\n${output()}`)
}

async function getJson (url: string, init?: RequestInit): Promise<{ status: number, type: string | null, body: unknown, headers: Headers }> {
  const res = await fetch(url, init)
  const text = await res.text()
  return { status: res.status, type: res.headers.get('content-type'), body: JSON.parse(text), headers: res.headers }
}

async function workerdOrSkip (t: { skip: (message: string) => void }): Promise<string | undefined> {
  assert.ok(existsSync(BIN), 'dist/ is missing: run `npm run build` first (npm test builds before testing)')
  const { runtimeBinary } = await import('./install.mjs')
  const found = runtimeBinary('workerd')
  if (found.bin === undefined) { t.skip(found.reason); return undefined }
  return found.bin
}

for (const line of [4, 5] as const) {
  test(`workerd serves the demo application built by trellis build --target worker (Fastify ${line} line)`, { timeout: INSTALL_AND_RUN_MS }, async (t) => {
    const workerd = await workerdOrSkip(t)
    if (workerd === undefined) return
    const out = mkdtempSync(join(tmpdir(), 'trellis-worker-'))
    try {
      const printed = await buildWorker('examples/demo-worker.mjs', out, '--line', String(line))
      assert.match(printed, new RegExp(`Fastify ${line} line\\): 2 validators, 4 serializers`))
      const worker = readFileSync(join(out, 'worker.mjs'), 'utf8')
      assert.match(worker, /export \{\s*\w+ as default\s*\}|export default/, 'an ES module with a default export')
      const served = await serve(workerd, out)
      try {
        const { base } = served
        // the worked scenario: context A needs the bearer key; B sees foo; C (inside B) sees foo and bar
        const noToken = await getJson(`${base}/one`)
        assert.equal(noToken.status, 401)
        assert.match(noToken.type ?? '', /^application\/json/)
        assert.deepEqual(noToken.body, { error: 'missing authorization header' })
        assert.equal(noToken.headers.get('www-authenticate'), 'Bearer')
        const badToken = await getJson(`${base}/one`, { headers: { authorization: 'Bearer wrong' } })
        assert.equal(badToken.status, 401)
        const withToken = await getJson(`${base}/one`, { headers: { authorization: `Bearer ${KEY}` } })
        assert.deepEqual([withToken.status, withToken.body], [200, { answer: 42 }])
        assert.deepEqual((await getJson(`${base}/two`)).body, { answer: 42, foo: 'foo' })
        assert.deepEqual((await getJson(`${base}/three`)).body, { answer: 42, foo: 'foo', bar: 'bar' })
        // validation: coercion and defaults, then a 400 with a JSON body
        const json = { 'content-type': 'application/json' }
        const created = await getJson(`${base}/items`, { method: 'POST', headers: json, body: '{"name":"pen","price":"9.5"}' })
        assert.deepEqual([created.status, created.body], [201, { name: 'pen', price: 9.5, quantity: 1, tags: [], total: 9.5 }])
        const invalid = await getJson(`${base}/items`, { method: 'POST', headers: json, body: '{"price":3}' })
        assert.equal(invalid.status, 400)
        assert.match(invalid.type ?? '', /^application\/json/)
        assert.deepEqual(invalid.body, { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: "body must have required property 'name'" })
        const malformed = await getJson(`${base}/items`, { method: 'POST', headers: json, body: '{"price":' })
        assert.equal(malformed.status, 400)
        assert.equal((malformed.body as { statusCode: number }).statusCode, 400)
        // response stripping: the stored password hash is not in the schema, so it never leaves
        const user = await getJson(`${base}/users/1`)
        assert.deepEqual([user.status, user.body], [200, { id: 1, name: 'Ada' }])
        assert.deepEqual((await getJson(`${base}/users/2`)).body, { error: 'no such user' })
        const notFound = await getJson(`${base}/nope`)
        assert.deepEqual([notFound.status, notFound.body], [404, { message: 'Route GET:/nope not found', error: 'Not Found', statusCode: 404 }])
        const doc = await getJson(`${base}/documentation/json`)
        assert.equal(doc.status, 200)
        assert.deepEqual(Object.keys((doc.body as { paths: object }).paths).sort(), ['/items', '/one', '/three', '/two', '/users/{id}'])
        assert.doesNotMatch(served.output(), /Uncaught|EvalError|Code generation/, 'workerd reported no error')
      } finally {
        await served.stop()
      }
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  })
}

test('workerd: the logger writes pino\'s JSON lines to the console', { timeout: INSTALL_AND_RUN_MS }, async (t) => {
  const workerd = await workerdOrSkip(t)
  if (workerd === undefined) return
  const out = mkdtempSync(join(tmpdir(), 'trellis-worker-'))
  try {
    await buildWorker('test/runtimes/fixtures/worker/logger-app.mjs', out, '--options')
    const served = await serve(workerd, out)
    try {
      const res = await getJson(`${served.base}/`)
      assert.deepEqual([res.status, res.body], [200, { hello: 'worker' }])
      // the readiness probe (GET /nothing-here) wrote its own 'request completed' before: wait for this
      // request's lines, the handler's and the completion with its id
      type Line = { msg?: string, level?: number, reqId?: string }
      // a line still being written is left for the next look
      const logLines = (): Line[] => served.output().split('\n').filter((l) => l.startsWith('{')).flatMap((l) => {
        try { return [JSON.parse(l) as Line] } catch { return [] }
      })
      const completed = (lines: Line[]): boolean => {
        const said = lines.find((l) => l.msg === 'hello from the worker')
        return said !== undefined && lines.some((l) => l.msg === 'request completed' && l.reqId === said.reqId)
      }
      for (let i = 0; i < 100 && !completed(logLines()); i++) await new Promise((resolve) => setTimeout(resolve, 100))
      const lines = logLines()
      const hello = lines.find((l) => l.msg === 'hello from the worker')
      assert.ok(hello !== undefined, `the handler's log line is on workerd's output:\n${served.output()}`)
      assert.equal(hello.level, 30)
      assert.ok(lines.some((l) => l.msg === 'request completed' && l.reqId === hello.reqId), 'and the request\'s own lines')
    } finally {
      await served.stop()
    }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
})
