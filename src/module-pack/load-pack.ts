/**
 * Loads trellis' modules from the module pack of the build named by TRELLIS_AOT_DIR
 * (./pack-format.ts), else from disk as usual. The public entries (dist/entry/*.cjs) ask here for
 * their implementation, so the pack is read once, before any other module of trellis.
 *
 * A packed module becomes a real CommonJS module: a `Module` in require.cache under its own file
 * name, with its own `require`, `__filename` and `__dirname`, so a later require() of the same file,
 * from anywhere, gets the same instance, and a module already loaded from disk is never loaded
 * again from the pack. Requires the pack did not resolve go to Node.
 *
 * The pack is not used, with ONE warning (TRLAOT002) when the directory has one: when a packed
 * file's size or mtime differs from the build's (trellis or a dependency reinstalled), when the
 * build was made under another runtime (Node.js, Bun, Deno: ../base/runtime.ts), when the
 * directory or pack is writable by anyone, or when the pack is unreadable. Not used, silently: no
 * TRELLIS_AOT_DIR, a directory without a pack, or a module system that is not Node's (jest).
 */
import { readFileSync, statSync } from 'node:fs'
import Module = require('node:module')
import { basename, dirname, join } from 'node:path'
import { Script, constants as vmConstants } from 'node:vm'
import { runtimeMismatch } from '../base/runtime'
import { enableCompileCache } from './compile-cache'
import { writableByAnyone } from '../base/writable-by-anyone'
import { PACK_CODE_CACHE_FILE, PACK_FILE, PACK_FORMAT, PACK_INDEX_FILE, type PackIndex, type PackedModule } from './pack-format'

interface NodeModule {
  exports: unknown
  filename: string
  loaded: boolean
  paths: string[]
}
interface ModuleInternals {
  new (id: string, parent?: unknown): NodeModule
  _cache: Record<string, NodeModule | undefined>
  _nodeModulePaths: (from: string) => string[]
  createRequire: (filename: string) => NodeRequire
}
const Modules = Module as unknown as ModuleInternals

/** dist/lib: this file is dist/lib/module-pack/load-pack.js */
const LIB_DIR = join(__dirname, '..')

export interface ActivePack {
  dir: string
  script: Script
  modules: PackedModule[]
  /** each module's absolute file name, by index */
  filenames: string[]
  /** absolute file name -> index */
  byFile: Map<string, number>
  codeCacheRejected: boolean
  /** paths of the modules evaluated from the pack, in order */
  evaluated: string[]
}

let active: ActivePack | null | undefined

function ignore (dir: string, reason: string): null {
  process.emitWarning(`the module pack in ${dir} is not used: ${reason}; trellis loads its modules from disk`, 'TrellisWarning', 'TRLAOT002')
  return null
}

function isPackedFile (file: unknown): file is PackIndex['files'][number] {
  const f = file as Partial<PackIndex['files'][number]> | null
  return f !== null && typeof f === 'object' && typeof f.path === 'string' && typeof f.size === 'number' && typeof f.mtimeMs === 'number'
}

function readIndex (dir: string): PackIndex | string | undefined {
  let text: string
  try {
    text = readFileSync(join(dir, PACK_INDEX_FILE), 'utf8')
  } catch (err) {
    return (err as { code?: unknown }).code === 'ENOENT' ? undefined : `${PACK_INDEX_FILE} is unreadable (${(err as Error).message})`
  }
  try {
    const index = JSON.parse(text) as Partial<PackIndex>
    if (index.format !== PACK_FORMAT || typeof index.bytes !== 'number' || !Array.isArray(index.files) || !index.files.every(isPackedFile)) {
      return `${PACK_INDEX_FILE} is not a module pack index of this trellis`
    }
    return index as PackIndex
  } catch {
    return `${PACK_INDEX_FILE} is not JSON`
  }
}

/** The first packed file that is not as the build saw it, or undefined. */
function changedFile (index: PackIndex, filenames: readonly string[]): string | undefined {
  for (let i = 0; i < index.files.length; i++) {
    const file = index.files[i]
    try {
      const stat = statSync(filenames[i])
      if (stat.size !== file.size || stat.mtimeMs !== file.mtimeMs) return file.path
    } catch {
      return file.path
    }
  }
  return undefined
}

/**
 * The pack in `dir` for the modules under `libDir` (trellis' dist/lib), or null when there is none
 * to use (a warning said why when the directory has one).
 */
