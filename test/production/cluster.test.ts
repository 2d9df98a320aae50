/**
 * `trellis start --workers N` (node:cluster): the workers share the port, a worker that dies is
 * restarted with back-off and the primary logs it, SIGTERM to the primary closes every worker
 * gracefully and the primary exits 0, and an app that cannot start is not restarted forever.
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { APP_CJS, APP_BROKEN } from './fixtures'
import { runTrellis, stop, request, tempApp, freePort } from './helpers'
import { PRETTY_MISSING } from '../../src/cli/pretty'

async function distinctPids (port: number, want: number, tries = 60): Promise<Set<number>> {
  const pids = new Set<number>()
  for (let i = 0; i < tries && pids.size < want; i++) pids.add(JSON.parse((await request(port, '/pid')).body).pid)
  return pids
}

describe('trellis start --workers', { concurrency: true }, () => {
  test('two workers answer on one port; one killed is restarted with back-off and logged; SIGTERM closes all, exit 0', async () => {
    const dir = tempApp({ 'app.cjs': APP_CJS })
    const port = await freePort()
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', String(port), '--workers', '2', 'app.cjs'], { cwd: dir })
    try {
      await run.waitFor((l) => l.msg === 'starting workers' && l.workers === 2 && l.role === 'primary')
      const listening = async (n: number): Promise<void> => {
        for (;;) {
          if (run.lines.filter((l) => l.msg === 'worker listening').length >= n) return
          await run.waitFor(() => run.lines.filter((l) => l.msg === 'worker listening').length >= n)
        }
      }
      await listening(2)
      const pids = await distinctPids(port, 2)
      assert.equal(pids.size, 2, 'both workers take requests')
      assert.ok(!pids.has(run.child.pid as number), 'the primary serves nothing itself')

      // request ids are unique across the workers, and each worker's log line names its worker
      const answers: Array<{ id: string, pid: number }> = []
      for (let i = 0; i < 8; i++) answers.push(JSON.parse((await request(port, '/whoami')).body) as { id: string, pid: number })
      assert.equal(new Set(answers.map((a) => a.id)).size, answers.length, JSON.stringify(answers))
      assert.equal(new Set(answers.map((a) => a.pid)).size, 2, 'both workers answered')
      for (const a of answers) assert.match(a.id, /^req-w\d+-[0-9a-z]+$/)
      await run.waitFor((l) => l.msg === 'request completed' && l.reqId === answers[answers.length - 1].id)
      const requestLines = run.lines.filter((l) => typeof l.reqId === 'string' && l.reqId.startsWith('req-w'))
      assert.ok(requestLines.length >= answers.length * 2)
      for (const line of requestLines) assert.equal(`req-w${String(line.worker)}-`, line.reqId.slice(0, `req-w${String(line.worker)}-`.length), JSON.stringify(line))
      const listeningLines = run.lines.filter((l) => l.msg === 'Server listening at ' + `http://127.0.0.1:${port}`)
      assert.deepEqual(listeningLines.map((l) => typeof l.worker).sort(), ['number', 'number'])

      const victim = [...pids][0]
      process.kill(victim, 'SIGKILL')
      const died = await run.waitFor((l) => l.msg === 'worker died: restarting')
      assert.equal(died.workerPid, victim)
      assert.equal(died.signal, 'SIGKILL')
      assert.equal(died.restartIn, 200, 'the first restart waits the base delay')
      await listening(3)
      const after = await distinctPids(port, 2)
      assert.equal(after.size, 2)
      assert.ok(!after.has(victim), 'a new worker replaced the dead one')

      run.child.kill('SIGTERM')
      const { code } = await run.exited
      assert.equal(code, 0)
      const exits = run.lines.filter((l) => l.msg === 'worker exited')
      assert.equal(exits.length, 2)
      assert.ok(exits.every((l) => l.code === 0))
      assert.equal(run.lines.filter((l) => l.msg === 'onClose hook ran').length, 2, 'each worker ran its onClose hooks')
      assert.ok(run.lines.some((l) => l.msg === 'all workers exited' && l.exitCode === 0))
    } finally { await stop(run) }
  })

  test('Ctrl+C (SIGINT to the whole process group): one graceful close, not a forced exit; exit 0', async () => {
    const dir = tempApp({ 'app.cjs': APP_CJS })
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', '--workers', '2', 'app.cjs'], { cwd: dir, detached: true })
    try {
      await run.waitFor(() => run.lines.filter((l) => l.msg === 'worker listening').length >= 2)
      process.kill(-(run.child.pid as number), 'SIGINT') // the group: primary and workers alike
      const { code } = await run.exited
      assert.equal(code, 0, JSON.stringify(run.lines.map((l) => ({ msg: l.msg, role: l.role, worker: l.worker, code: l.code, signal: l.signal }))))
      assert.equal(run.lines.filter((l) => l.msg === 'closed').length, 2)
      assert.ok(!run.lines.some((l) => typeof l.msg === 'string' && l.msg.startsWith('second signal')))
    } finally { await stop(run) }
  })

  test('a busy port: one clear line on stderr, once, exit 1 (one process and two workers; the pino-pretty note once too)', async () => {
    const dir = tempApp({ 'app.cjs': APP_CJS })
    let prettyInstalled = true
    try { require.resolve('pino-pretty') } catch { prettyInstalled = false }
    const blocker = net.createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as net.AddressInfo).port
    try {
      for (const workers of ['1', '2']) {
        const run = runTrellis(['start', '-a', '127.0.0.1', '-p', String(port), '--workers', workers, '--pretty-logs', 'app.cjs'], { cwd: dir })
        try {
          const { code } = await run.exited
          assert.equal(code, 1, `--workers ${workers}`)
          const expected: string[] = [`trellis: port ${port} is in use (--port / PORT)`, ...(prettyInstalled ? [] : [PRETTY_MISSING])]
          assert.deepEqual(run.stderr().trim().split('\n').sort(), expected.sort(), `--workers ${workers}: ${run.stderr()}`)
          assert.ok(!run.lines.some((l) => l.level >= 50), 'no error or fatal log line either')
        } finally { await stop(run) }
      }
    } finally { blocker.close() }
  })

  test('an app that fails to start in every worker: the primary stops (exit 1) instead of restarting forever', async () => {
    const dir = tempApp({ 'app.cjs': APP_BROKEN })
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', '--workers', '2', 'app.cjs'], { cwd: dir })
    try {
      const { code } = await run.exited
      assert.equal(code, 1)
      assert.ok(run.lines.some((l) => l.msg === 'a worker exited before the application started listening: not restarting'))
      assert.match(run.stderr(), /database unreachable at boot/)
      assert.equal(run.lines.filter((l) => l.msg === 'worker died: restarting').length, 0)
    } finally { await stop(run) }
  })
})
