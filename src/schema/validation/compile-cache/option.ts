/**
 * The `schemaCache` server option: `{ dir }` turns the persistent compile cache on, `false` keeps
 * it off; when absent, the `TRELLIS_SCHEMA_CACHE_DIR` environment variable (non-empty) names the
 * directory (../../../base/dir-option.ts).
 */
import { resolveDirOption } from '../../../base/dir-option'
import type { SchemaCacheOptions } from '../../../base/option-types'

const SCHEMA_CACHE_ENV = 'TRELLIS_SCHEMA_CACHE_DIR'

export function resolveSchemaCacheOption (value: unknown, invalid: (message: string) => never, env = process.env): SchemaCacheOptions | undefined {
  return resolveDirOption('schemaCache', SCHEMA_CACHE_ENV, value, invalid, env)
}
