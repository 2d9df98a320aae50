/**
 * The application factory of a Fastify line, as the public entries export it: `trellis` (4) and
 * `trellis/v5` (5). `trellis start`, `build` and `check` create the application through it.
 */
import trellis from '../index'
import trellisV5 from '../v5'
import type { FastifyLine } from '../base/version'
import type { TrellisInstance } from '../types/instance'

export function createOnLine (options: object | undefined, line: FastifyLine): TrellisInstance {
  if (line === 5) return (trellisV5 as unknown as (options?: object) => TrellisInstance)(options)
  return trellis(options as never) as unknown as TrellisInstance
}