export function openModulePack (dir: string, libDir: string): ActivePack | null {
  const index = readIndex(dir)
  if (index === undefined) return null // a build without a pack (or no build at all): nothing to say
  if (typeof index === 'string') return ignore(dir, index)
  // before the files' sizes and mtimes: another runtime stats them differently, and the message should say why
  const otherRuntime = runtimeMismatch(index.runtime)
  if (otherRuntime !== undefined) return ignore(dir, otherRuntime)
  const packPath = join(dir, PACK_FILE)
  let text: Buffer
  try {
    const open = [dir, packPath, join(dir, PACK_INDEX_FILE), join(dir, PACK_CODE_CACHE_FILE)].find((path) => writableByAnyone(path, true))
    if (open !== undefined) return ignore(dir, `${open === dir ? 'the directory' : basename(open)} is writable by anyone (a pack is code the server runs)`)
    text = readFileSync(packPath)
  } catch (err) {
    return ignore(dir, `${PACK_FILE} is unreadable (${(err as Error).message})`)
  }
  if (text.length !== index.bytes) return ignore(dir, `${PACK_FILE} is not the pack ${PACK_INDEX_FILE} describes`)
  // absolute names once (path.join normalizes: not cheap at this count)
  const filenames = index.files.map((file) => join(libDir, file.path))
  const changed = changedFile(index, filenames)
  if (changed !== undefined) return ignore(dir, `${changed} changed since the build (rerun trellis build)`)
  let cachedData: Buffer | undefined
  try { cachedData = readFileSync(join(dir, PACK_CODE_CACHE_FILE)) } catch { cachedData = undefined }
  try {
    const script = new Script(text.toString('utf8'), {
      filename: packPath,
      cachedData,
      // import() in code the pack runs resolves as from disk (modules with one are not packed:
      // with a code cache, Node 20's V8 drops this callback)
      importModuleDynamically: vmConstants?.USE_MAIN_CONTEXT_DEFAULT_LOADER as never
    })
    const modules = script.runInThisContext() as PackedModule[]
    if (!Array.isArray(modules) || modules.length !== index.files.length) return ignore(dir, `${PACK_FILE} is not the pack ${PACK_INDEX_FILE} describes`)
    const byFile = new Map<string, number>()
    for (let i = 0; i < modules.length; i++) {
      if (modules[i][0] !== index.files[i].path) return ignore(dir, `${PACK_FILE} is not the pack ${PACK_INDEX_FILE} describes`)
      byFile.set(filenames[i], i)
    }
    return { dir, script, modules, filenames, byFile, codeCacheRejected: cachedData === undefined || script.cachedDataRejected === true, evaluated: [] }
  } catch (err) {
    return ignore(dir, `${PACK_FILE} failed to load (${(err as Error).message})`)
  }
}

/** The pack of this process (read once), or null. */
function activePack (): ActivePack | null {
  if (active === undefined) {
    const dir = process.env.TRELLIS_AOT_DIR
    // another module system (jest's registry) would not see the modules the pack makes
    const nodeModules = Modules._cache !== undefined && require.cache === (Modules._cache as unknown)
    if (dir !== undefined && dir !== '' && nodeModules) enableCompileCache() // what the pack leaves on disk (./compile-cache.ts)
    active = dir === undefined || dir === '' || !nodeModules ? null : openModulePack(dir, LIB_DIR)
  }
  return active
}

function loadPacked (pack: ActivePack, i: number): unknown {
  const [path, requires, wrapper] = pack.modules[i]
  const filename = pack.filenames[i]
  const cached = Modules._cache[filename]
  if (cached !== undefined) return cached.exports
  const dir = dirname(filename)
  const module = new Modules(filename, undefined)
  module.filename = filename
  module.paths = Modules._nodeModulePaths(dir)
  let fromDisk: NodeRequire | undefined
  const disk = (): NodeRequire => (fromDisk ??= Modules.createRequire(filename))
  const requireHere = ((specifier: string): unknown => {
    const target = requires[specifier]
    return target !== undefined ? loadPacked(pack, target) : disk()(specifier)
  }) as NodeRequire
  requireHere.resolve = ((specifier: string, options?: { paths?: string[] }) => disk().resolve(specifier, options)) as NodeRequire['resolve']
  requireHere.cache = require.cache
  requireHere.main = require.main
  Modules._cache[filename] = module
  try {
    wrapper.call(module.exports, module.exports, requireHere, module, filename, dir)
  } catch (err) {
    // as Node's loader: a module that threw is not cached
    Reflect.deleteProperty(Modules._cache, filename)
    throw err
  }
  module.loaded = true
  pack.evaluated.push(path)
  return module.exports
}

/** The exports of the module `filename` (absolute): from `pack` when it holds it, else from disk. */
export function requireFrom (pack: ActivePack | null, filename: string): unknown {
  const i = pack === null ? undefined : pack.byFile.get(filename)
  return pack === null || i === undefined ? require(filename) : loadPacked(pack, i)
}

/**
 * The exports of trellis' module `file` (relative to dist/lib): from the pack when one is in use.
 * `fromDisk`, when given, is the public entry's own `require('../lib/<file>')` with a literal path:
 * without a pack the module comes from it, so a tool that follows an application's requires to
 * decide what to ship or bundle (Vercel's and Netlify's file tracing, esbuild) sees trellis' modules.
 */
export function requireLib (file: string, fromDisk?: () => unknown): unknown {
  const filename = join(LIB_DIR, file)
  const pack = activePack()
  const i = pack === null ? undefined : pack.byFile.get(filename)
  if (pack !== null && i !== undefined) return loadPacked(pack, i)
  return fromDisk !== undefined ? fromDisk() : require(filename)
}

/** The pack in use: its directory and whether V8 took its code cache; undefined when none is. */
export function modulePackInUse (): { dir: string, modules: number, codeCacheRejected: boolean, evaluated: readonly string[] } | undefined {
  const pack = activePack()
  return pack === null ? undefined : { dir: pack.dir, modules: pack.modules.length, codeCacheRejected: pack.codeCacheRejected, evaluated: pack.evaluated }
}

/** V8's code cache of the pack in use, with every function this process has run so far (for trellis build). */
export function modulePackCodeCache (): Buffer | undefined {
  return activePack()?.script.createCachedData()
}
