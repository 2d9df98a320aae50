/**
 * The `aot` server option: `{ dir }` reads the build `trellis build` wrote there, `false` ignores
 * any build; when absent, the `TRELLIS_AOT_DIR` environment variable (non-empty) names the
 * directory (../../base/dir-option.ts).
 */
import { resolveDirOption } from '../../base/dir-option'
import type { AotOptions } from '../../base/option-types'

export const AOT_DIR_ENV = 'TRELLIS_AOT_DIR'

export function resolveAotOption (value: unknown, invalid: (message: string) => never, env = process.env): AotOptions | undefined {
  return resolveDirOption('aot', AOT_DIR_ENV, value, invalid, env)
}
