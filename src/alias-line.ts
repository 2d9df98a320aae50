/**
 * Which Fastify line `require('fastify')` gives when trellis is installed under the name `fastify`
 * (the package alias `"fastify": "npm:trellis@…"`), where the import cannot name `trellis/v5`.
 *
 * The line is 4 unless the application says 5, by either of:
 *   - the environment: `TRELLIS_FASTIFY_LINE=5`;
 *   - its package.json (the one beside the node_modules the alias is installed in):
 *     `"trellis": { "fastifyLine": 5 }`.
 * An installation under its own name (`require('trellis')`) is always the line its entry names.
 */
import { readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { FastifyLine } from './base/version'

function lineOf (value: unknown): FastifyLine | undefined {
  if (value === 5 || value === '5') return 5
  if (value === 4 || value === '4') return 4
  return undefined
}

/** `packageRoot`: the directory of trellis's own package.json. */
export function aliasedLine (packageRoot: string, env: NodeJS.ProcessEnv = process.env): FastifyLine {
  const modules = dirname(packageRoot)
  if (basename(packageRoot) !== 'fastify' || basename(modules) !== 'node_modules') return 4
  const fromEnv = lineOf(env.TRELLIS_FASTIFY_LINE)
  if (fromEnv !== undefined) return fromEnv
  try {
    const app = JSON.parse(readFileSync(join(dirname(modules), 'package.json'), 'utf8')) as { trellis?: { fastifyLine?: unknown } }
    return lineOf(app.trellis?.fastifyLine) ?? 4
  } catch {
    return 4
  }
}
