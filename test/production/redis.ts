/**
 * Runs Debian's redis-server for a test: its own config and data dir in a temp dir, loopback only,
 * no persistence, in the foreground so the test owns its PID and stops it by that PID.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { join } from 'node:path'
import { sleep, tempDir } from './helpers'

export interface RedisServer { port: number; child: ChildProcess; stop: (signal?: NodeJS.Signals) => Promise<void> }

export async function startRedis (binary: string, port: number): Promise<RedisServer> {
  const dir = tempDir('trellis-redis-')
  writeFileSync(join(dir, 'redis.conf'), [
    `port ${port}`, 'bind 127.0.0.1', 'protected-mode yes', 'daemonize no', `dir ${dir}`,
    'save ""', 'appendonly no', `logfile ${join(dir, 'redis.log')}`, `pidfile ${join(dir, 'redis.pid')}`
  ].join('\n') + '\n')
  const child = spawn(binary, [join(dir, 'redis.conf')], { stdio: 'ignore' })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) { child.kill(signal); await exited }
  }
  const deadline = Date.now() + 10000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited at start: ${readLog(join(dir, 'redis.log'))}`)
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => { s.destroy(); resolve(true) })
      s.on('error', () => resolve(false))
    })
    if (up) break
    if (Date.now() > deadline) { await stop('SIGKILL'); throw new Error('redis-server did not listen within 10 s') }
    await sleep(50)
  }
  return { port, child, stop }
}

/** The server's log, quoted in an error: the temp dir holding it is gone once the test process exits. */
function readLog (file: string): string {
  try { return readFileSync(file, 'utf8') } catch { return '(no log written)' }
}
