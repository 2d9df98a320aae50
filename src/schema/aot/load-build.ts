/**
 * Reading a build directory at start (read only: a server never writes it). Once per directory and
 * process: manifest.json is checked against this process (trellis, Node, Ajv, ajv-formats, the
 * serializer generator) and against the application's Fastify line (a build records the line it was
 * made on); compiled.js must be the module that manifest describes (its length and build id); it is
 * compiled with its V8 code cache. A build that fails any check is ignored with
 * ONE warning (TRLAOT002) saying why, and every schema compiles as without it.
 *
 * A build is code the server runs, as trusted as node_modules: a directory or module writable by
 * anyone is refused.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Script } from 'node:vm'
import { writableByAnyone } from '../../base/writable-by-anyone'
import { runtimeMismatch } from '../../base/runtime'
import { markAjvStandalone } from '../validation/validate'
import { runtimeRequire } from '../validation/compile-cache/load-standalone'
import { serializerFromFactory, type CompileOptions, type SerializerFn } from '../serialization/compile'
import type { ValidatorFn } from '../validation/types'
import {
  CODE_CACHE_FILE, MANIFEST_FILE, MODULE_FILE, SERIALIZER_CLOSE, SERIALIZER_OPEN, identityDifferences,
  type AotManifest, type ModuleLists
} from './build-format'
import { aotIdentity } from './identity'
import type { FastifyLine } from '../../base/version'

export interface AotBuildStats {
  /** validators and serializers taken from the build so far */
  validators: number
  serializers: number
  /** whether V8 refused the code cache (another V8 version or flags): the module was parsed instead */
  codeCacheRejected: boolean
}

export interface AotBuild {
  readonly dir: string
  /** The validator the build holds for `key` (a new function each call), or undefined. */
  validator: (key: string) => ValidatorFn | undefined
  serializer: (key: string, options: Pick<CompileOptions, 'rounding'>) => (SerializerFn & { source: string }) | undefined
  /** Whether the build knows this schema cannot be stored (compiled at every start, no warning). */
  compiledAtStart: (key: string) => boolean
  /** Whether Ajv accepted this shared-schema set (with its options) at build time. */
  sharedSetAccepted: (key: string) => boolean
  readonly stats: AotBuildStats
}

// by directory, then by the line of the applications that read it
const builds = new Map<string, Map<FastifyLine, AotBuild | null>>()

/** The build in `dir` for an application on `line`, or undefined when there is none usable (a warning said why, once). */
export function loadAotBuild (dir: string, line: FastifyLine): AotBuild | undefined {
  let byLine = builds.get(dir)
  if (byLine === undefined) {
    byLine = new Map()
    builds.set(dir, byLine)
  }
  let build = byLine.get(line)
  if (build === undefined) {
    build = readBuild(dir, line)
    byLine.set(line, build)
  }
  return build ?? undefined
}

/** What this process took from the build in `dir` so far (undefined: not read, or ignored). */
export function aotBuildStats (dir: string, line: FastifyLine = 4): AotBuildStats | undefined {
  return builds.get(dir)?.get(line)?.stats
}

/** Test helper: forget the builds read (as a new process would). */
export function forgetAotBuilds (): void {
  builds.clear()
}

function ignore (dir: string, reason: string): null {
  process.emitWarning(`the build in ${dir} is not used: ${reason}; every schema is compiled at start`, 'TrellisWarning', 'TRLAOT002')
  return null
}

function isIndex (table: unknown): table is Record<string, number> {
  return table !== null && typeof table === 'object' && !Array.isArray(table)
}

function readManifest (dir: string, line: FastifyLine): AotManifest | string {
  let manifest: Partial<AotManifest>
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Partial<AotManifest>
  } catch (err) {
    const code = (err as { code?: unknown }).code
    return code === 'ENOENT' ? `it holds no ${MANIFEST_FILE} (run trellis build)` : `${MANIFEST_FILE} is unreadable (${(err as Error).message})`
  }
  if (manifest === null || typeof manifest !== 'object') return `${MANIFEST_FILE} is not a build manifest`
  // the runtime first: Bun and Deno report a Node version too, the message should name the runtime
  const otherRuntime = runtimeMismatch(manifest.runtime)
  if (otherRuntime !== undefined) return otherRuntime
  const differences = identityDifferences(manifest, aotIdentity())
  if (differences.length > 0) return `it was built for another version: ${differences.join(', ')}; rerun trellis build`
  if (!isIndex(manifest.validators) || !isIndex(manifest.serializers) || !Array.isArray(manifest.atStart) ||
    !Array.isArray(manifest.sharedSets) || typeof manifest.buildId !== 'string' || typeof manifest.moduleBytes !== 'number') {
    return `${MANIFEST_FILE} is not a build manifest`
  }
  const built = manifest.fastifyLine ?? 4
  if (built !== line) return `it was built on the Fastify ${String(built)} line and this application runs on the Fastify ${line} line; rerun trellis build on the Fastify ${line} line (--line ${line})`
  return manifest as AotManifest
}

