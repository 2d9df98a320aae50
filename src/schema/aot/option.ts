/**
 * The `aot` server option: `{ dir }` reads the build `trellis build` wrote there, `false` ignores
 * any build; when absent, the `TRELLIS_AOT_DIR` environment variable (non-empty) names the
 * directory (../../base/dir-option.ts). The resolved option carries the application's Fastify line:
 * a build made for the other line is not used (./load-build.ts).
 */
import { resolveDirOption } from '../../base/dir-option'
import type { AotOptions } from '../../base/option-types'
import type { FastifyLine } from '../../base/version'

export const AOT_DIR_ENV = 'TRELLIS_AOT_DIR'

export function resolveAotOption (value: unknown, invalid: (message: string) => never, line: FastifyLine, env = process.env): AotOptions | undefined {
  const option = resolveDirOption('aot', AOT_DIR_ENV, value, invalid, env)
  return option === undefined ? undefined : { dir: option.dir, line }
}
