/**
 * Writes what a recording holds as a build directory (./build-format.ts): compiled.js, its V8 code
 * cache (made after running every validator's wrapper, so their bytecode is in it), then
 * manifest.json. The old manifest goes first and the new one is written last, each file through a
 * temporary name and a rename: a start that reads the directory meanwhile finds no build, or a whole one.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { Script } from 'node:vm'
import { writeFileWhole as writeFile } from '../../base/write-file-whole'
import { runtimeRequire } from '../validation/compile-cache/load-standalone'
import { CODE_CACHE_FILE, MANIFEST_FILE, MODULE_FILE, moduleText, type AotManifest, type ModuleLists } from './build-format'
import { aotIdentity } from './identity'
import type { AotRecorder } from './recording'
import type { FastifyLine } from '../../base/version'

export interface AotBuildSummary {
  validators: number
  serializers: number
  /** schemas the build cannot store (compiled at every start) */
  atStart: number
  moduleBytes: number
  codeCacheBytes: number
}

function indexes (keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {}
  keys.forEach((key, i) => { out[key] = i })
  return out
}

/** compiled.js's text and the manifest that describes it, for what `recorder` holds. */
export function aotBuildParts (recorder: AotRecorder, line: FastifyLine): { text: string, manifest: AotManifest } {
  const buildId = randomBytes(8).toString('hex')
  const validatorKeys = [...recorder.validators.keys()]
  const serializerKeys = [...recorder.serializers.keys()]
  const text = moduleText(buildId, validatorKeys.map((k) => recorder.validators.get(k) as string), serializerKeys.map((k) => recorder.serializers.get(k) as never))
  const manifest: AotManifest = {
    ...aotIdentity(),
    built: new Date().toISOString(),
    fastifyLine: line,
    buildId,
    moduleBytes: Buffer.byteLength(text, 'utf8'),
    validators: indexes(validatorKeys),
    serializers: indexes(serializerKeys),
    atStart: [...recorder.atStart],
    sharedSets: [...recorder.sharedSets]
  }
  return { text, manifest }
}

/** `line`: the Fastify line the application was built on (a start on the other line does not use the build). */
export function writeAotBuild (dir: string, recorder: AotRecorder, line: FastifyLine): AotBuildSummary {
  const { text, manifest } = aotBuildParts(recorder, line)
  mkdirSync(dir, { recursive: true })
  rmSync(join(dir, MANIFEST_FILE), { force: true })
  writeFile(dir, MODULE_FILE, text)
  const script = new Script(text, { filename: join(dir, MODULE_FILE) })
  const lists = (script.runInThisContext() as (require: unknown) => ModuleLists)(runtimeRequire)
  for (const wrapper of lists.v) {
    const module = { exports: {} }
    wrapper(module, module.exports)
  }
  const codeCache = script.createCachedData()
  writeFile(dir, CODE_CACHE_FILE, codeCache)
  writeFile(dir, MANIFEST_FILE, JSON.stringify(manifest))
  return { validators: recorder.validators.size, serializers: recorder.serializers.size, atStart: recorder.atStart.size, moduleBytes: manifest.moduleBytes, codeCacheBytes: codeCache.length }
}
