/**
 * The `schemaCache` server option: `{ dir }` turns the persistent compile cache on, `false` keeps
 * it off; when absent, the `TRELLIS_SCHEMA_CACHE_DIR` environment variable (non-empty) names the
 * directory. The directory is resolved against the working directory once, at the factory call.
 */
import { resolve } from 'node:path'
import type { SchemaCacheOptions } from '../../../base/option-types'

const SCHEMA_CACHE_ENV = 'TRELLIS_SCHEMA_CACHE_DIR'

export function resolveSchemaCacheOption (value: unknown, invalid: (message: string) => never, env = process.env): SchemaCacheOptions | undefined {
  if (value === false || value === null) return undefined
  if (value === undefined) {
    const dir = env[SCHEMA_CACHE_ENV]
    return typeof dir === 'string' && dir !== '' ? { dir: resolve(dir) } : undefined
  }
  const dir = typeof value === 'object' ? (value as { dir?: unknown }).dir : undefined
  if (typeof dir !== 'string' || dir === '') invalid('"schemaCache" must be { dir: string } or false')
  return { dir: resolve(dir) }
}
