// The packages only particular suites load (the Fastify releases, the ecosystem plugins' majors, the
// OpenTelemetry SDKs, jest, the benchmarks' tools: test/suite-deps/package.json, pinned by its own
// test/suite-deps/package-lock.json) are not in the root devDependencies, so that `npm ci` installs
// what building, linting and the core tests need and no more. This script installs them on first use
// into a cache outside the repository, one folder per lock file ($TRELLIS_SUITE_DEPS_CACHE or
// ~/.cache/trellis-suite-deps/<sha256 of the lock file>), then links each of them into the root
// node_modules (node_modules/<name> -> <cache>/node_modules/<name>). Through the links every way the
// tests reach a package keeps working: `require` and `import` from any folder of the repository,
// `join(root, 'node_modules', name)` paths and TypeScript's resolution (each package's own
// dependencies resolve inside the cache, after the link's real path). `npm ci` removes the links with
// node_modules; the next run makes them again (the install itself stays cached).
//
// scripts/run-tests.mjs, `npm run typecheck` and the npm scripts of the benchmarks and conformance
// runs call it first. To add a package a suite needs: `npm install --prefix test/suite-deps <pkg>`.
//
//   node scripts/suite-deps.mjs          # installs when needed, links, prints the cache folder
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, unlinkSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const manifestDir = join(root, 'test', 'suite-deps')

/** The folder the installs are cached in, one sub-folder per lock file. */
const cacheRoot = () => process.env.TRELLIS_SUITE_DEPS_CACHE ?? join(homedir(), '.cache', 'trellis-suite-deps')

/** The cache folder of the current lock file, installed (`npm ci`) when it is not there yet. */
export function suiteDepsDir () {
  const lock = readFileSync(join(manifestDir, 'package-lock.json'))
  const key = createHash('sha256').update(lock).update(readFileSync(join(manifestDir, 'package.json'))).digest('hex').slice(0, 16)
  const cache = cacheRoot()
  const dir = join(cache, key)
  if (existsSync(join(dir, 'node_modules', '.trellis-suite-deps-complete'))) return dir
  const work = join(cache, `.install-${key}-${process.pid}`)
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  try {
    copyFileSync(join(manifestDir, 'package.json'), join(work, 'package.json'))
    copyFileSync(join(manifestDir, 'package-lock.json'), join(work, 'package-lock.json'))
    console.error(`suite-deps: installing test/suite-deps/package-lock.json into ${dir} (once per lock file)`)
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: work, stdio: ['ignore', 'inherit', 'inherit'] })
    execFileSync('touch', [join(work, 'node_modules', '.trellis-suite-deps-complete')])
    rmSync(dir, { recursive: true, force: true })
    renameSync(work, dir)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  return dir
}

/** The links into a suite-deps cache in the root node_modules: name -> link target. */
function currentLinks () {
  const links = new Map()
  const modules = join(root, 'node_modules')
  const visit = (dir, prefix) => {
    let entries
    try { entries = readdirSync(dir, { withFileTypes: true }) } catch { return }
    for (const entry of entries) {
      if (prefix === '' && entry.name.startsWith('@') && entry.isDirectory()) visit(join(dir, entry.name), `${entry.name}/`)
      else if (entry.isSymbolicLink()) {
        const target = readlinkSync(join(dir, entry.name))
        if (target.startsWith(cacheRoot())) links.set(prefix + entry.name, target)
      }
    }
  }
  visit(modules, '')
  return links
}

/** Links every direct dependency of test/suite-deps into the root node_modules; returns the cache folder. */
export function linkSuiteDeps () {
  const dir = suiteDepsDir()
  const { dependencies } = JSON.parse(readFileSync(join(manifestDir, 'package.json'), 'utf8'))
  const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const own = new Set([...Object.keys(rootPkg.dependencies ?? {}), ...Object.keys(rootPkg.devDependencies ?? {})])
  // links of an earlier lock file to packages no longer in test/suite-deps (moved to the root, or dropped)
  const stale = [...currentLinks().keys()].filter((name) => !(name in dependencies) || own.has(name))
  for (const name of stale) unlinkSync(join(root, 'node_modules', name))
  const missing = stale.filter((name) => own.has(name))
  if (missing.length > 0) throw new Error(`suite-deps: ${missing.join(', ')} moved to the root package.json: run npm install`)
  for (const name of Object.keys(dependencies)) {
    // a package the root installs itself (@opentelemetry/api: trellis's peer) stays the root's one copy
    if (own.has(name)) continue
    const link = join(root, 'node_modules', name)
    const target = join(dir, 'node_modules', name)
    let current
    try { current = lstatSync(link) } catch {}
    if (current !== undefined) {
      if (current.isSymbolicLink() && readlinkSync(link) === target) continue
      if (!current.isSymbolicLink()) throw new Error(`suite-deps: ${link} is a real folder (installed by the root package?); remove it or the package from test/suite-deps`)
      unlinkSync(link)
    }
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(target, link, 'dir')
  }
  return dir
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(linkSuiteDeps())
