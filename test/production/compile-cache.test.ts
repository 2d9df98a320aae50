/**
 * `trellis start` turns Node's compile cache on (module.enableCompileCache, Node 22.1+) before it
 * loads anything, in Node's folder under the temporary directory unless NODE_COMPILE_CACHE names
 * another; --compile-cache=false or TRELLIS_COMPILE_CACHE=false leave it off. A start from a
 * `trellis build` (TRELLIS_AOT_DIR) turns it on too, for what the module pack leaves on disk.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import Module from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { parseStartArgs, UsageError } from '../../src/cli/args'
import { enableForStart } from '../../src/module-pack/compile-cache'
import { APP_CJS } from './fixtures'
import { ROOT, assertBuilt, runTrellis, stop, request, tempApp, listeningLine, portOf } from './helpers'

const hasCompileCache = typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function'
const noCache = hasCompileCache ? undefined : `Node ${process.version} has no module.enableCompileCache (22.1 and later have)`
// the servers below are killed (SIGKILL): what they compiled is on disk only if trellis start flushed it once listening
const noFlush = noCache ?? (typeof (Module as unknown as { flushCompileCache?: unknown }).flushCompileCache === 'function' ? undefined : `Node ${process.version} writes its compile cache at exit only (module.flushCompileCache: 22.10 and later)`)

test('--compile-cache: on by default; false, 0, no, off (flag or TRELLIS_COMPILE_CACHE) turn it off; another value is refused', () => {
  assert.equal(parseStartArgs(['app.js'], {}).compileCache, true)
  assert.equal(parseStartArgs(['--compile-cache=false', 'app.js'], {}).compileCache, false)
  assert.equal(parseStartArgs(['app.js'], { TRELLIS_COMPILE_CACHE: 'off' }).compileCache, false)
  assert.equal(parseStartArgs(['--compile-cache', 'app.js'], { TRELLIS_COMPILE_CACHE: '0' }).compileCache, true, 'the flag wins')
  assert.throws(() => parseStartArgs(['--compile-cache=sometimes', 'app.js'], {}), (err: Error) => err instanceof UsageError && /--compile-cache must be true or false, got "sometimes"/.test(err.message))
  // what the executable decides before the options are parsed
  assert.deepEqual(enableForStart(['build', 'app.js'], {}), { on: false, why: 'not trellis start' })
  assert.deepEqual(enableForStart(['start', '--compile-cache=no', 'app.js'], {}), { on: false, why: 'off' })
  assert.deepEqual(enableForStart(['start', 'app.js'], { TRELLIS_COMPILE_CACHE: 'false' }), hasCompileCache ? { on: false, why: 'off' } : { on: false, why: 'unavailable' })
})

/** Starts the app with TMPDIR=<fresh dir>, answers one request, stops; returns the files of <dir>/node-compile-cache. */
async function startOnce (args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const tmp = mkdtempSync(join(tmpdir(), 'trellis-ccache-'))
  try {
    const dir = tempApp({ 'app.cjs': APP_CJS })
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', '0', ...args, 'app.cjs'], { cwd: dir, env: { TMPDIR: tmp, NODE_COMPILE_CACHE: '', ...env } })
    try {
      const port = portOf(await run.waitFor(listeningLine))
      assert.deepEqual(JSON.parse((await request(port, '/hello')).body), { hello: 'world' })
    } finally { await stop(run) }
    const cache = join(tmp, 'node-compile-cache')
    if (!existsSync(cache)) return []
    return readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name)
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

test('trellis start fills Node\'s compile cache once listening (a server killed then leaves it on disk); --compile-cache=false and TRELLIS_COMPILE_CACHE=false leave it empty', { skip: noFlush }, async () => {
  assertBuilt()
  const on = await startOnce([])
  assert.ok(on.length >= 10, `the compile cache holds ${on.length} files after a start`)
  assert.deepEqual(await startOnce(['--compile-cache=false']), [])
  assert.deepEqual(await startOnce([], { TRELLIS_COMPILE_CACHE: 'false' }), [])
})

test('a process started from a trellis build (TRELLIS_AOT_DIR) fills the compile cache; TRELLIS_COMPILE_CACHE=false leaves it empty', { skip: noCache }, () => {
  assertBuilt()
  const run = (env: Record<string, string>): string[] => {
    const tmp = mkdtempSync(join(tmpdir(), 'trellis-ccache-'))
    const build = mkdtempSync(join(tmpdir(), 'trellis-ccache-build-'))
    try {
      const child = spawnSync(process.execPath, ['-e', "require(process.argv[1])().ready().then(() => console.log('ready'))", join(ROOT, 'dist', 'entry', 'index.cjs')],
        { env: { ...process.env, NODE_OPTIONS: '', NODE_COMPILE_CACHE: '', TMPDIR: tmp, TRELLIS_AOT_DIR: build, ...env }, encoding: 'utf8' })
      assert.equal(child.stdout.trim(), 'ready', child.stderr)
      const cache = join(tmp, 'node-compile-cache')
      return existsSync(cache) ? readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : []
    } finally {
      rmSync(tmp, { recursive: true, force: true })
      rmSync(build, { recursive: true, force: true })
    }
  }
  assert.ok(run({}).length >= 5, 'the compile cache holds the modules loaded from disk')
  assert.deepEqual(run({ TRELLIS_COMPILE_CACHE: 'false' }), [])
})
