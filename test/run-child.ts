/**
 * A child process waited on without blocking, for the tests that run a command and look at its exit
 * status and output: in a shared test process (scripts/run-tests.mjs) a synchronous run (spawnSync,
 * execFileSync) holds every other test file of the process until the child ends, while an awaited one
 * lets them go on. Never rejects: a child that could not start or was stopped has status null.
 */
import { execFile } from 'node:child_process'

export interface ChildResult { status: number | null, signal: string | null, stdout: string, stderr: string }

/** `cmd ...args`; options as execFile's (cwd, env, timeout), output as UTF-8 text. */
export function runChild (cmd: string, args: string[], options: { cwd?: string, env?: NodeJS.ProcessEnv, timeout?: number } = {}): Promise<ChildResult> {
  return new Promise((resolve) => {
    execFile(cmd, args, { ...options, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const status = err === null ? 0 : typeof err.code === 'number' ? err.code : null
      const signal = err === null ? null : err.signal ?? null
      resolve({ status, signal, stdout, stderr: stderr + (err !== null && typeof err.code !== 'number' && err.signal == null ? String(err.message) : '') })
    })
  })
}
