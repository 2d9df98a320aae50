/**
 * The Fastify line `trellis start`, `build` and `check` run an application on. The first of these
 * that is set decides:
 *   1. the `--line` flag (4 or 5);
 *   2. the environment variable TRELLIS_FASTIFY_LINE;
 *   3. the application's package.json: `"trellis": { "fastifyLine": 5 }`, read from the nearest
 *      package.json above the application file that has it, up to the first one with a `name`
 *      (the application's own package);
 *   4. the line of the installed package: `trellis-fastify5` (whose `.` is the Fastify 5 line, installed
 *      as `"fastify": "npm:trellis-fastify5@…"`) says 5 in its own package.json; `trellis` says nothing;
 *   5. otherwise the Fastify 4 line.
 * A value that is not 4 or 5 is a UsageError naming where it came from, never a silent default.
 *
 * The command then sets TRELLIS_FASTIFY_LINE for its process (and so for its cluster workers), so
 * that `require('fastify')` under the package alias (../alias-line.ts) gives the same line.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import type { FastifyLine } from '../base/version'
import { UsageError } from './args'

export const LINE_ENV = 'TRELLIS_FASTIFY_LINE'

export interface AppLine {
  line: FastifyLine
  /** Where the line came from, for messages: `--line`, `TRELLIS_FASTIFY_LINE`, `package.json "trellis.fastifyLine"`, `the default`. */
  from: string
}

function parseLine (value: unknown, where: string): FastifyLine {
  if (value === 5 || value === '5') return 5
  if (value === 4 || value === '4') return 4
  throw new UsageError(`${where} must be 4 or 5, got ${JSON.stringify(value)}`)
}

/** The package.json above `file` that sets the line, with its value; undefined when none does. */
function fromPackageJson (file: string): { path: string, value: unknown } | undefined {
  let dir = dirname(resolve(file))
  for (;;) {
    const path = join(dir, 'package.json')
    if (existsSync(path)) {
      let pkg: { name?: unknown, trellis?: { fastifyLine?: unknown } } | null
      try {
        pkg = JSON.parse(readFileSync(path, 'utf8')) as typeof pkg
      } catch (err) {
        throw new UsageError(`${path} is not valid JSON (${(err as Error).message})`)
      }
      const value = pkg?.trellis?.fastifyLine
      if (value !== undefined) return { path, value }
      if (typeof pkg?.name === 'string') return undefined
    }
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

/** trellis's own package.json: the nearest one above this module named `trellis` or `trellis-fastify5`. */
function ownPackageJson (): string | undefined {
  let dir = __dirname
  for (;;) {
    const path = join(dir, 'package.json')
    if (existsSync(path)) {
      try {
        const name = (JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name
        if (name === 'trellis' || name === 'trellis-fastify5') return path
      } catch {}
    }
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

/** The line the installed package declares (`trellis.fastifyLine` of its own package.json), if any. */
export function installedLine (packageJson: string | undefined = ownPackageJson()): AppLine | undefined {
  if (packageJson === undefined) return undefined
  try {
    const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { name?: unknown, trellis?: { fastifyLine?: unknown } }
    const value = pkg.trellis?.fastifyLine
    if (value === undefined) return undefined
    return { line: parseLine(value, `${String(pkg.name)}'s package.json "trellis.fastifyLine"`), from: `the installed package (${String(pkg.name)})` }
  } catch (err) {
    if (err instanceof UsageError) throw err
    return undefined
  }
}

/**
 * The line of the application in `file`: `flag` is the `--line` value when given; `installed` is
 * the package the command runs from (./installedLine).
 */
export function appLine (file: string, flag: string | undefined, env: NodeJS.ProcessEnv = process.env, installed: () => AppLine | undefined = installedLine): AppLine {
  if (flag !== undefined) return { line: parseLine(flag, '--line'), from: 'the --line flag' }
  const fromEnv = env[LINE_ENV]
  if (fromEnv !== undefined && fromEnv !== '') return { line: parseLine(fromEnv, LINE_ENV), from: LINE_ENV }
  const declared = fromPackageJson(file)
  if (declared !== undefined) {
    const name = `${relative(process.cwd(), declared.path)} "trellis.fastifyLine"`
    return { line: parseLine(declared.value, name), from: name }
  }
  return installed() ?? { line: 4, from: 'the default' }
}

/** Makes `require('fastify')` under the package alias, in this process and its workers, give `line`. */
export function followLine (line: FastifyLine, env: NodeJS.ProcessEnv = process.env): void {
  env[LINE_ENV] = String(line)
}

/** `--line <4|5>` / `--line=<4|5>` in `argv` (the commands other than start read only this flag this way). */
export function lineFlag (argv: string[]): { value: string | undefined, rest: string[] } {
  const rest: string[] = []
  let value: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--line') {
      value = argv[++i]
      if (value === undefined) throw new UsageError('--line needs a value: 4 or 5')
    } else if (arg.startsWith('--line=')) {
      value = arg.slice(7)
    } else {
      rest.push(arg)
    }
  }
  if (value !== undefined) parseLine(value, '--line')
  return { value, rest }
}
