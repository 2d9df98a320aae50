/**
 * `trellis build <app-file> [--out <dir>] [--options]`: loads the application module (the one
 * `trellis start` serves), runs ready() while the default compilers record every validator and
 * serializer they compile, and writes them into <dir> (default ./trellis-build): one module, its V8
 * code cache and a manifest (../schema/aot/). A process started with TRELLIS_AOT_DIR=<dir> (or the
 * `aot: { dir }` option) reads them instead of compiling. An application that fails ready() (an
 * invalid schema) writes nothing. The build runs the application on its Fastify line (./line.ts)
 * and records it: a start on the other line does not use the build (TRLAOT002).
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createOnLine } from './factory'
import type { FastifyLine } from '../base/version'
import { UsageError } from './args'
import { loadApp } from './load-app'
import { appLine, followLine } from './line'
import { startAotRecording, stopAotRecording } from '../schema/aot/recording'
import { writeAotBuild, type AotBuildSummary } from '../schema/aot/write-build'
import { writeModulePack } from '../module-pack/write-pack'

export interface BuildArgs { file: string | undefined, out: string | undefined, options: boolean, line: string | undefined, help: boolean, target: 'node' | 'worker' }

export const DEFAULT_BUILD_DIR = 'trellis-build'

export function parseBuildArgs (argv: string[]): BuildArgs {
  const args: BuildArgs = { file: undefined, out: undefined, options: false, line: undefined, help: false, target: 'node' }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--help' || arg === '-h') args.help = true
    else if (arg === '--line' || arg.startsWith('--line=')) {
      const value = arg.startsWith('--line=') ? arg.slice(7) : argv[++i]
      if (value !== '4' && value !== '5') throw new UsageError(`--line must be 4 or 5, got ${JSON.stringify(value ?? '')}`)
      args.line = value
    } else if (arg === '--target' || arg.startsWith('--target=')) {
      const value = arg.startsWith('--target=') ? arg.slice(9) : argv[++i]
      if (value !== 'node' && value !== 'worker') throw new UsageError(`--target must be node or worker, got ${JSON.stringify(value ?? '')}`)
      args.target = value
    } else if (arg === '--options' || arg === '-o') args.options = true
    else if (arg === '--out' || arg === '-d' || arg.startsWith('--out=')) {
      const value = arg.startsWith('--out=') ? arg.slice(6) : argv[++i]
      if (value === undefined || value === '') throw new UsageError('--out needs a directory')
      args.out = value
    } else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`)
    else if (args.file !== undefined) throw new UsageError(`one application file expected, got ${args.file} and ${arg}`)
    else args.file = arg
  }
  return args
}

export interface ModulePackSummary {
  modules: number
  bytes: number
  /** bytes of V8's code cache, or why there is none */
  codeCacheBytes: number | string
}

export interface BuildResult extends AotBuildSummary { dir: string, ms: number, pack: ModulePackSummary, line: FastifyLine }

/**
 * The module pack (../module-pack/): a first pack of every module trellis may load; a process started
 * from it (./warm-pack.ts) lists the modules a start evaluates; the pack is written again with only
 * those, and a second process started from it makes its V8 code cache.
 */
function buildModulePack (dir: string, file: string, useOptions: boolean, line: FastifyLine): ModulePackSummary {
  const libDir = join(__dirname, '..')
  // trellis running from its TypeScript sources (tests) has no modules to pack
  if (!existsSync(join(libDir, 'index.js'))) return { modules: 0, bytes: 0, codeCacheBytes: 'trellis runs from its sources' }
  const warm = (step: 'list' | 'cache'): { ok: true, out: Record<string, unknown> } | { ok: false, why: string } => {
    const child = spawnSync(process.execPath, [...process.execArgv, join(__dirname, 'warm-pack.js'), step, dir, resolve(file), useOptions ? '1' : '0', String(line)], {
      env: { ...process.env, TRELLIS_AOT_DIR: dir },
      encoding: 'utf8'
    })
    if (child.status !== 0) return { ok: false, why: `the start from the pack failed: ${(child.stderr ?? '').trim() || String(child.error ?? child.status)}` }
    try {
      return { ok: true, out: JSON.parse(child.stdout.trim().split('\n').pop() as string) as Record<string, unknown> }
    } catch {
      return { ok: false, why: 'the start from the pack printed no result' }
    }
  }
  let written = writeModulePack(dir, libDir)
  const listed = warm('list')
  // the executable's own module too: `trellis start` loads it first (through the pack)
  if (listed.ok) written = writeModulePack(dir, libDir, ['cli/bin.js', ...listed.out.evaluated as string[]])
  const cached = listed.ok ? warm('cache') : listed
  const codeCacheBytes = cached.ok ? cached.out.codeCacheBytes as number : cached.why
  return { ...written, codeCacheBytes }
}

/** `lineFlag`: the --line value when given. */
export async function build (file: string, out: string, useOptions: boolean, lineFlag?: string): Promise<BuildResult> {
  const started = performance.now()
  const { line } = appLine(file, lineFlag)
  followLine(line) // the application's own require('fastify') under the alias, and the warm starts below
  const loaded = await loadApp(file)
  const options = useOptions && loaded.options !== undefined ? { ...loaded.options } : {}
  const recorder = startAotRecording()
  const app = createOnLine(options, line)
  try {
    app.register(loaded.plugin as never)
    await app.ready()
  } finally {
    stopAotRecording()
  }
  const dir = resolve(out)
  const summary = writeAotBuild(dir, recorder, line)
  await app.close()
  const pack = buildModulePack(dir, file, useOptions, line)
  return { ...summary, dir, ms: performance.now() - started, pack, line }
}

const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`

export function formatBuild (file: string, result: BuildResult): string {
  const atStart = result.atStart > 0 ? `; ${result.atStart} cannot be stored and compile at every start` : ''
  return `trellis build ${file} (Fastify ${result.line} line): ${result.validators} validators, ${result.serializers} serializers${atStart}\n` +
    `  wrote ${result.dir} (module ${mb(result.moduleBytes)}, V8 code cache ${mb(result.codeCacheBytes)}) in ${(result.ms / 1000).toFixed(1)} s\n` +
    (result.pack.modules === 0
      ? `  no module pack: ${String(result.pack.codeCacheBytes)}\n`
      : `  module pack: ${result.pack.modules} modules of trellis and its dependencies (${mb(result.pack.bytes)}), ` +
        (typeof result.pack.codeCacheBytes === 'number' ? `V8 code cache ${mb(result.pack.codeCacheBytes)}\n` : `no V8 code cache: ${result.pack.codeCacheBytes}\n`)) +
    `  start with TRELLIS_AOT_DIR=${result.dir} (or the server option aot: { dir }), on the Fastify ${result.line} line and this Node version (${process.version})\n`
}
