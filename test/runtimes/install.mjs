// The Bun, Deno and workerd binaries (npm packages `bun`, `deno`, `workerd`, which ship them) and what
// bench/runtimes.mjs compares trellis with there (hono, elysia) are not root devDependencies: this
// folder's package.json, pinned by its package-lock.json, is installed on first use into a cache
// outside the repository, one folder per lock file ($TRELLIS_RUNTIMES_CACHE or
// ~/.cache/trellis-runtimes/<sha256 of the lock file>), as scripts/suite-deps.mjs does for the
// suites' packages. Nothing is linked into the root node_modules: the runtimes' tests and the
// benchmark take the binaries' paths from here.
//
//   node test/runtimes/install.mjs        # installs when needed, prints the cache folder
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

/** The cache folder of the current lock file, installed (`npm ci`) when it is not there yet; throws when npm fails. */
export function runtimesDir () {
  const key = createHash('sha256').update(readFileSync(join(here, 'package-lock.json'))).update(readFileSync(join(here, 'package.json'))).digest('hex').slice(0, 16)
  const cache = process.env.TRELLIS_RUNTIMES_CACHE ?? join(homedir(), '.cache', 'trellis-runtimes')
  const dir = join(cache, key)
  const done = join(dir, 'node_modules', '.trellis-runtimes-complete')
  if (existsSync(done)) return dir
  const work = join(cache, `.install-${key}-${process.pid}`)
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  try {
    copyFileSync(join(here, 'package.json'), join(work, 'package.json'))
    copyFileSync(join(here, 'package-lock.json'), join(work, 'package-lock.json'))
    console.error(`runtimes: installing test/runtimes/package-lock.json (bun, deno, workerd, hono, elysia) into ${dir} (once per lock file)`)
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: work, stdio: ['ignore', 'inherit', 'inherit'] })
    writeFileSync(join(work, 'node_modules', '.trellis-runtimes-complete'), '')
    rmSync(dir, { recursive: true, force: true })
    renameSync(work, dir)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  return dir
}

/**
 * The path of a runtime's binary ('bun', 'deno' or 'workerd') that answers `--version`, or the reason there is
 * none (the install failed, or the binary does not run on this machine).
 */
export function runtimeBinary (name) {
  let dir
  try {
    dir = runtimesDir()
  } catch (err) {
    return { reason: `npm package '${name}' (test/runtimes/package.json) could not be installed: ${err.message.split('\n')[0]}` }
  }
  const bin = join(dir, 'node_modules', '.bin', name)
  try {
    const version = execFileSync(bin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 }).trim().split('\n')[0]
    return { bin, version, dir }
  } catch (err) {
    return { reason: `the binary of npm package '${name}' (${bin}) does not run here: ${String(err.message).split('\n')[0]}` }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(runtimesDir())
