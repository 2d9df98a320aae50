/**
 * What the tests that serve through another runtime's binary (workerd, Bun, Deno) share: a free
 * loopback port for a server the test does not start itself, and a child process with its output
 * kept and a stop that ends it by PID.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

/**
 * A port below Linux's ephemeral range (32768–60999): the child binds it a moment after this check,
 * and in between a server of another test listening on port 0 could otherwise be given the same
 * port (a readiness probe would then reach that server).
 */
export async function freePort (): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    const server = createServer()
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => resolve(true))
    })
    if (bound) {
      await new Promise((resolve) => server.close(resolve))
      return port
    }
  }
}

/** A started child: its output so far (stdout and stderr), and `stop`: SIGTERM, SIGKILL after 5 s. */
export interface Started { child: ChildProcess, output: () => string, stop: () => Promise<void> }

export function startProcess (bin: string, args: string[], options: { cwd: string, env?: NodeJS.ProcessEnv }): Started {
  const child = spawn(bin, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString() })
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString() })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const running = (): boolean => child.exitCode === null && child.signalCode === null
  const stop = async (): Promise<void> => {
    if (running()) process.kill(child.pid as number, 'SIGTERM')
    const timer = setTimeout(() => { if (running()) process.kill(child.pid as number, 'SIGKILL') }, 5000)
    await exited
    clearTimeout(timer)
  }
  return { child, output: () => output, stop }
}
