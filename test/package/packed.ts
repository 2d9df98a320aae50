/**
 * The package as a user gets it, shared by the test files of test/package/: `npm pack` of a clean tree
 * of HEAD (`git archive`, so uncommitted files cannot leak in; npm's `prepare` builds dist/ there),
 * then `npm install` of that tarball into an application in a temp dir.
 *
 * One pack per commit: the tarball is kept in node_modules/.cache/trellis-pack/<commit>/ (wiped by
 * `npm ci`); a fixture application is installed once per commit and fixture content, in the temp dir.
 * Processes running at the same time wait for the one doing it (a lock directory holding its pid).
 * scripts/run-tests.mjs runs this file before the test files start when it runs any of test/package/,
 * so packing and installing the fixtures do not count against a test file's time limit.
 * The clean tree borrows the checkout's node_modules for the build (typescript, @types/node): an
 * `npm ci` there would cost minutes and tests nothing the lockfile does not already pin.
 */
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { runChild } from '../run-child'

export const root = join(__dirname, '..', '..')

export interface Run { status: number | null, stdout: string, stderr: string }

/**
 * Runs a command without the environment of this run: npm's npm_* settings (when `npm test` started it),
 * node:test's NODE_TEST_CONTEXT (which would make a `node --test` the app runs report to us) and c8's
 * NODE_V8_COVERAGE (the installed copies are not src/: their coverage would only be read and dropped).
 */
export function run (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const clean: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_|^NODE_TEST_CONTEXT$|^NODE_V8_COVERAGE$/i.test(k) && v !== undefined) clean[k] = v
  // NODE_V8_COVERAGE as an own key, undefined: without the key Node would hand the child c8's (envWithoutCoverage in ../run-tsc)
  return runChild(cmd, args, { cwd, env: { ...clean, NODE_V8_COVERAGE: undefined, ...env } })
}

function check (what: string, r: Run): Run {
  if (r.status !== 0) throw new Error(`${what} failed (exit ${String(r.status)}):\n${r.stdout}\n${r.stderr}`)
  return r
}

/** Why the package tests cannot run here, or undefined when npm is on PATH. */
export async function npmMissing (): Promise<string | undefined> {
  const r = await run('npm', ['--version'], root)
  return r.status === 0 ? undefined : `npm is not on PATH (${r.stderr.trim() || 'spawn failed'}): install npm to run the package tests`
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

async function pack (commit: string, out: string): Promise<string> {
  const tree = mkdtempSync(join(tmpdir(), 'trellis-tree-'))
  try {
    const archive = join(tree, 'head.tar')
    check('git archive', await run('git', ['archive', '--format=tar', '-o', archive, commit], root))
    const src = join(tree, 'src')
    mkdirSync(src)
    check('tar', await run('tar', ['-xf', archive, '-C', src], root))
    symlinkSync(join(root, 'node_modules'), join(src, 'node_modules'), 'dir')
    if (existsSync(join(src, 'dist'))) throw new Error('the clean tree has a dist/ folder: it must be built by prepare')
    const r = check('npm pack', await run('npm', ['pack', '--pack-destination', out, '--no-audit', '--no-fund'], src))
    const name = r.stdout.trim().split('\n').pop() ?? ''
    if (!existsSync(join(out, name))) throw new Error(`npm pack printed no tarball name:\n${r.stdout}`)
    // the Fastify 5 line's package (trellis-fastify5), from the same build
    const v5 = check('pack-v5', await run(process.execPath, [join('scripts', 'pack-v5.mjs'), '--pack-destination', out], src)).stdout.trim()
    if (!existsSync(join(out, v5))) throw new Error(`scripts/pack-v5.mjs printed no tarball name:\n${v5}`)
    return join(out, name)
  } finally {
    rmSync(tree, { recursive: true, force: true })
  }
}

function packerAlive (lock: string): boolean {
  let pid: number
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'))
  } catch {
    // no pid yet: the packer has just made the lock, unless the lock is older than a few seconds
    try { return Date.now() - statSync(lock).mtimeMs < 10_000 } catch { return true }
  }
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The result of `make` for `key`, made once: kept in `dir` (a `result` file beside what `make` put
 * there), processes asking at the same time wait for the one making it (a lock directory with its pid).
 */
async function once (dir: string, make: () => Promise<string>): Promise<string> {
  const done = join(dir, 'result')
  const lock = `${dir}.lock`
  for (const started = Date.now(); Date.now() - started < 300_000;) {
    if (existsSync(done)) return readFileSync(done, 'utf8')
    try {
      mkdirSync(lock)
    } catch {
      // another process is making it: wait for it, or take over the lock of one that died
      if (!packerAlive(lock)) rmSync(lock, { recursive: true, force: true })
      await delay(250)
      continue
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid))
      rmSync(dir, { recursive: true, force: true })
      mkdirSync(dir, { recursive: true })
      const result = await make()
      writeFileSync(done, result)
      return result
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }
  throw new Error(`waited 5 minutes for another process to make ${dir}`)
}

async function headCommit (): Promise<string> {
  return check('git rev-parse', await run('git', ['rev-parse', 'HEAD'], root)).stdout.trim()
}

/** Removes what `prefix`* names in `parent`, except `keep`. */
function removeOthers (parent: string, prefix: string, keep: string): void {
  for (const name of readdirSync(parent)) {
    if (name.startsWith(prefix) && name !== keep && name !== `${keep}.lock`) rmSync(join(parent, name), { recursive: true, force: true })
  }
}

/**
 * The path of the tarball `npm pack` made from a clean tree of HEAD (packed once per commit), or with
 * `line` 5 the one of trellis-fastify5 (scripts/pack-v5.mjs), packed beside it from the same build.
 */
