/**
 * The package as a user gets it, shared by the test files of test/package/: `npm pack` of a clean tree
 * of HEAD (`git archive`, so uncommitted files cannot leak in; npm's `prepare` builds dist/ there),
 * then `npm install` of that tarball into an application in a temp dir.
 *
 * One pack per commit: the tarball is kept in node_modules/.cache/trellis-pack/<commit>/ (wiped by
 * `npm ci`), and processes running at the same time wait for the one that packs (a lock directory
 * holding its pid). scripts/run-tests.mjs runs this file before the test files start when it runs any
 * of test/package/, so the pack does not count against a test file's time limit.
 * The clean tree borrows the checkout's node_modules for the build (typescript, @types/node): an
 * `npm ci` there would cost minutes and tests nothing the lockfile does not already pin.
 */
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

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
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env: { ...clean, ...env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const status = err === null ? 0 : typeof err.code === 'number' ? err.code : null
      resolve({ status, stdout: String(stdout), stderr: String(stderr) })
    })
  })
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

/** The path of the tarball `npm pack` made from a clean tree of HEAD (packed once per commit). */
export async function packedTarball (): Promise<string> {
  const commit = check('git rev-parse', await run('git', ['rev-parse', 'HEAD'], root)).stdout.trim()
  const cache = join(root, 'node_modules', '.cache', 'trellis-pack')
  const dir = join(cache, commit)
  const done = join(dir, 'tarball')
  const lock = join(cache, `${commit}.lock`)
  mkdirSync(cache, { recursive: true })
  for (const started = Date.now(); Date.now() - started < 300_000;) {
    if (existsSync(done)) return readFileSync(done, 'utf8')
    try {
      mkdirSync(lock)
    } catch {
      // another process is packing: wait for it, or take over the lock of one that died
      if (!packerAlive(lock)) rmSync(lock, { recursive: true, force: true })
      await delay(250)
      continue
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid))
      for (const old of readdirSync(cache)) if (old !== commit && !old.endsWith('.lock')) rmSync(join(cache, old), { recursive: true, force: true })
      rmSync(dir, { recursive: true, force: true })
      mkdirSync(dir)
      const tarball = await pack(commit, dir)
      writeFileSync(done, tarball)
      return tarball
    } finally {
      rmSync(lock, { recursive: true, force: true })
    }
  }
  throw new Error('waited 5 minutes for another test file to pack the package')
}

/**
 * A new application in a temp dir: a fixture folder copied (or nothing), `package.json` from
 * `manifest`, then `npm install [specs]` from npm's cache where it can (`--prefer-offline`).
 * Returns the app's folder and npm's output.
 */
export async function installApp (prefix: string, manifest: Record<string, unknown>, specs: string[], fixture?: string): Promise<{ dir: string, install: Run }> {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  if (fixture !== undefined) cpSync(fixture, dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n')
  const install = check('npm install', await run('npm', ['install', ...specs, '--prefer-offline', '--no-audit', '--no-fund', '--no-package-lock'], dir))
  return { dir, install }
}

// `node --import tsx test/package/packed.ts`: pack now (scripts/run-tests.mjs, before the test files)
if (require.main === module) {
  npmMissing().then(async (missing) => {
    console.log(missing !== undefined ? `# not packed: ${missing}` : `# packed ${await packedTarball()}`)
  }).catch((err: unknown) => {
    console.error('# packing failed (the test files of test/package/ will report it):', err)
  })
}
