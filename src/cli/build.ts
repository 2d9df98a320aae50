/**
 * `trellis build <app-file> [--out <dir>] [--options]`: loads the application module (the one
 * `trellis start` serves), runs ready() while the default compilers record every validator and
 * serializer they compile, and writes them into <dir> (default ./trellis-build): one module, its V8
 * code cache and a manifest (../schema/aot/). A process started with TRELLIS_AOT_DIR=<dir> (or the
 * `aot: { dir }` option) reads them instead of compiling. An application that fails ready() (an
 * invalid schema) writes nothing.
 */
import { resolve } from 'node:path'
import trellis from '../index'
import { UsageError } from './args'
import { loadApp } from './load-app'
import { startAotRecording, stopAotRecording } from '../schema/aot/recording'
import { writeAotBuild, type AotBuildSummary } from '../schema/aot/write-build'

export interface BuildArgs { file: string | undefined, out: string, options: boolean, help: boolean }

export const DEFAULT_BUILD_DIR = 'trellis-build'

export function parseBuildArgs (argv: string[]): BuildArgs {
  const args: BuildArgs = { file: undefined, out: DEFAULT_BUILD_DIR, options: false, help: false }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--help' || arg === '-h') args.help = true
    else if (arg === '--options' || arg === '-o') args.options = true
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

export interface BuildResult extends AotBuildSummary { dir: string, ms: number }

export async function build (file: string, out: string, useOptions: boolean): Promise<BuildResult> {
  const started = performance.now()
  const loaded = await loadApp(file)
  const options = useOptions && loaded.options !== undefined ? { ...loaded.options } : {}
  const recorder = startAotRecording()
  const app = trellis(options as never)
  try {
    app.register(loaded.plugin as never)
    await app.ready()
  } finally {
    stopAotRecording()
  }
  const dir = resolve(out)
  const summary = writeAotBuild(dir, recorder)
  await app.close()
  return { ...summary, dir, ms: performance.now() - started }
}

const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`

export function formatBuild (file: string, result: BuildResult): string {
  const atStart = result.atStart > 0 ? `; ${result.atStart} cannot be stored and compile at every start` : ''
  return `trellis build ${file}: ${result.validators} validators, ${result.serializers} serializers${atStart}\n` +
    `  wrote ${result.dir} (module ${mb(result.moduleBytes)}, V8 code cache ${mb(result.codeCacheBytes)}) in ${(result.ms / 1000).toFixed(1)} s\n` +
    `  start with TRELLIS_AOT_DIR=${result.dir} (or the server option aot: { dir }), on this Node version (${process.version})\n`
}
