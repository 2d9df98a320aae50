/**
 * The runtime side of `trellis build --target worker` (cli/worker-build.ts): the Worker module that
 * build writes imports this and exports `createWorker(...)` as its default, `{ fetch }`. Nothing
 * here runs at the module's evaluation: the application is created, registered and readied by the
 * first request (Workers allow no timers or I/O at global scope), with the validators and
 * serializers the build compiled (an embedded build: no code is generated from strings, which
 * workerd forbids) and the Worker target on, so it behaves as it did when the build ran it.
 */
import { setWorkerTarget } from './base/worker-target'
import type { FastifyLine } from './base/version'
import type { AotManifest, ModuleLists } from './schema/aot/build-format'
import { embedAotBuild } from './schema/aot/load-build'
import { runtimeRequire } from './schema/validation/compile-cache/load-standalone'
import { pinCurrentVersions, type CacheVersions } from './schema/validation/compile-cache/validator-keys'
import { pinSourceCacheVersions, type SourceCacheVersions } from './schema/serialization/source-keys'
import { createOnLine } from './cli/factory'
import type { TrellisInstance } from './types/instance'

/** The name the embedded build goes by (the `aot` option's dir). */
export const EMBEDDED_BUILD = '/trellis-worker/embedded-build'

export interface WorkerSpec {
  /** The application module's namespace (its default export is the plugin; `options` the server options). */
  app: Record<string, unknown>
  /** Whether the build used the module's exported options (`--options`). */
  useOptions: boolean
  line: FastifyLine
  manifest: AotManifest
  /** The inputs of the validator and serializer keys where the build ran (the keys must match the build's). */
  keyVersions: { validators: CacheVersions, serializers: SourceCacheVersions }
  /** compiled.js of the build, as a module: a function of the runtime `require`. */
  compiled: (require: unknown) => ModuleLists
}

export interface WorkerHandler {
  fetch: (request: Request, env?: unknown, ctx?: unknown) => Promise<Response>
}

/** The plugin and options of an application module, read as `trellis start` reads them (cli/load-app.ts). */
export function pickApp (mod: Record<string, unknown>): { plugin: (...args: any[]) => unknown, options: Record<string, unknown> | undefined } {
  let candidate: unknown = mod.default ?? mod
  let options = mod.options
  if (typeof candidate !== 'function' && candidate !== null && typeof candidate === 'object') {
    options ??= (candidate as Record<string, unknown>).options
    candidate = (candidate as Record<string, unknown>).default
  }
  if (typeof candidate !== 'function') throw new TypeError('the application module must export a plugin function')
  options ??= (candidate as unknown as Record<string, unknown>).options
  return { plugin: candidate as (...args: any[]) => unknown, options: options as Record<string, unknown> | undefined }
}

export function createWorker (spec: WorkerSpec): WorkerHandler {
  let app: TrellisInstance | undefined
  const start = (): TrellisInstance => {
    setWorkerTarget(true)
    pinCurrentVersions(spec.keyVersions.validators)
    pinSourceCacheVersions(spec.keyVersions.serializers)
    embedAotBuild(EMBEDDED_BUILD, spec.line, spec.manifest, spec.compiled(runtimeRequire))
    const { plugin, options } = pickApp(spec.app)
    const given = spec.useOptions && options !== undefined ? { ...options } : {}
    const created = createOnLine({ ...given, aot: { dir: EMBEDDED_BUILD } }, spec.line)
    created.register(plugin as never)
    return created
  }
  return {
    fetch (request, ...context) {
      app ??= start()
      return (app as unknown as { fetch: (r: Request, ...c: unknown[]) => Promise<Response> }).fetch(request, ...context)
    }
  }
}
