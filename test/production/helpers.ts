/**
 * Helpers for the production tests: run the built `trellis` command (dist/bin/trellis.js, what the
 * package ships; `npm test` builds it first), read its JSON log lines, free loopback ports, plain
 * HTTP requests, and finding optional system binaries (nginx, redis-server).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

export const ROOT = join(__dirname, '..', '..')
export const BIN = join(ROOT, 'dist', 'bin', 'trellis.js')

export function assertBuilt (): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first (npm test does)`)
}

export interface Running {
  child: ChildProcess
  lines: Array<Record<string, any>>
  stderr: () => string
  stdout: () => string
  waitFor: (pred: (line: Record<string, any>) => boolean, timeoutMs?: number) => Promise<Record<string, any>>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Starts `trellis <args>` in `cwd`; log lines (JSON) are collected as they arrive. */
export function runTrellis (args: string[], options: { cwd?: string; env?: Record<string, string>; execArgv?: string[]; detached?: boolean; command?: string } = {}): Running {
  assertBuilt()
  // `command`: an executable to run as is (the installed bin link, through its #! line) instead of node + BIN
  const [file, argv] = options.command !== undefined ? [options.command, args] : [process.execPath, [...(options.execArgv ?? []), BIN, ...args]]
  const child = spawn(file, argv, {
    cwd: options.cwd ?? ROOT,
    // off coverage: it runs dist/ (or an installed copy), which c8 does not map; the key stays,
    // undefined, since Node hands a child whose env lacks it this process's NODE_V8_COVERAGE
    env: { ...process.env, NODE_OPTIONS: '', NODE_V8_COVERAGE: undefined, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached === true // its own process group, as a terminal's foreground job
  })
  const lines: Array<Record<string, any>> = []
  let out = ''
  let err = ''
  let partial = ''
  const waiters: Array<() => void> = []
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    partial += chunk.toString()
    const parts = partial.split('\n')
    partial = parts.pop() ?? ''
    for (const p of parts) {
      try { lines.push(JSON.parse(p)) } catch {}
    }
    for (const w of [...waiters]) w()
  })
  child.stderr?.on('data', (chunk: Buffer) => { err += chunk.toString() })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => { for (const w of [...waiters]) w(); resolve({ code, signal }) })
  })
  const waitFor = (pred: (line: Record<string, any>) => boolean, timeoutMs = 30000): Promise<Record<string, any>> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const hit = lines.find(pred)
        if (hit !== undefined) { done(); resolve(hit); return true }
        if (child.exitCode !== null || child.signalCode !== null) {
          done(); reject(new Error(`trellis exited (${child.exitCode ?? child.signalCode}) before the expected log line\nstdout: ${out}\nstderr: ${err}`)); return true
        }
        return false
      }
      const timer = setTimeout(() => { done(); reject(new Error(`timed out waiting for a log line\nstdout: ${out}\nstderr: ${err}`)) }, timeoutMs)
      const waiter = (): void => { check() }
      const done = (): void => { clearTimeout(timer); const i = waiters.indexOf(waiter); if (i !== -1) waiters.splice(i, 1) }
      if (!check()) waiters.push(waiter)
    })
  return { child, lines, stderr: () => err, stdout: () => out, waitFor, exited }
}

/** Kills a still-running child (by its PID) at the end of a test. */
export async function stop (run: Running): Promise<void> {
  if (run.child.exitCode === null && run.child.signalCode === null) {
    run.child.kill('SIGKILL')
    await run.exited
  }
}

export const listeningLine = (line: Record<string, any>): boolean => typeof line.msg === 'string' && line.msg.startsWith('Server listening at ')
export const portOf = (line: Record<string, any>): number => Number(/:(\d+)$/.exec(line.msg)?.[1])

export async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port
      server.close(() => resolve(port))
    })
  })
}

export interface Answer { status: number; headers: http.IncomingHttpHeaders; body: string }

export function request (port: number, path: string, options: { agent?: http.Agent; headers?: Record<string, string>; method?: string; body?: string; localAddress?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', agent: options.agent ?? false, headers: options.headers, localAddress: options.localAddress }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => { body += c })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

const tempDirs: string[] = []
process.on('exit', () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

/**
 * A new directory under the system temp dir, removed with everything in it when the test process
 * exits (node:test runs each file in a process of its own), so test runs leave nothing behind.
 */
export function tempDir (prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  tempDirs.push(dir)
  return dir
}

/** A temp dir holding the given files (removed when the test process exits). */
export function tempApp (files: Record<string, string>): string {
  const dir = tempDir('trellis-prod-')
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

/** The full path of a system binary, or undefined (PATH plus the sbin directories Debian uses). */
export function findBinary (name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin']
  for (const dir of dirs) {
    const full = join(dir, name)
    if (dir !== '' && existsSync(full)) return full
  }
  return undefined
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
