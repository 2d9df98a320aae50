/**
 * `trellis start` in one process, over a real socket: CommonJS, ES module and TypeScript apps,
 * flags and environment variables, exported options, clear errors; graceful close on SIGTERM
 * (in-flight answered, new requests on a kept-alive socket get 503 + Connection: close, onClose
 * hooks run, exit 0), the close timeout, and a second signal forcing the exit.
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { join } from 'node:path'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { runChild, type ChildResult } from '../run-child'
import { APP_CJS, APP_ESM, APP_TS, APP_BROKEN, APP_READINESS } from './fixtures'
import { BIN, ROOT, assertBuilt, runTrellis, stop, request, tempApp, listeningLine, portOf, freePort } from './helpers'

describe('trellis start', { concurrency: 3 }, () => {
  test('serves a CommonJS app with --prefix, the port from TRELLIS_PORT and --body-limit', async () => {
    const dir = tempApp({ 'app.cjs': APP_CJS })
    const port = await freePort()
    const run = runTrellis(['start', '--address', '127.0.0.1', '--prefix', 'api', '--body-limit', '20', 'app.cjs'], { cwd: dir, env: { TRELLIS_PORT: String(port) } })
    try {
      const line = await run.waitFor(listeningLine)
      assert.equal(portOf(line), port)
      assert.deepEqual(JSON.parse((await request(port, '/api/hello')).body), { hello: 'world' })
      assert.equal((await request(port, '/hello')).status, 404, 'routes live under the prefix')
      const small = await request(port, '/api/echo', { method: 'POST', body: '{"a":"12345"}', headers: { 'content-type': 'application/json' } })
      assert.equal(small.status, 200)
      const big = await request(port, '/api/echo', { method: 'POST', body: JSON.stringify({ a: 'x'.repeat(30) }), headers: { 'content-type': 'application/json' } })
      assert.equal(big.status, 413, 'the --body-limit applies (the exported bodyLimit 16 is not used without --options)')
      assert.equal(JSON.parse(big.body).code, 'FST_ERR_CTP_BODY_TOO_LARGE')
    } finally { await stop(run) }
  })

  test('an ES module app; --options uses the server options it exports, and a flag still wins', async () => {
    const dir = tempApp({ 'app.mjs': APP_ESM })
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', '--options', 'app.mjs'], { cwd: dir })
    try {
      const port = portOf(await run.waitFor(listeningLine))
      assert.deepEqual(JSON.parse((await request(port, '/hello')).body), { esm: true, id: 'from-exported-options' })
      const body = JSON.stringify({ a: 'xxxxxxxx' })
      assert.equal((await request(port, '/echo', { method: 'POST', body, headers: { 'content-type': 'application/json' } })).status, 413, 'exported bodyLimit 8')
    } finally { await stop(run) }
    const flagged = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', '--options', '--body-limit', '1000', 'app.mjs'], { cwd: dir })
    try {
      const port = portOf(await flagged.waitFor(listeningLine))
      const answer = await request(port, '/echo', { method: 'POST', body: JSON.stringify({ a: 'xxxxxxxx' }), headers: { 'content-type': 'application/json' } })
      assert.equal(answer.status, 200, '--body-limit overrides the exported option')
    } finally { await stop(flagged) }
  })

  test('a TypeScript app through the user\'s loader (node --import tsx)', async () => {
    const dir = tempApp({ 'app.ts': APP_TS })
    // --import resolves tsx from the working directory: the repo, where it is installed
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', join(dir, 'app.ts')], { execArgv: ['--import', 'tsx'] })
    try {
      const port = portOf(await run.waitFor(listeningLine))
      assert.deepEqual(JSON.parse((await request(port, '/hello')).body), { hello: 'typescript' })
    } finally { await stop(run) }
  })

  test('SIGTERM: the in-flight request is answered, a new one on its kept-alive socket gets 503 + Connection: close, onClose runs, exit 0', async () => {
    const dir = tempApp({ 'app.cjs': APP_CJS })
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', 'app.cjs'], { cwd: dir })
    try {
      const port = portOf(await run.waitFor(listeningLine))
      const socket = net.connect(port, '127.0.0.1')
      let raw = ''
      socket.setEncoding('utf8')
      socket.on('data', (c: string) => { raw += c })
      await new Promise((resolve) => socket.once('connect', resolve))
      socket.write('GET /slow?ms=800 HTTP/1.1\r\nHost: x\r\n\r\n')
      await run.waitFor((l) => l.msg === 'incoming request' && l.req?.url === '/slow?ms=800')
      run.child.kill('SIGTERM')
      await run.waitFor((l) => typeof l.msg === 'string' && l.msg.startsWith('closing'))
      socket.write('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n')
      const closed = new Promise((resolve) => socket.once('close', resolve))
      const { code } = await run.exited
      await closed
      assert.equal(code, 0)
      const responses = raw.split(/(?=HTTP\/1\.1 )/)
      assert.equal(responses.length, 2, raw)
      assert.match(responses[0], /^HTTP\/1\.1 200 /)
      assert.match(responses[0], /"slow":true/)
      assert.match(responses[1], /^HTTP\/1\.1 503 /)
      assert.match(responses[1], /\r\nconnection: close\r\n/i)
      assert.ok(run.lines.some((l) => l.msg === 'onClose hook ran'), 'onClose hooks ran')
      assert.ok(run.lines.some((l) => l.msg === 'closed'))
    } finally { await stop(run) }
  })

  test('--drain-delay: readiness fails first while requests are still served, then the process closes', async () => {
    const dir = tempApp({ 'app.cjs': APP_READINESS })
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', '--drain-delay', '1500', 'app.cjs'], { cwd: dir })
    try {
      const port = portOf(await run.waitFor(listeningLine))
      assert.equal((await request(port, '/ready')).status, 200)
      const signalled = Date.now()
      run.child.kill('SIGTERM')
      await run.waitFor((l) => typeof l.msg === 'string' && l.msg.startsWith('draining'))
      const ready = await request(port, '/ready')
      assert.equal(ready.status, 503, 'readiness flips first')
      assert.deepEqual(JSON.parse(ready.body), { ready: false })
      assert.equal((await request(port, '/hello')).status, 200, 'other requests are still served while draining')
      assert.ok(!run.lines.some((l) => typeof l.msg === 'string' && l.msg.startsWith('closing')), 'not closing yet')
      const { code } = await run.exited
      assert.equal(code, 0)
      assert.ok(Date.now() - signalled >= 1400, 'closed after the drain delay')
    } finally { await stop(run) }
  })

  test('a request still running at --close-timeout: the process exits 1 anyway, and says so', async () => {
    const dir = tempApp({ 'app.cjs': APP_CJS })
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', '--close-timeout', '300', 'app.cjs'], { cwd: dir })
    try {
      const port = portOf(await run.waitFor(listeningLine))
      const pending = request(port, '/slow?ms=20000').catch((err: Error) => err)
      await run.waitFor((l) => l.msg === 'incoming request')
      const signalled = Date.now()
      run.child.kill('SIGTERM')
      const { code } = await run.exited
      assert.equal(code, 1)
      assert.ok(Date.now() - signalled < 10000, 'well before the request would have finished')
      assert.ok(run.lines.some((l) => l.msg === 'close did not finish in time: exiting'))
      assert.ok((await pending) instanceof Error, 'the unfinished request is cut off')
    } finally { await stop(run) }
  })

  test('the installed bin run as is (node_modules/.bin/trellis, the production command): the process signalled is the server; SIGTERM closes it, exit 0', async () => {
    // `npx trellis start` is not this: npm 11's exec runs `sh -c trellis ...` and, on SIGTERM, exits
    // without passing it on, leaving the server running (docs/deployment.md says so next to npx)
    const dir = tempApp({ 'app.cjs': APP_CJS })
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true })
    symlinkSync(ROOT, join(dir, 'node_modules', 'trellis'))
    symlinkSync(join('..', 'trellis', 'dist', 'bin', 'trellis.js'), join(dir, 'node_modules', '.bin', 'trellis'))
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', 'app.cjs'], { cwd: dir, command: join(dir, 'node_modules', '.bin', 'trellis') })
    try {
      const line = await run.waitFor(listeningLine)
      assert.equal(line.pid, run.child.pid, 'no wrapper process between the caller and the server')
      assert.equal((await request(portOf(line), '/hello')).status, 200)
      run.child.kill('SIGTERM')
      const { code } = await run.exited
      assert.equal(code, 0)
      assert.ok(run.lines.some((l) => l.msg === 'onClose hook ran'))
      assert.ok(run.lines.some((l) => l.msg === 'closed'))
    } finally { await stop(run) }
  })

  test('a second signal while closing exits at once', async () => {
    const dir = tempApp({ 'app.cjs': APP_CJS })
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', 'app.cjs'], { cwd: dir })
    try {
      const port = portOf(await run.waitFor(listeningLine))
      request(port, '/slow?ms=20000').catch(() => {})
      await run.waitFor((l) => l.msg === 'incoming request')
      run.child.kill('SIGTERM')
      await run.waitFor((l) => typeof l.msg === 'string' && l.msg.startsWith('closing'))
      run.child.kill('SIGINT')
      const { code } = await run.exited
      assert.equal(code, 1)
      assert.ok(run.lines.some((l) => l.msg === 'second signal while closing: exiting now' && l.signal === 'SIGINT'))
    } finally { await stop(run) }
  })

  test('a close asked by the primary, then the group\'s Ctrl+C reaching the worker: one graceful close, exit 0', async () => {
    // a cluster worker as the primary drives it: an IPC channel, its shutdown message, then the
    // SIGINT a terminal sends the whole process group (which may arrive after the message)
    assertBuilt()
    const dir = tempApp({ 'app.cjs': APP_CJS })
    const child = spawn(process.execPath, [BIN, 'start', '-a', '127.0.0.1', '-p', '0', 'app.cjs'], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => { out += chunk.toString() })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    try {
      for (let i = 0; i < 300 && !out.includes('Server listening'); i++) await new Promise((resolve) => setTimeout(resolve, 50))
      assert.ok(out.includes('Server listening'), out)
      // a request in flight keeps the close going while the signal arrives
      const port = Number(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1])
      const slow = request(port, '/slow?ms=400')
      for (let i = 0; i < 100 && !out.includes('incoming request'); i++) await new Promise((resolve) => setTimeout(resolve, 20))
      child.send('trellis:shutdown')
      await new Promise((resolve) => setTimeout(resolve, 20))
      child.kill('SIGINT')
      assert.equal(await exited, 0)
      assert.equal((await slow).status, 200)
      assert.ok(out.includes('"msg":"closed"'), out)
      assert.ok(!out.includes('second signal'), out)
    } finally { if (child.exitCode === null) child.kill('SIGKILL') }
  })

  test('an app that fails to load: exit 1 with its error on stderr', async () => {
    const dir = tempApp({ 'app.cjs': APP_BROKEN })
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', 'app.cjs'], { cwd: dir })
    const { code } = await run.exited
    assert.equal(code, 1)
    assert.match(run.stderr(), /the application failed to start: Error: database unreachable at boot/)
  })

  test('clear usage errors: missing file, bad flag value, not a plugin, TypeScript without a loader; --pretty-logs without pino-pretty', async () => {
    assertBuilt()
    const dir = tempApp({ 'data.cjs': 'module.exports = { not: "a plugin" }', 'app.ts': APP_TS, 'app.cjs': APP_CJS })
    const cli = (args: string[]): Promise<ChildResult> => runChild(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 20000 })
    const missing = (await cli(['start']))
    assert.equal(missing.status, 1)
    assert.match(missing.stderr, /missing the application file/)
    assert.match(missing.stderr, /--workers <value>/, 'followed by the usage')
    assert.match((await cli(['start', 'nope.js'])).stderr, /application file not found: .*nope\.js/)
    assert.match((await cli(['start', '--port', 'x', 'app.cjs'])).stderr, /--port must be a whole number, got "x"/)
    assert.match((await cli(['start', 'data.cjs'])).stderr, /must export a plugin function/)
    // Node lines that strip types themselves (process.features.typescript) load it; the others say how to add a loader
    if (!(process.features as { typescript?: unknown }).typescript) {
      assert.match((await cli(['start', '-p', '0', '-a', '127.0.0.1', 'app.ts'])).stderr, /is TypeScript: start trellis with a loader, e\.g\. NODE_OPTIONS="--import tsx"/)
    }
    assert.match((await cli(['frobnicate'])).stderr, /unknown command "frobnicate"/)
    const help = (await cli(['start', '--help']))
    assert.equal(help.status, 0)
    assert.match(help.stdout, /\[env: TRELLIS_PORT or PORT\]/)
    assert.match((await cli(['version'])).stdout, /^\d+\.\d+\.\d+\n$/)
  })

  test('--pretty-logs with pino-pretty installed next to the app: log lines go through it', async () => {
    // a stand-in pino-pretty (a pino transport: a function returning a writable stream) in the app's
    // node_modules, so the test does not depend on the real package being installed
    const dir = tempApp({ 'app.cjs': APP_CJS })
    mkdirSync(join(dir, 'node_modules', 'pino-pretty'), { recursive: true })
    writeFileSync(join(dir, 'node_modules', 'pino-pretty', 'index.js'), `
const { Writable } = require('node:stream')
module.exports = () => new Writable({
  write (chunk, _enc, cb) {
    const lines = String(chunk).split('\\n').filter(Boolean).map((line) => 'PRETTY ' + JSON.parse(line).msg + '\\n')
    process.stdout.write(lines.join(''), cb)
  }
})
`)
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', '--pretty-logs', 'app.cjs'], { cwd: dir })
    try {
      const deadline = Date.now() + 30000
      while (!/PRETTY Server listening at http:\/\/127\.0\.0\.1:\d+/.test(run.stdout()) && Date.now() < deadline && run.child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      assert.match(run.stdout(), /PRETTY Server listening at http:\/\/127\.0\.0\.1:\d+/)
      assert.doesNotMatch(run.stderr(), /needs the optional package/)
    } finally { await stop(run) }
  })

  test('--pretty-logs without pino-pretty installed: a clear message, JSON logs, still serving', async () => {
    const dir = tempApp({ 'app.cjs': APP_CJS })
    let prettyInstalled = true
    try { require.resolve('pino-pretty') } catch { prettyInstalled = false }
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', '--pretty-logs', 'app.cjs'], { cwd: dir })
    try {
      if (prettyInstalled) {
        await new Promise((resolve) => setTimeout(resolve, 1500))
        assert.doesNotMatch(run.stderr(), /needs the optional package pino-pretty/)
        return
      }
      const port = portOf(await run.waitFor(listeningLine))
      assert.match(run.stderr(), /--pretty-logs needs the optional package pino-pretty \(npm install --save-dev pino-pretty\); logging JSON instead/)
      assert.equal((await request(port, '/hello')).status, 200)
    } finally { await stop(run) }
  })
})
