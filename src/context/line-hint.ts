/**
 * What a plugin's failed version check (FST_ERR_PLUGIN_VERSION_MISMATCH) adds when the plugin asks
 * for the other Fastify line than the application runs: the setting that picks that line. Under the
 * package alias (`"fastify": "npm:trellis@…"`, where the import cannot name `trellis/v5`) that is the
 * application's package.json `"trellis": { "fastifyLine": 5 }` (or `TRELLIS_FASTIFY_LINE`), read by
 * src/alias-line.ts; installed under its own name, the `trellis/v5` entry.
 */
import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { satisfies } from './version-range'
import { FASTIFY_COMPAT_VERSION, FASTIFY5_COMPAT_VERSION, type FastifyLine } from '../base/version'

/** Whether this copy of trellis is installed as `node_modules/fastify` (the nearest package.json above this file). */
export function installedAsFastify (from: string = __dirname): boolean {
  let dir = from
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir)
    if (parent === dir) return false
    dir = parent
  }
  return basename(dir) === 'fastify' && basename(dirname(dir)) === 'node_modules'
}

/** The sentence naming how to run the other line, or '' when `range` does not admit the other line's version. */
export function lineHint (line: FastifyLine, range: string, aliased: boolean = installedAsFastify()): string {
  const other: FastifyLine = line === 4 ? 5 : 4
  if (!satisfies(other === 5 ? FASTIFY5_COMPAT_VERSION : FASTIFY_COMPAT_VERSION, range)) return ''
  if (aliased) {
    return ` (trellis installed as fastify runs the Fastify ${line} line: set "trellis": { "fastifyLine": ${other} } in the application's package.json, or TRELLIS_FASTIFY_LINE=${other})`
  }
  return other === 5 ? " (this application runs trellis's Fastify 4 line: import 'trellis/v5' for the Fastify 5 line)" : " (this application runs trellis's Fastify 5 line: import 'trellis' for the Fastify 4 line)"
}
