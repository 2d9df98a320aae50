/**
 * Faults of `trellis start --workers 2` under a bounded keep-alive load on 127.0.0.1
 * (keep-alive-load.ts, every request accounted for): a worker killed with SIGKILL costs only the
 * requests in flight on it, the primary forks a replacement within 1 s and the load goes on with no
 * other error; a replacement that throws at boot is retried with the back-off and the primary stays
 * up; SIGTERM to the primary during the load drains with no failed request among those a worker
 * had started (read from the workers' own 'incoming request' log lines). Each test runs a few seconds.
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runTrellis, stop, tempApp, freePort, sleep, request, type Running } from './helpers'
import { keepAliveLoad } from './keep-alive-load'

/** /work answers after 5 ms with the worker's pid; BOOT_FAILURES names a file counting boots that must throw. */
const APP_FAULTS = `
const fs = require('node:fs')
module.exports = async function app (app) {
  const file = process.env.BOOT_FAILURES
  if (file !== undefined && fs.existsSync(file)) {
    const left = Number(fs.readFileSync(file, 'utf8'))
    if (left > 0) { fs.writeFileSync(file, String(left - 1)); throw new Error('injected boot failure') }
  }
  app.get('/work', async () => { await new Promise((resolve) => setTimeout(resolve, 5)); return { pid: process.pid, version: app.version } })
}
`

/** The Fastify lines `trellis start` is run on (TRELLIS_FASTIFY_LINE): the workers follow it. */
const LINES = ['4', '5']
const CONNECTIONS = 8

async function startCluster (line: string): Promise<{ run: Running, port: number, dir: string }> {
  const dir = tempApp({ 'app.cjs': APP_FAULTS })
  const port = await freePort()
  const run = runTrellis(['start', '-a', '127.0.0.1', '-p', String(port), '--workers', '2', 'app.cjs'], { cwd: dir, env: { BOOT_FAILURES: join(dir, 'boot-failures'), TRELLIS_FASTIFY_LINE: line } })
  await run.waitFor(() => run.lines.filter((l) => l.msg === 'worker listening').length >= 2)
  assert.equal(JSON.parse((await request(port, '/work')).body).version.split('.')[0], line, 'the application runs on its line')
  return { run, port, dir }
}

const listeningCount = (run: Running): number => run.lines.filter((l) => l.msg === 'worker listening').length

