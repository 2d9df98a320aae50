/**
 * TypeScript's diagnostics for a set of root files, computed in a child process
 * (./ts-diagnostics-child.mjs) for the tests that check what tsc reports on a fixture. Out of the test
 * process because that one runs under V8 coverage in `npm test`, which costs a compile about 1.6× its
 * CPU and gives c8 the TypeScript compiler's coverage to map; the child does not inherit
 * NODE_V8_COVERAGE. Asynchronous, so that a test file can run its compiles side by side.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { envWithoutCoverage } from './run-tsc'

/** One diagnostic: its file and line (from 0) when it has a position. */
export interface Diagnostic { file?: string, line?: number, message: string }

const child = join(__dirname, 'ts-diagnostics-child.mjs')

/** The pre-emit diagnostics of `roots` under `options` (a tsconfig.json's compilerOptions); `stripDirectives`: read with every `// @ts-expect-error` made a plain comment. */
export function diagnostics (roots: string[], options: Record<string, unknown>, stripDirectives = false): Promise<Diagnostic[]> {
  const env = envWithoutCoverage()
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [child, JSON.stringify({ roots, options, stripDirectives })], { env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err !== null) reject(new Error(`the TypeScript compile failed: ${err.message}\n${stderr}`))
      else resolve(JSON.parse(stdout) as Diagnostic[])
    })
  })
}
