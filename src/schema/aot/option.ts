/**
 * The `aot` server option: `{ dir }` reads the build `trellis build` wrote there, `false` ignores
 * any build; when absent, the `TRELLIS_AOT_DIR` environment variable (non-empty) names the
 * directory. The directory is resolved against the working directory once, at the factory call.
 */
import { resolve } from 'node:path'
import type { AotOptions } from '../../base/option-types'

export const AOT_DIR_ENV = 'TRELLIS_AOT_DIR'

export function resolveAotOption (value: unknown, invalid: (message: string) => never, env = process.env): AotOptions | undefined {
  if (value === false || value === null) return undefined
  if (value === undefined) {
    const dir = env[AOT_DIR_ENV]
    return typeof dir === 'string' && dir !== '' ? { dir: resolve(dir) } : undefined
  }
  const dir = typeof value === 'object' ? (value as { dir?: unknown }).dir : undefined
  if (typeof dir !== 'string' || dir === '') invalid('"aot" must be { dir: string } or false')
  return { dir: resolve(dir) }
}
