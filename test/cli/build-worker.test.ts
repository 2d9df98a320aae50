// `trellis build --target worker`: what a Cloudflare Worker cannot have fails the build, with an error naming the runtime and never a Worker that fails at its first
// request: an application that listens, one that asks for HTTP/2, one whose plugin imports node:fs.
// And the stand-in for `Function` the Worker gets: the functions the build saw, and a clear error
// for any other. (workerd serving a built Worker: test/runtimes/workerd.test.ts.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { codeGenerationModule, recordCodeGeneration } from '../../src/cli/worker-codegen'
import { parseBuildArgs } from '../../src/cli/build'
import { runChild } from '../run-child'

const root = join(__dirname, '..', '..')
const fixtures = 'test/runtimes/fixtures/worker'

// the command from its sources (as test/cli/build.test.ts runs it), so its coverage counts; the
// built package's command serves the Worker in test/runtimes/workerd.test.ts. Each run is awaited:
// the test process goes on with other files' tests while it builds.
const SOURCE_CLI = ['--import', 'tsx', join(root, 'src', 'cli', 'bin.ts')]

async function build (app: string, ...flags: string[]): Promise<{ status: number | null, stderr: string, out: string }> {
  const out = mkdtempSync(join(tmpdir(), 'trellis-worker-fail-'))
  const run = await runChild(process.execPath, [...SOURCE_CLI, 'build', '--target', 'worker', app, '--out', out, ...flags], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 120_000 })
  return { status: run.status, stderr: run.stderr, out }
}

for (const [name, app, flags, expected] of [
  ['an application that calls listen()', `${fixtures}/listen-app.mjs`, [], /listen\(\) is not available on Cloudflare Workers: a Worker is served by its fetch handler/],
  ['the http2 server option', `${fixtures}/http2-app.mjs`, ['--options'], /the http2 option is not available on Cloudflare Workers/],
  ['a pino transport', `${fixtures}/transport-app.mjs`, ['--options'], /the logger's transport option is not available on Cloudflare Workers: pino runs transports in worker threads/],
  ['a plugin that imports node:fs', `${fixtures}/fs-app.mjs`, [], /cannot run on Cloudflare Workers:\n {2}test\/runtimes\/fixtures\/worker\/fs-app\.mjs -> test\/runtimes\/fixtures\/worker\/fs-plugin\.mjs imports node:fs \(Cloudflare Workers have no disk/],
  ['the docs page of trellis/openapi', 'examples/demo-app.mjs', [], /the docs page of trellis\/openapi is not available on Cloudflare Workers: .*register trellis\/openapi with ui: false/]
] as const) {
  test(`trellis build --target worker fails on ${name}, naming the runtime, and writes no Worker`, { timeout: 120_000 }, async () => {
    const { status, stderr, out } = await build(app, ...flags)
    try {
      assert.equal(status, 1, stderr)
      assert.match(stderr, expected)
      assert.doesNotMatch(stderr, /\n\s+at /, 'a message, not a stack trace')
      assert.deepEqual(readdirSync(out), [], 'nothing written')
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  })
}

test('--target takes node or worker', () => {
  assert.equal(parseBuildArgs(['app.js', '--target', 'worker']).target, 'worker')
  assert.equal(parseBuildArgs(['app.js']).target, 'node')
  assert.equal(parseBuildArgs(['app.js']).out, undefined, 'each target has its own default folder')
  assert.throws(() => parseBuildArgs(['app.js', '--target=lambda']), /--target must be node or worker, got "lambda"/)
})

test('the Worker\'s Function gives the functions the build recorded, and refuses any other naming the runtime', async () => {
  const generated = await recordCodeGeneration(async () => {
    // eslint-disable-next-line no-new-func
    const add = new Function('a', 'b', 'return a + b') as (a: number, b: number) => number
    assert.equal(add(1, 2), 3, 'the build runs the real function')
    // eslint-disable-next-line no-new-func
    Function('return 7')()
  })
  assert.deepEqual(generated, [['a', 'b', 'return a + b'], ['return 7']])
  const source = codeGenerationModule(generated)
  const { Function: Stand } = await import('data:text/javascript,' + encodeURIComponent(source)) as { Function: FunctionConstructor }
  const add = new Stand('a', 'b', 'return a + b') as (a: number, b: number) => number
  assert.equal(add(2, 3), 5)
  assert.notEqual(new Stand('a', 'b', 'return a + b'), add, 'a fresh function each call, as new Function gives')
  assert.equal((Stand('return 7') as () => number)(), 7)
  assert.ok(add instanceof Stand, 'instanceof Function holds')
  assert.throws(() => new Stand('return 8'), (err: Error) => err instanceof EvalError && /not available on Cloudflare Workers: trellis build did not see this function .*"return 8"/.test(err.message))
})

test('the schemaCache option fails the build: a Worker has no disk and holds every compiled schema', { timeout: 120_000 }, async () => {
  const { status, stderr, out } = await build('examples/demo-worker.mjs')
  rmSync(out, { recursive: true, force: true })
  assert.equal(status, 0, stderr)
  const cached = await runChild(process.execPath, [...SOURCE_CLI, 'build', '--target', 'worker', 'examples/demo-worker.mjs', '--out', out], {
    cwd: root, env: { ...process.env, NODE_OPTIONS: '', TRELLIS_SCHEMA_CACHE_DIR: join(out, 'cache') }, timeout: 120_000
  })
  try {
    assert.equal(cached.status, 1, cached.stderr)
    assert.match(cached.stderr, /the schemaCache option \(or TRELLIS_SCHEMA_CACHE_DIR\) is not available on Cloudflare Workers/)
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
})

test('the Worker module starts no timer and no I/O when it is evaluated (Workers allow neither at global scope)', { timeout: 120_000 }, async () => {
  const { status, stderr, out } = await build('examples/demo-worker.mjs')
  try {
    assert.equal(status, 0, stderr)
    // evaluated under Node with the timer functions and fetch counting their calls
    const probe = `
      const calls = []
      for (const name of ['setTimeout', 'setInterval', 'setImmediate', 'fetch']) {
        const real = globalThis[name]
        globalThis[name] = (...args) => { calls.push(name); return real(...args) }
      }
      const net = await import('node:net')
      const connect = net.default.connect
      net.default.connect = (...args) => { calls.push('net.connect'); return connect(...args) }
      const worker = await import(${JSON.stringify(join(out, 'worker.mjs'))})
      console.log(JSON.stringify({ calls, fetch: typeof worker.default.fetch }))
    `
    const run = await runChild(process.execPath, ['--input-type=module', '-e', probe], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 })
    assert.equal(run.status, 0, run.stderr)
    assert.deepEqual(JSON.parse(run.stdout.trim().split('\n').pop() as string), { calls: [], fetch: 'function' })
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
})