function readBuild (dir: string, line: FastifyLine): AotBuild | null {
  try {
    if (writableByAnyone(dir)) return ignore(dir, 'the directory is writable by anyone (a build is code the server runs)')
  } catch (err) {
    return ignore(dir, (err as Error).message)
  }
  const manifest = readManifest(dir, line)
  if (typeof manifest === 'string') return ignore(dir, manifest)
  const modulePath = join(dir, MODULE_FILE)
  let bytes: Buffer
  try {
    if (writableByAnyone(modulePath)) return ignore(dir, `${MODULE_FILE} is writable by anyone (a build is code the server runs)`)
    bytes = readFileSync(modulePath)
  } catch (err) {
    return ignore(dir, `${MODULE_FILE} is unreadable (${(err as Error).message})`)
  }
  const text = bytes.toString('utf8')
  if (bytes.length !== manifest.moduleBytes || !text.startsWith(`// trellis build ${manifest.buildId}:`)) {
    return ignore(dir, `${MODULE_FILE} is not the module ${MANIFEST_FILE} describes (a file of another build?)`)
  }
  let cachedData: Buffer | undefined
  try { cachedData = readFileSync(join(dir, CODE_CACHE_FILE)) } catch { cachedData = undefined } // parsed instead
  let lists: ModuleLists
  const stats: AotBuildStats = { validators: 0, serializers: 0, codeCacheRejected: true }
  try {
    const script = new Script(text, { filename: modulePath, cachedData })
    stats.codeCacheRejected = cachedData === undefined || script.cachedDataRejected === true
    lists = (script.runInThisContext() as (require: unknown) => ModuleLists)(runtimeRequire)
  } catch (err) {
    return ignore(dir, `${MODULE_FILE} failed to load (${(err as Error).message})`)
  }
  return buildOf(dir, manifest, lists, stats)
}

/**
 * A build carried inside the program rather than read from a directory: the Worker that
 * `trellis build --target worker` writes holds its manifest and compiled.js as modules of its
 * bundle (no file system, no `vm` there). It is the code the bundle was built with, so the identity
 * checks of a directory do not apply; `dir` is only its name, what the `aot` option names.
 */
export function embedAotBuild (dir: string, line: FastifyLine, manifest: AotManifest, lists: ModuleLists): void {
  const byLine = new Map<FastifyLine, AotBuild | null>()
  byLine.set(line, buildOf(dir, manifest, lists, { validators: 0, serializers: 0, codeCacheRejected: false }))
  builds.set(dir, byLine)
}

function buildOf (dir: string, manifest: AotManifest, lists: ModuleLists, stats: AotBuildStats): AotBuild {
  const atStart = new Set(manifest.atStart)
  const sharedSets = new Set(manifest.sharedSets)
  const own = (table: Record<string, number>, key: string): number | undefined =>
    Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined
  return {
    dir,
    stats,
    validator (key) {
      const i = own(manifest.validators, key)
      const wrapper = i === undefined ? undefined : lists.v[i]
      if (wrapper === undefined) return undefined
      const module: { exports: unknown } = { exports: {} }
      wrapper(module, module.exports)
      if (typeof module.exports !== 'function') return undefined
      stats.validators++
      return markAjvStandalone(module.exports as ValidatorFn)
    },
    serializer (key, options) {
      const i = own(manifest.serializers, key)
      const factory = i === undefined ? undefined : lists.s[i]
      const consts = i === undefined ? undefined : lists.c[i]
      if (factory === undefined || consts === undefined) return undefined
      stats.serializers++
      const source = (): string => factory.toString().slice(SERIALIZER_OPEN.length, -SERIALIZER_CLOSE.length)
      return serializerFromFactory(() => factory, consts, options, source)
    },
    compiledAtStart: (key) => atStart.has(key),
    sharedSetAccepted: (key) => sharedSets.has(key)
  }
}