export async function packedTarball (line: 4 | 5 = 4): Promise<string> {
  const commit = await headCommit()
  const cache = join(root, 'node_modules', '.cache', 'trellis-pack')
  mkdirSync(cache, { recursive: true })
  removeOthers(cache, '', commit)
  const main = await once(join(cache, commit), async () => await pack(commit, join(cache, commit)))
  if (line === 4) return main
  const v5 = readdirSync(dirname(main)).find((f) => /^trellis-fastify5-.*\.tgz$/.test(f))
  if (v5 === undefined) throw new Error(`no trellis-fastify5 tarball beside ${main}`)
  return join(dirname(main), v5)
}

/**
 * test/package/fixtures/<name> installed with `fastify` aliased to the packed tarball: once per commit
 * and content of the fixture, in the temp dir (outside this checkout, so nothing resolves from its
 * node_modules). Returns the application's folder.
 *
 * A fixture whose package.json says `"trellisFixture": { "shared": "<dir>" }` gets the files of that
 * folder (relative to the fixture) copied in beside its own: the Nest applications share their
 * sources; with `"compile": true` it is compiled (`tsc -p .`) once installed, its result kept in
 * tsc-result.json. A fixture with a package-lock.json is installed from it (its versions pinned; the
 * lock's `fastify` entry is dropped, so npm reads the tarball and this commit's dependencies afresh).
 */
export async function installedFixture (name: string): Promise<string> {
  const fixture = join(__dirname, 'fixtures', name)
  const own = JSON.parse(readFileSync(join(fixture, 'package.json'), 'utf8')) as { trellisFixture?: { shared?: string, compile?: boolean } }
  const shared = own.trellisFixture?.shared === undefined ? undefined : join(fixture, own.trellisFixture.shared)
  const hash = createHash('sha256')
  const walk = (top: string, dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue
      const full = join(dir, entry.name)
      hash.update(full.slice(top.length) + '\0')
      if (entry.isDirectory()) walk(top, full)
      else hash.update(readFileSync(full))
    }
  }
  walk(fixture, fixture)
  if (shared !== undefined) walk(shared, shared)
  const declared = JSON.parse(readFileSync(join(fixture, 'package.json'), 'utf8'))
  const alias = /^npm:(trellis|trellis-fastify5)@/.exec(String(declared.dependencies?.fastify))
  if (alias === null) throw new Error(`${name}'s package.json does not alias fastify to npm:trellis@… or npm:trellis-fastify5@…`)
  const tarball = await packedTarball(alias[1] === 'trellis' ? 4 : 5)
  const prefix = `trellis-${name}-${createHash('sha256').update(root).digest('hex').slice(0, 8)}-`
  const keep = `${prefix}${await headCommit()}-${hash.digest('hex').slice(0, 12)}`
  removeOthers(tmpdir(), prefix, keep)
  const dir = join(tmpdir(), keep)
  return await once(dir, async () => {
    const app = join(dir, 'app')
    const copy = { recursive: true, filter: (f: string) => !/[/\\](node_modules|dist)$/.test(f) }
    if (shared !== undefined) cpSync(shared, app, copy)
    cpSync(fixture, app, copy)
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
    // the registry's trellis is not this commit: the same alias, to the tarball just packed
    manifest.dependencies.fastify = `file:${tarball}`
    writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2) + '\n')
    const lockFile = join(app, 'package-lock.json')
    const locked = existsSync(lockFile)
    if (locked) {
      const lock = JSON.parse(readFileSync(lockFile, 'utf8'))
      lock.packages[''].dependencies.fastify = `file:${tarball}`
      // the tarball's own dependencies are this commit's, not those the lock was made with: npm
      // resolves the entry afresh from the tarball (the rest of the tree stays pinned)
      delete lock.packages['node_modules/fastify']
      writeFileSync(lockFile, JSON.stringify(lock, null, 2) + '\n')
    }
    check('npm install', await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...(locked ? [] : ['--no-package-lock'])], app))
    if (own.trellisFixture?.compile === true) {
      // compiled here, out of the test files' time limit: tsc's exit status and output are kept in
      // tsc-result.json for the test to assert (tsc writes dist/ even where it reports errors)
      const tsc = await run(process.execPath, [join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], app)
      writeFileSync(join(app, 'tsc-result.json'), JSON.stringify(tsc) + '\n')
    }
    return app
  })
}

/**
 * A new application in a temp dir: `package.json` from `manifest`, then `npm install [specs]` from
 * npm's cache where it can (`--prefer-offline`). Returns the app's folder and npm's output.
 */
export async function installApp (prefix: string, manifest: Record<string, unknown>, specs: string[]): Promise<{ dir: string, install: Run }> {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n')
  const install = check('npm install', await run('npm', ['install', ...specs, '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock'], dir))
  return { dir, install }
}

// `node --import tsx test/package/packed.ts`: pack and install the fixtures now (scripts/run-tests.mjs,
// before the test files start)
if (require.main === module) {
  npmMissing().then(async (missing) => {
    if (missing !== undefined) return console.log(`# not packed: ${missing}`)
    console.log(`# packed ${await packedTarball()}`)
    // a folder without a package.json (nest-app-src) holds sources other fixtures share; two
    // installs at a time (npm's cache takes concurrent installs; each install keeps about one core)
    const names = readdirSync(join(__dirname, 'fixtures')).filter((name) => existsSync(join(__dirname, 'fixtures', name, 'package.json')))
    const next = async (): Promise<void> => {
      for (let name = names.shift(); name !== undefined; name = names.shift()) console.log(`# installed ${await installedFixture(name)}`)
    }
    await Promise.all([next(), next()])
  }).catch((err: unknown) => {
    console.error('# packing or installing failed (the test files of test/package/ will report it):', err)
  })
}
