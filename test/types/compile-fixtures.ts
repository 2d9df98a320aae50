/**
 * Compiles fixtures of test/types/fixtures against the built package (as a user's TypeScript would,
 * through the package "exports"), one tsc run per group of fixtures, and reports the errors of one
 * fixture. Used by declarations.test.ts and declarations-cjs.test.ts.
 */
import { runTscAsync } from '../run-tsc'
import { join } from 'node:path'

const root = join(__dirname, '..', '..')

// One tsc run per module system (each takes seconds): the ES module fixtures together, the CommonJS
// ones together; a test then looks at the errors reported for its own file. The run is a child
// process waited on without blocking: the test process goes on with other files' tests meanwhile.
const runs = new Map<string, Promise<string>>()
function compileGroup (files: string[]): Promise<string> {
  const key = files.join(' ')
  let output = runs.get(key)
  if (output === undefined) {
    output = runTscAsync([
      '--noEmit', '--strict', '--skipLibCheck', '--types', 'node', '--target', 'es2022',
      '--module', 'node16', '--moduleResolution', 'node16', '--pretty', 'false', ...files.map((f) => join('test', 'types', 'fixtures', f))
    ], root).then((result) => result.status === 0 ? '' : result.output || `tsc exited with ${String(result.status)}`)
    runs.set(key, output)
  }
  return output
}
const groups = [['esm-usage.mts', 'esm-augment.mts'], ['cjs-usage.cts', 'cjs-augment.cts']]
export async function compile (file: string): Promise<{ status: number; output: string }> {
  const output = await compileGroup(groups.find((g) => g.includes(file)) ?? [file])
  const mine = output.split('\n').filter((line) => line.includes(file) || (output !== '' && !line.includes('test/types/fixtures/'))).join('\n').trim()
  return { status: mine === '' ? 0 : 1, output: mine }
}
