/**
 * Loads the application module: CommonJS or ES module, through `import()` so the user's loader
 * (node --import tsx, or Node's own type stripping) handles TypeScript. Returns the plugin function
 * and the server options it exports.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { UsageError } from './args'

interface LoadedApp { plugin: (...args: any[]) => unknown; options: Record<string, unknown> | undefined; path: string }

// tsc compiles import() to require() for CommonJS output; this keeps a real dynamic import.
// eslint-disable-next-line no-new-func -- the only way to keep import() in tsc's CommonJS output
const dynamicImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<Record<string, unknown>>

function isFunction (value: unknown): value is (...args: any[]) => unknown {
  return typeof value === 'function'
}

export async function loadApp (file: string, cwd = process.cwd()): Promise<LoadedApp> {
  const path = resolve(cwd, file)
  if (!existsSync(path)) throw new UsageError(`application file not found: ${path}`)
  let mod: Record<string, unknown>
  try {
    mod = await dynamicImport(pathToFileURL(path).href)
  } catch (err) {
    const code = (err as { code?: string }).code
    if (code === 'ERR_UNKNOWN_FILE_EXTENSION' && /\.[cm]?tsx?$/.test(path)) {
      throw new UsageError(`${path} is TypeScript: start trellis with a loader, e.g. NODE_OPTIONS="--import tsx" trellis start ${file}`)
    }
    throw err
  }
  // ES module: default export (+ named `options`); CommonJS: default is module.exports, which may
  // itself carry `default` (TypeScript compiled to CommonJS) and `options`.
  let candidate: unknown = mod.default ?? mod
  let options = mod.options
  if (!isFunction(candidate) && candidate !== null && typeof candidate === 'object') {
    const inner = candidate as Record<string, unknown>
    options ??= inner.options
    candidate = inner.default
  }
  if (!isFunction(candidate)) {
    throw new UsageError(`${path} must export a plugin function: module.exports = async function (app, opts) { ... } or export default`)
  }
  options ??= (candidate as unknown as Record<string, unknown>).options
  if (options !== undefined && (options === null || typeof options !== 'object')) throw new UsageError(`the options exported by ${path} must be an object`)
  return { plugin: candidate, options: options as Record<string, unknown> | undefined, path }
}
