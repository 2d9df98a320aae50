/**
 * `trellis build --target worker <app-file> [--out <dir>] [--options] [--line 4|5]`: writes a
 * Cloudflare Worker (docs/runtimes.md, Cloudflare Workers). The application is loaded and readied
 * here, under Node, with the Worker target on (base/worker-target.ts: what Workers cannot have
 * fails now, naming the runtime) while the default compilers record every validator and serializer
 * (as `trellis build` does) and the global `Function` records every function made from a string
 * (./worker-codegen.ts). Then one ES module is bundled (./worker-bundle.ts): the application,
 * trellis, the build's compiled code as module code and the prepared functions, with
 * `export default { fetch }`. Beside it: workerd.capnp (serve it locally with `workerd serve`) and
 * wrangler.toml (deploy it with `wrangler deploy`).
 */
import { mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { createOnLine } from './factory'
import type { FastifyLine } from '../base/version'
import { setWorkerTarget } from '../base/worker-target'
import { UsageError } from './args'
import { loadApp } from './load-app'
import { appLine, followLine } from './line'
import { startAotRecording, stopAotRecording } from '../schema/aot/recording'
import { aotBuildParts } from '../schema/aot/write-build'
import { codeGenerationModule, recordCodeGeneration } from './worker-codegen'
import { bundleWorker, loadEsbuild } from './worker-bundle'
import { currentVersions } from '../schema/validation/compile-cache/validator-keys'
import { currentSourceCacheVersions } from '../schema/serialization/source-keys'

export const DEFAULT_WORKER_DIR = 'trellis-worker'
export const WORKER_FILE = 'worker.mjs'
/** The compatibility date the Worker is written for (workerd's of test/runtimes/package.json accepts it). */
export const COMPATIBILITY_DATE = '2026-11-01'

export interface WorkerBuildResult {
  dir: string
  line: FastifyLine
  validators: number
  serializers: number
  /** functions made from strings while the application readied, prepared as module code */
  functions: number
  bytes: number
  ms: number
}

function workerdConfig (): string {
  return `# workerd serve workerd.capnp  (or: workerd serve workerd.capnp --socket-addr http=127.0.0.1:PORT)
# The Worker's outbound requests (fetch, node:http clients) reach public addresses only: workerd's
# default "internet" service. To reach a server on this machine, add to services:
#   (name = "internet", network = (allow = ["public", "local"], tlsOptions = (trustBrowserCas = true)))
# (trellis docs/runtimes.md, Cloudflare Workers, Outbound requests)
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:8787", http = (), service = "main") ]
);

const worker :Workerd.Worker = (
  modules = [ (name = "${WORKER_FILE}", esModule = embed "${WORKER_FILE}") ],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  compatibilityFlags = ["nodejs_compat"]
);
`
}

function wranglerConfig (name: string): string {
  return `# wrangler dev / wrangler deploy: ${WORKER_FILE} is already bundled
name = ${JSON.stringify(name)}
main = "${WORKER_FILE}"
compatibility_date = "${COMPATIBILITY_DATE}"
compatibility_flags = ["nodejs_compat"]
no_bundle = true
`
}

export async function buildWorker (file: string, out: string, useOptions: boolean, lineFlag?: string): Promise<WorkerBuildResult> {
  const started = performance.now()
  loadEsbuild() // before any work: says how to install it when it is missing
  // the built module; trellis' own tests run the command from its TypeScript sources, which esbuild reads as well
  const runtimeModule = [join(__dirname, '..', 'worker.js'), join(__dirname, '..', 'worker.ts')].find((f) => existsSync(f))
  if (runtimeModule === undefined) throw new UsageError(`trellis build --target worker: ${join(__dirname, '..', 'worker.js')} is missing (npm run build)`)
  // dist/lib/cli or src/cli: the package's folder, whose dist/ and src/ are trellis' own files
  const trellisRoot = resolve(__dirname, ...(runtimeModule.endsWith('.ts') ? ['..', '..'] : ['..', '..', '..']))
  const { line } = appLine(file, lineFlag)
  followLine(line)
  const loaded = await loadApp(file)
  const options = useOptions && loaded.options !== undefined ? { ...loaded.options } : {}
  const recorder = startAotRecording()
  setWorkerTarget(true)
  let generated
  try {
    generated = await recordCodeGeneration(async () => {
      const app = createOnLine(options, line)
      app.register(loaded.plugin as never)
      await app.ready()
      await app.close()
    })
  } finally {
    stopAotRecording()
    setWorkerTarget(false)
  }
  const { text, manifest } = aotBuildParts(recorder, line)
  const dir = resolve(out)
  const src = join(dir, '.trellis-src')
  rmSync(src, { recursive: true, force: true })
  mkdirSync(src, { recursive: true })
  try {
    writeFileSync(join(src, 'compiled.mjs'), 'export default ' + text)
    writeFileSync(join(src, 'manifest.json'), JSON.stringify(manifest))
    writeFileSync(join(src, 'functions.mjs'), codeGenerationModule(generated))
    writeFileSync(join(src, 'entry.mjs'), `// trellis build --target worker ${relative(process.cwd(), loaded.path)}. Generated: do not edit.
import * as app from ${JSON.stringify(loaded.path)}
import { createWorker } from ${JSON.stringify(runtimeModule)}
import compiled from './compiled.mjs'
import manifest from './manifest.json'
const keyVersions = ${JSON.stringify({ validators: currentVersions(), serializers: currentSourceCacheVersions() })}
export default createWorker({ app, useOptions: ${String(useOptions)}, line: ${line}, manifest, keyVersions, compiled })
`)
    const bytes = await bundleWorker({ entry: join(src, 'entry.mjs'), inject: join(src, 'functions.mjs'), app: loaded.path, trellisRoot, outfile: join(dir, WORKER_FILE) })
    writeFileSync(join(dir, 'workerd.capnp'), workerdConfig())
    writeFileSync(join(dir, 'wrangler.toml'), wranglerConfig('trellis-worker'))
    return { dir, line, validators: recorder.validators.size, serializers: recorder.serializers.size, functions: generated.length, bytes, ms: performance.now() - started }
  } finally {
    rmSync(src, { recursive: true, force: true })
  }
}

export function formatWorkerBuild (file: string, result: WorkerBuildResult): string {
  return `trellis build --target worker ${file} (Fastify ${result.line} line): ${result.validators} validators, ${result.serializers} serializers, ${result.functions} functions made from strings, prepared at build time\n` +
    `  wrote ${join(result.dir, WORKER_FILE)} (${(result.bytes / 1048576).toFixed(1)} MB, one ES module: export default { fetch }), workerd.capnp and wrangler.toml in ${(result.ms / 1000).toFixed(1)} s\n` +
    `  run it: cd ${relative(process.cwd(), result.dir) || '.'} && npx workerd serve workerd.capnp   (http://127.0.0.1:8787), or npx wrangler dev\n`
}
