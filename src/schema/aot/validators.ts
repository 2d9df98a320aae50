/**
 * The default validator compiler's side of `trellis build` (loaded only when a build is read or
 * recorded). Starting with a build: a route schema whose key the build holds is taken from it; one
 * it lacks is compiled and named in the start's warning (./misses.ts), unless the build knows it
 * cannot store it. Recording (the build command): every validator compiled is stored as Ajv's
 * standalone code. Configurations the schema cache cannot key (Ajv plugins, custom formats or
 * keywords, options that are not plain data, schemas that are not JSON) are never in a build and
 * compile at every start, as without one.
 */
import type Ajv from 'ajv'
import type { AotOptions } from '../../base/option-types'
import type { ValidatorCompilerInput, ValidatorFn } from '../validation/types'
import { createValidatorKeyer, standaloneCodeOf } from '../validation/compile-cache/validator-keys'
import { aotRecorder } from './recording'
import { loadAotBuild } from './load-build'
import { noteAotMiss } from './misses'

export interface AotValidators {
  /** The build command is recording: Ajv must keep each validator's source. */
  readonly recording: boolean
  /** The build's Ajv accepted this configuration's shared schemas: building Ajv can wait for a miss. */
  readonly sharedSetAccepted: boolean
  /** The validator the build holds for `schema`, or undefined (then compiled, and reported when unexpected). */
  find: (schema: object, input: ValidatorCompilerInput) => ValidatorFn | undefined
  /** After a compilation: records the validator when recording. */
  compiled: (schema: object, ajv: Ajv, fn: ValidatorFn) => void
}

function describe (input: ValidatorCompilerInput): string {
  const method = Array.isArray(input.method) ? input.method.join(',') : String(input.method)
  const type = input.contentType === undefined ? '' : ` (${input.contentType})`
  return `${method} ${input.url} ${String(input.httpPart)}${type}`
}

const noop = (): undefined => undefined

export function aotValidators (
  aot: AotOptions | undefined,
  sharedSchemas: Record<string, unknown>,
  effectiveOptions: Record<string, unknown>,
  customOptions: Record<string, unknown>,
  plugins: readonly unknown[]
): AotValidators | undefined {
  const recorder = aotRecorder()
  if (recorder === null && aot === undefined) return undefined
  const keyer = createValidatorKeyer(sharedSchemas, effectiveOptions, customOptions, plugins)
  if (keyer === undefined) return undefined
  if (recorder !== null) {
    recorder.sharedSets.add(keyer.sharedSetKey)
    return {
      recording: true,
      sharedSetAccepted: false,
      find: noop,
      compiled (schema, ajv, fn) {
        const key = keyer.keyOf(schema)
        if (key === undefined) return
        const code = standaloneCodeOf(ajv, fn)
        if (code === undefined) recorder.atStart.add(key)
        else recorder.validators.set(key, code)
      }
    }
  }
  const build = loadAotBuild((aot as AotOptions).dir, (aot as AotOptions).line)
  if (build === undefined) return undefined
  return {
    recording: false,
    sharedSetAccepted: build.sharedSetAccepted(keyer.sharedSetKey),
    find (schema, input) {
      const key = keyer.keyOf(schema)
      if (key === undefined) return undefined
      const fn = build.validator(key)
      if (fn === undefined && !build.compiledAtStart(key)) noteAotMiss(() => describe(input))
      return fn
    },
    compiled: noop
  }
}
