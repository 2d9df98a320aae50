/**
 * `trellis check <app-file>`: loads an application on the Fastify 4 line, runs `ready()`, and lists
 * what it uses that changes or disappears in Fastify 5, each with where it was found and what to
 * write instead (the rules: ./check-rules.ts). Sources: the Fastify 4.29 warnings its loading
 * raises (every occurrence, with the application's own stack frame), its routes, plugins and
 * options, and the text of its own source files (request-time code that loading does not run).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, extname, join, relative, sep } from 'node:path'
import trellis from '../index'
import { warnings } from '../base/warnings'
import { FASTIFY5_COMPAT_VERSION } from '../base/version'
import { contextOf } from '../context/plugin-context'
import { routeTable } from '../context/route-table'
import { acceptsFastify4 } from '../context/fastify4-bridge'
import { satisfies } from '../context/version-range'
import { missingLoggerMethods } from '../server/logger'
import { loadApp } from './load-app'
import { SOURCE_RULES, WARNING_RULES, type Severity } from './check-rules'
import { HttpMethods } from '../lifecycle/http-methods'

export interface Finding { severity: Severity; what: string; where: string; instead: string }

const SOURCE_EXTENSIONS = new Set(['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts'])
const MAX_SOURCE_FILES = 2000

/** Where a warning came from: the first stack frame outside trellis and node_modules. */
function callerOf (stack: string | undefined, root: string): string | undefined {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    if (line.includes('node:')) continue
    const match = /[( ]((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?$/.exec(line.trim())
    if (match === null) continue
    const file = match[1].replace(/^file:\/\//, '')
    if (file.includes(`${sep}node_modules${sep}`)) continue
    if (file.startsWith(join(root, 'dist') + sep) || file.startsWith(join(root, 'src') + sep)) continue
    return `${relative(process.cwd(), file)}:${match[2]}:${match[3]}`
  }
  return undefined
}

function sourceFiles (dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (out.length >= MAX_SOURCE_FILES) break
    if (name === 'node_modules' || name.startsWith('.')) continue
    const full = join(dir, name)
    const stat = statSync(full)
    if (stat.isDirectory()) sourceFiles(full, out)
    else if (SOURCE_EXTENSIONS.has(extname(name)) && !/\.d\.[cm]?ts$/.test(name)) out.push(full)
  }
  return out
}

function scanSources (dir: string): Finding[] {
  const found: Finding[] = []
  for (const file of sourceFiles(dir)) {
    const lines = readFileSync(file, 'utf8').split('\n')
    lines.forEach((text, i) => {
      for (const rule of SOURCE_RULES) {
        if (rule.pattern.test(text)) found.push({ severity: rule.severity, what: rule.what, where: `${relative(process.cwd(), file)}:${i + 1}`, instead: rule.instead })
      }
    })
  }
  return found
}

function optionFindings (options: Record<string, unknown>): Finding[] {
  const found: Finding[] = []
  const where = 'server options'
  const logger = options.logger
  if (logger !== null && typeof logger === 'object' && missingLoggerMethods(logger).length === 0) {
    found.push({ severity: 'breaks', what: 'logger: a logger instance (FST_ERR_LOG_INVALID_LOGGER_CONFIG in v5)', where, instead: 'loggerInstance: yourLogger' })
  }
  if (options.jsonShorthand !== undefined) found.push({ severity: 'breaks', what: 'the jsonShorthand option (removed)', where, instead: 'full JSON Schemas, and no jsonShorthand option' })
  if (options.useSemicolonDelimiter === undefined) found.push({ severity: 'changes', what: "useSemicolonDelimiter's default becomes false (';' no longer splits the query string)", where, instead: 'routerOptions: { useSemicolonDelimiter: true } to keep it' })
  if (options.requestIdHeader === undefined) found.push({ severity: 'changes', what: "requestIdHeader's default becomes false (a client's request-id header is no longer the request id)", where, instead: "requestIdHeader: 'request-id' to keep it" })
  return found
}

export async function check (file: string): Promise<Finding[]> {
  const loaded = await loadApp(file)
  const root = join(__dirname, '..', '..', '..')
  const packageRoot = root.endsWith(`${sep}dist`) ? dirname(root) : root
  const found: Finding[] = []
  const emit = process.emitWarning
  process.emitWarning = function collect (message: string | Error, type?: unknown, code?: unknown, ...rest: unknown[]): void {
    const text = String(message)
    let key = String(code)
    if (key === 'FSTDEP021' && text.includes('json shorthand')) key = 'FSTDEP022'
    for (const warning of Object.values(warnings)) warning.emitted = false // every occurrence, not once per process
    const rule = WARNING_RULES[key]
    if (rule === undefined) { (emit as (...a: unknown[]) => void).call(process, message, type, code, ...rest); return }
    const route = /on route (\S+?)\.? /.exec(text)?.[1]
    const where = callerOf(new Error().stack, packageRoot) ?? (route !== undefined ? `route ${route}` : 'while loading')
    found.push({ severity: rule.severity, what: rule.what, where, instead: rule.instead })
  } as typeof process.emitWarning
  const app = trellis(loaded.options as never) as any
  try {
    app.register(loaded.plugin)
    await app.ready()
  } finally {
    process.emitWarning = emit
  }
  const v5Methods = new HttpMethods(5)
  for (const route of routeTable(app).routes) {
    for (const method of route.methods) {
      if (!v5Methods.has(method)) found.push({ severity: 'breaks', what: `the ${method} method (not built in)`, where: `route ${method} ${route.url}`, instead: `app.addHttpMethod('${method}', { hasBody: true }) (or without hasBody) before the route` })
    }
  }
  for (const { plugin, range } of contextOf(app).app.declaredRanges) {
    if (!satisfies(FASTIFY5_COMPAT_VERSION, range) && acceptsFastify4(range)) {
      found.push({ severity: 'changes', what: `plugin '${plugin}' declares fastify '${range}': it runs through the Fastify 4 bridge`, where: 'plugins', instead: 'its Fastify 5 major, when there is one' })
    }
  }
  found.push(...optionFindings(loaded.options ?? {}))
  found.push(...scanSources(dirname(loaded.path)))
  await app.close()
  // one line per finding and place
  const seen = new Set<string>()
  return found.filter((f) => { const key = `${f.what}|${f.where}`; if (seen.has(key)) return false; seen.add(key); return true })
}

export function formatFindings (file: string, found: Finding[]): string {
  const out = [`trellis check ${file}: loaded on the Fastify 4 line; what changes for Fastify 5 (trellis/v5)`, '']
  for (const severity of ['breaks', 'changes'] as const) {
    for (const f of found.filter((x) => x.severity === severity)) {
      out.push(`${severity.padEnd(8)}${f.what}`, `        at ${f.where}`, `        instead: ${f.instead}`)
    }
  }
  const breaks = found.filter((f) => f.severity === 'breaks').length
  out.push('', found.length === 0
    ? 'Nothing found: the application should run unchanged on trellis/v5.'
    : `${found.length} finding(s): ${breaks} that break on Fastify 5, ${found.length - breaks} that change behaviour. See docs/migrating-to-v5.md.`)
  return out.join('\n') + '\n'
}