for (const line of LINES) {
  describe(`trellis start --workers 2 under load (v${line} line)`, { concurrency: false }, () => {
    test('SIGKILL of a worker costs only its in-flight requests; a replacement is forked within 1 s; the load goes on', async () => {
      const { run, port } = await startCluster(line)
      const load = keepAliveLoad(port, { connections: CONNECTIONS, path: '/work', prefix: 'kill' })
      try {
        await sleep(600)
        const pids = Object.keys(load.stats.byPid).map(Number)
        assert.equal(pids.length, 2, `both workers take load: ${JSON.stringify(load.stats.byPid)}`)
        const victim = pids[0]
        // what was in flight on the victim when it died: its connections' unanswered requests, and
        // those of connections that had no answer yet (they may be on it)
        const inFlight = load.inFlight().filter((r) => r.pid === victim || r.pid === null)
        process.kill(victim, 'SIGKILL')
        const died = await run.waitFor((l) => l.msg === 'worker died: restarting' && l.workerPid === victim)
        const forked = await run.waitFor((l) => l.msg === 'worker forked' && l.time >= died.time)
        assert.ok(forked.time - died.time < 1000, `replacement forked ${forked.time - died.time} ms after the death`)
        await run.waitFor(() => listeningCount(run) >= 3)
        const answeredAtReplacement = load.stats.answered
        await sleep(600)
        const stats = await load.stop()
        const others = stats.failures.filter((f) => f.pid !== victim && f.pid !== null)
        assert.deepEqual(others, [], 'no request failed on the surviving worker')
        assert.ok(stats.failures.length <= inFlight.length, `${stats.failures.length} failures, ${inFlight.length} in flight on the victim: ${JSON.stringify({ failures: stats.failures, inFlight })}`)
        assert.deepEqual(Object.keys(stats.byStatus), ['200'], JSON.stringify(stats.byStatus))
        assert.ok(stats.answered > answeredAtReplacement, 'the load went on after the replacement')
        assert.equal(stats.refusedConnects, 0)
        assert.equal(run.child.exitCode, null, 'the primary is up')
        // the replacement takes new connections
        const fresh = keepAliveLoad(port, { connections: 4, path: '/work', prefix: 'fresh' })
        await sleep(300)
        const after = await fresh.stop()
        assert.deepEqual(after.failures, [])
        assert.equal(Object.keys(after.byStatus).join(), '200')
        assert.ok(Object.keys(after.byPid).map(Number).every((pid) => pid !== victim))
        assert.equal(JSON.stringify(Object.values(after.byPid).length > 0), 'true')
        console.log(`# SIGKILL: ${stats.answered} answered, ${stats.failures.length} failed, ${inFlight.length} in flight on the victim; forked after ${forked.time - died.time} ms`)
      } finally {
        await load.stop()
        await stop(run)
      }
    })

    test('a replacement that throws at boot is retried with the back-off; the primary stays up and the load goes on', async () => {
      const { run, port, dir } = await startCluster(line)
      const load = keepAliveLoad(port, { connections: CONNECTIONS, path: '/work', prefix: 'boot' })
      try {
        await sleep(400)
        const pids = Object.keys(load.stats.byPid).map(Number)
        assert.equal(pids.length, 2)
        const victim = pids[0]
        writeFileSync(join(dir, 'boot-failures'), '2')
        const inFlight = load.inFlight().filter((r) => r.pid === victim || r.pid === null)
        process.kill(victim, 'SIGKILL')
        await run.waitFor(() => listeningCount(run) >= 3, 20000)
        const deaths = run.lines.filter((l) => l.msg === 'worker died: restarting')
        assert.equal(deaths.length, 3, JSON.stringify(deaths))
        assert.equal(deaths[0].signal, 'SIGKILL')
        assert.deepEqual(deaths.slice(1).map((d) => d.code), [1, 1], 'the two boots that threw exit 1')
        assert.deepEqual(deaths.map((d) => d.restartIn), [200, 400, 800], 'the back-off doubles')
        assert.ok(run.lines.some((l) => l.err?.message === 'injected boot failure' || (typeof l.msg === 'string' && l.msg.includes('injected boot failure'))) || run.stderr().includes('injected boot failure'))
        await sleep(300)
        const stats = await load.stop()
        assert.equal(run.child.exitCode, null, 'the primary is up')
        assert.ok(stats.failures.length <= inFlight.length, JSON.stringify({ failures: stats.failures, inFlight }))
        assert.deepEqual(stats.failures.filter((f) => f.pid !== victim && f.pid !== null), [])
        assert.deepEqual(Object.keys(stats.byStatus), ['200'])
        assert.equal(stats.refusedConnects, 0)
      } finally {
        await load.stop()
        await stop(run)
      }
    })

    test('SIGTERM to the primary during the load: no request a worker had started fails; exit 0', async () => {
      const { run, port } = await startCluster(line)
      const load = keepAliveLoad(port, { connections: CONNECTIONS, path: '/work', prefix: 'term' })
      try {
        await sleep(600)
        const before = load.stats.answered
        assert.ok(before > 0)
        run.child.kill('SIGTERM')
        const { code } = await run.exited
        const stats = await load.stop()
        assert.equal(code, 0)
        const started = new Set(run.lines.filter((l) => l.msg === 'incoming request').map((l) => l.reqId as string))
        const completed = new Set(run.lines.filter((l) => l.msg === 'request completed').map((l) => l.reqId as string))
        const failedStarted = stats.failures.filter((f) => started.has(f.id))
        assert.deepEqual(failedStarted, [], 'every request a worker started was answered')
        for (const id of started) assert.ok(completed.has(id), `${id} started and never completed`)
        for (const status of Object.keys(stats.byStatus)) assert.ok(status === '200' || status === '503', JSON.stringify(stats.byStatus))
        console.log(`# SIGTERM: ${stats.answered} answered (${JSON.stringify(stats.byStatus)}), ${started.size} started by the workers, ${stats.failures.length} failed before a worker read them, ${stats.refusedConnects} connections refused after the close`)
      } finally {
        await load.stop()
        await stop(run)
      }
    })
  })
}
