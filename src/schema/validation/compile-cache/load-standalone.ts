/**
 * Turns Ajv's standalone module code (CommonJS text from `ajv/dist/standalone`) back into a
 * validate function. The code's `require` calls are answered from a fixed list: Ajv's runtime
 * helpers and ajv-formats' formats, the copies trellis itself resolved (the ones the code was
 * generated against); any other module id throws. It never resolves a path from the cache file.
 */
import type { ValidatorFn } from '../types'

const RUNTIME: Record<string, () => unknown> = {
  'ajv/dist/runtime/equal': () => require('ajv/dist/runtime/equal'),
  'ajv/dist/runtime/ucs2length': () => require('ajv/dist/runtime/ucs2length'),
  'ajv/dist/runtime/uri': () => require('ajv/dist/runtime/uri'),
  'ajv/dist/runtime/validation_error': () => require('ajv/dist/runtime/validation_error'),
  'ajv/dist/runtime/timestamp': () => require('ajv/dist/runtime/timestamp'),
  'ajv/dist/runtime/quote': () => require('ajv/dist/runtime/quote'),
  'ajv/dist/runtime/parseJson': () => require('ajv/dist/runtime/parseJson'),
  'ajv-formats/dist/formats': () => require('ajv-formats/dist/formats')
}

/** The module ids standalone code may require; anything else is refused. */
export const ALLOWED_MODULES: readonly string[] = Object.freeze(Object.keys(RUNTIME))

export function runtimeRequire (id: string): unknown {
  const load = Object.prototype.hasOwnProperty.call(RUNTIME, id) ? RUNTIME[id] : undefined
  if (load === undefined) throw new Error(`trellis schema cache: cached validator code may not require ${JSON.stringify(id)}`)
  return load()
}

/** Evaluates standalone code; throws when it does not export a function. */
export function loadStandalone (code: string): ValidatorFn {
  const module: { exports: unknown } = { exports: {} }
  // eslint-disable-next-line no-new-func -- evaluates Ajv's standalone code read back from the cache
  const run = new Function('require', 'module', 'exports', code) as (r: typeof runtimeRequire, m: typeof module, e: unknown) => void
  run(runtimeRequire, module, module.exports)
  if (typeof module.exports !== 'function') throw new Error('trellis schema cache: cached code did not export a validator')
  return module.exports as ValidatorFn
}
