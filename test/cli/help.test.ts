/**
 * `trellis help`, `trellis help <command>`, `trellis version` and a mistyped command, run from the
 * sources (the built bin is run by test/production and test/package): what a user reads when they
 * first type `trellis`.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { VERSION } from '../../src/base/version'
import { runChild, type ChildResult } from '../run-child'

const root = join(__dirname, '..', '..')
const bin = join(root, 'src', 'cli', 'bin.ts')

/** The command from its sources, awaited (the test process goes on with other files' tests meanwhile). */
function trellis (...args: string[]): Promise<ChildResult> {
  return runChild(process.execPath, ['--import', 'tsx', bin, ...args], { cwd: root, timeout: 30000 })
}

test('trellis help (and no command) lists every command and where the installed docs are', async () => {
  for (const args of [['help'], [], ['--help']]) {
    const run = await trellis(...args)
    assert.equal(run.status, 0, run.stderr)
    for (const command of ['start [options] <app-file>', 'check [--line 4|5] <app-file>', 'build [--out <dir>] [--line 4|5] <app-file>', 'version']) {
      assert.ok(run.stdout.includes(command), `${JSON.stringify(args)}: ${command}`)
    }
    assert.match(run.stdout, new RegExp(`Documentation: ${join(root, 'README.md').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} and `))
  }
})

test('trellis help <command> prints that command\'s usage', async () => {
  const start = await trellis('help', 'start')
  assert.equal(start.status, 0)
  assert.match(start.stdout, /^Usage: trellis start \[options\] <app-file>/)
  assert.match(start.stdout, /--port <value>/)
  assert.match(start.stdout, /\[env: TRELLIS_PORT or PORT\]/)
  assert.match(start.stdout, /--line <value> +Fastify line: 4 or 5 \[env: TRELLIS_FASTIFY_LINE; else package\.json/)
  const build = await trellis('help', 'build')
  assert.match(build.stdout, /^Usage: trellis build \[options\] <app-file>/)
  assert.match(build.stdout, /-d, --out <dir>/)
  const check = await trellis('help', 'check')
  assert.match(check.stdout, /^Usage: trellis check \[--line 4\|5\] <app-file>/)
  assert.match((await trellis('build', '--help')).stdout, /^Usage: trellis build/)
  assert.match((await trellis('start', '--help')).stdout, /^Usage: trellis start/)
})

test('trellis version prints the package version; an unknown command is one line, the usage, exit 1', async () => {
  for (const flag of ['version', '--version', '-v']) {
    const run = await trellis(flag)
    assert.equal(run.status, 0)
    assert.equal(run.stdout, `${VERSION}\n`)
  }
  const wrong = await trellis('strat', 'app.js')
  assert.equal(wrong.status, 1)
  assert.equal(wrong.stdout, '')
  assert.match(wrong.stderr, /^trellis: unknown command "strat"\n\nUsage: trellis <command>/)
})

test('trellis build and trellis start without an application file say what is missing, exit 1', async () => {
  const build = await trellis('build')
  assert.equal(build.status, 1)
  assert.match(build.stderr, /^trellis: missing the application file\n\nUsage: trellis build/)
  const start = await trellis('start')
  assert.equal(start.status, 1)
  assert.match(start.stderr, /^trellis: missing the application file\n\nUsage: trellis start/)
})
