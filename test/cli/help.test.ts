/**
 * `trellis help`, `trellis help <command>`, `trellis version` and a mistyped command, run from the
 * sources (the built bin is run by test/production and test/package): what a user reads when they
 * first type `trellis`.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { VERSION } from '../../src/base/version'

const root = join(__dirname, '..', '..')
const bin = join(root, 'src', 'cli', 'bin.ts')

function trellis (...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', bin, ...args], { cwd: root, encoding: 'utf8', timeout: 30000 })
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

test('trellis help (and no command) lists every command and where the installed docs are', () => {
  for (const args of [['help'], [], ['--help']]) {
    const run = trellis(...args)
    assert.equal(run.status, 0, run.stderr)
    for (const command of ['start [options] <app-file>', 'check [--line 4|5] <app-file>', 'build [--out <dir>] [--line 4|5] <app-file>', 'version']) {
      assert.ok(run.stdout.includes(command), `${JSON.stringify(args)}: ${command}`)
    }
    assert.match(run.stdout, new RegExp(`Documentation: ${join(root, 'README.md').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} and `))
  }
})

test('trellis help <command> prints that command\'s usage', () => {
  const start = trellis('help', 'start')
  assert.equal(start.status, 0)
  assert.match(start.stdout, /^Usage: trellis start \[options\] <app-file>/)
  assert.match(start.stdout, /--port <value>/)
  assert.match(start.stdout, /\[env: TRELLIS_PORT or PORT\]/)
  assert.match(start.stdout, /--line <value> +Fastify line: 4 or 5 \[env: TRELLIS_FASTIFY_LINE; else package\.json/)
  const build = trellis('help', 'build')
  assert.match(build.stdout, /^Usage: trellis build \[options\] <app-file>/)
  assert.match(build.stdout, /-d, --out <dir>/)
  const check = trellis('help', 'check')
  assert.match(check.stdout, /^Usage: trellis check \[--line 4\|5\] <app-file>/)
  assert.match(trellis('build', '--help').stdout, /^Usage: trellis build/)
  assert.match(trellis('start', '--help').stdout, /^Usage: trellis start/)
})

test('trellis version prints the package version; an unknown command is one line, the usage, exit 1', () => {
  for (const flag of ['version', '--version', '-v']) {
    const run = trellis(flag)
    assert.equal(run.status, 0)
    assert.equal(run.stdout, `${VERSION}\n`)
  }
  const wrong = trellis('strat', 'app.js')
  assert.equal(wrong.status, 1)
  assert.equal(wrong.stdout, '')
  assert.match(wrong.stderr, /^trellis: unknown command "strat"\n\nUsage: trellis <command>/)
})

test('trellis build and trellis start without an application file say what is missing, exit 1', () => {
  const build = trellis('build')
  assert.equal(build.status, 1)
  assert.match(build.stderr, /^trellis: missing the application file\n\nUsage: trellis build/)
  const start = trellis('start')
  assert.equal(start.status, 1)
  assert.match(start.stderr, /^trellis: missing the application file\n\nUsage: trellis start/)
})
