/**
 * Under the package alias (`"fastify": "npm:trellis@…"`, or a `file:` tarball), a package that
 * depends on a fastify version of its own (an exact pin, as @nestjs/platform-fastify has) gets a
 * copy of the real fastify installed under it: that package, and whatever it builds, runs on real
 * Fastify while the application's own `require('fastify')` says trellis. npm's
 * `"overrides": { "fastify": "$fastify" }` makes every copy the application's.
 *
 * This lists each such copy in the application's node_modules tree (npm's and yarn's nested
 * layout; symbolic links, such as workspaces, are not followed).
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

export interface NestedFastify {
  /** the package whose node_modules holds the copy, as npm ls names it (`@nestjs/platform-fastify`) */
  holder: string
  /** the copy's version */
  version: string
  /** the copy's directory, relative to the application's root */
  path: string
}

const MAX_DEPTH = 10
const MAX_PACKAGES = 20000

function readPackage (dir: string): { name?: unknown, version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown, version?: unknown }
  } catch {
    return undefined
  }
}

/**
 * The directory of the application above `file` whose node_modules/fastify is trellis (the alias),
 * or undefined when the nearest node_modules/fastify is not trellis, or there is none.
 */
export function aliasedRoot (file: string): string | undefined {
  let dir = dirname(resolve(file))
  for (;;) {
    const installed = join(dir, 'node_modules', 'fastify')
    if (existsSync(join(installed, 'package.json'))) return readPackage(installed)?.name === 'trellis' ? dir : undefined
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

/** Every copy of the real fastify nested under a package of `root`'s node_modules. */
export function nestedFastify (root: string): NestedFastify[] {
  const found: NestedFastify[] = []
  let visited = 0
  const packagesIn = (modules: string): string[] => {
    const out: string[] = []
    let names: string[]
    try { names = readdirSync(modules).sort() } catch { return out }
    for (const name of names) {
      if (name.startsWith('.')) continue
      const full = join(modules, name)
      if (!name.startsWith('@')) { out.push(full); continue }
      try { for (const scoped of readdirSync(full).sort()) if (!scoped.startsWith('.')) out.push(join(full, scoped)) } catch {}
    }
    return out
  }
  const visit = (modules: string, depth: number): void => {
    if (depth > MAX_DEPTH) return
    for (const pkg of packagesIn(modules)) {
      if (++visited > MAX_PACKAGES) return
      try { if (!lstatSync(pkg).isDirectory()) continue } catch { continue }
      const nested = join(pkg, 'node_modules')
      if (!existsSync(nested)) continue
      const copy = readPackage(join(nested, 'fastify'))
      if (copy?.name === 'fastify') {
        found.push({
          holder: relative(join(root, 'node_modules'), pkg).split(`${sep}node_modules${sep}`).pop()?.split(sep).join('/') ?? pkg,
          version: String(copy.version),
          path: relative(root, join(nested, 'fastify')).split(sep).join('/')
        })
      }
      visit(nested, depth + 1)
    }
  }
  visit(join(root, 'node_modules'), 0)
  return found
}
