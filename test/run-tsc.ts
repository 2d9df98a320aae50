/**
 * Runs the repository's tsc in a child process for the tests that type-check fixtures against the
 * built declarations. The child does not inherit NODE_V8_COVERAGE: c8 collects coverage of src/
 * only, and a tsc run under V8 coverage costs ~1.6× the CPU (a 12 s check took 19 s), enough to
 * cross a timeout in a loaded coverage run. The timeout is generous (tsc's CPU time is seconds; a
 * loaded machine stretches the wall time many times): what a test reports is tsc's verdict.
 */
import { runChild } from './run-child'

export interface TscResult { status: number | null; output: string }

const tscBin = require.resolve('typescript/bin/tsc')

/**
 * This process's environment without NODE_V8_COVERAGE, for a child whose coverage nobody wants. The
 * key stays, undefined: Node gives a child this process's NODE_V8_COVERAGE whenever the env it is
 * spawned with lacks the key (child_process, so that coverage follows programs that spawn with an
 * environment of their own); an own key set to undefined is what keeps it off.
 */
export function envWithoutCoverage (): NodeJS.ProcessEnv {
  return { ...process.env, NODE_V8_COVERAGE: undefined }
}

/**
 * `tsc ...args` in `cwd`, waited on without blocking (a shared test process goes on with other files'
 * tests, and a file's programs can be checked side by side); status null means it was stopped
 * (timeout or signal).
 */
export function runTscAsync (args: string[], cwd: string, timeoutMs = 600_000): Promise<TscResult> {
  return runChild(process.execPath, [tscBin, ...args], { cwd, timeout: timeoutMs, env: envWithoutCoverage() }).then(({ status, signal, stdout, stderr }) => {
    const stopped = signal !== null ? `\ntsc was stopped (${signal}) after the ${timeoutMs / 1000} s timeout` : ''
    return { status, output: stdout + stderr + stopped }
  })
}
