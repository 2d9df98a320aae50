/**
 * `trellis check [--line 4|5] <app-file>`: loads an application on the Fastify line it declares
 * (./line.ts), runs `ready()`, and lists what it uses that changes or disappears in Fastify 5, each
 * with where it was found and what to write instead (the rules: ./check-rules.ts), so that it can
 * be rerun at every step of a move from Fastify 4 to 5. Sources: the Fastify 4.29 warnings its
 * loading raises (every occurrence, with the application's own stack frame), its routes, plugins
 * and options, and the text of the source files it loaded (request-time code that loading does not
 * run; ./loaded-scripts.ts). An application that does not load is reported with the reason, and its
 * source files still are.
 *
 * What the Fastify 4 bridge carries (a plugin that declares `fastify: '4.x'`, and the Fastify 4
 * usages inside its function that the bridge answers) is `bridged`, apart from what `breaks`.
 * Under the package alias, every package that loads a nested copy of the real fastify breaks too
 * (./nested-fastify.ts).
 */
import { readFileSync } from 'node:fs'
import { dirname, extname, join, relative, resolve, sep } from 'node:path'
import { createOnLine } from './factory'
import { warnings } from '../base/warnings'
import { FASTIFY5_COMPAT_VERSION, type FastifyLine } from '../base/version'
import { contextOf } from '../context/plugin-context'
import { routeTable } from '../context/route-table'
import { acceptsFastify4 } from '../context/fastify4-bridge'
import { satisfies } from '../context/version-range'
import { missingLoggerMethods } from '../server/logger'
import { HttpMethods } from '../lifecycle/http-methods'
import { UsageError } from './args'
import { loadApp } from './load-app'
import { appLine, followLine } from './line'
import { LoadedScripts, type FunctionSpan } from './loaded-scripts'
import { aliasedRoot, nestedFastify } from './nested-fastify'
import { SOURCE_RULES, WARNING_RULES, type Rule, type Severity } from './check-rules'

export interface Finding { severity: Severity; what: string; where: string; instead: string }

export interface CheckResult {
  line: FastifyLine
  /** where the line came from (`--line`, `TRELLIS_FASTIFY_LINE`, a package.json, `the default`) */
  from: string
  /** why the application did not load on its line, when it did not */
  loadError: string | undefined
  /** the source files read */
  files: number
  findings: Finding[]
}

const SOURCE_EXTENSIONS = new Set(['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts', '.jsx', '.tsx'])
/** trellis' own plugins: they declare the Fastify lines they run on, and never need another major. */
const OWN_PLUGINS = new Set(['trellis-openapi', 'trellis-bearer-auth', 'trellis-otel'])
const OVERRIDES = '"overrides": { "fastify": "$fastify" }'

/** A place in a file: `file` absolute, `line` 1-based. */
interface Place { file: string, line: number, col?: number }

const show = (place: Place): string => `${relative(process.cwd(), place.file)}:${place.line}${place.col !== undefined ? `:${place.col}` : ''}`

/** Where a warning or error came from: the first stack frame outside trellis and node_modules. */
function callerOf (stack: string | undefined, root: string): Place | undefined {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    if (line.includes('node:')) continue
    const match = /[( ]((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?$/.exec(line.trim())
    if (match === null) continue
    const file = match[1].replace(/^file:\/\//, '')
    if (file.includes(`${sep}node_modules${sep}`)) continue
    if (isTrellisFile(file, root)) continue
    return { file, line: Number(match[2]), col: Number(match[3]) }
  }
  return undefined
}

function isTrellisFile (file: string, root: string): boolean {
  return file.startsWith(join(root, 'dist') + sep) || file.startsWith(join(root, 'src') + sep)
}

/** The application's own source files among those loaded: not trellis, not node_modules, not declarations. */
function ownSources (files: string[], root: string): string[] {
  return files.filter((file) => SOURCE_EXTENSIONS.has(extname(file)) && !/\.d\.[cm]?ts$/.test(file) &&
    !file.includes(`${sep}node_modules${sep}`) && !isTrellisFile(file, root))
}

function scanSources (files: string[], classify: (rule: Rule, place: Place | undefined) => Severity): Finding[] {
  const found: Finding[] = []
  for (const file of files) {
    let text: string
    try { text = readFileSync(file, 'utf8') } catch { continue }
    text.split('\n').forEach((line, i) => {
      for (const rule of SOURCE_RULES) {
        if (!rule.pattern.test(line)) continue
        const place = { file, line: i + 1 }
        found.push({ severity: classify(rule, place), what: rule.what, where: show(place), instead: rule.instead })
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

/** What to do about an application that does not load on `line`. */
function loadFailure (err: unknown, line: FastifyLine, root: string): Finding {
  const message = err instanceof Error ? err.message : String(err)
  const place = err instanceof Error ? callerOf(err.stack, root) : undefined
  const wantsOther = (err as { code?: unknown } | null)?.code === 'FST_ERR_PLUGIN_VERSION_MISMATCH' && (line === 4 ? /'[^']*5/ : /'[^']*4/).test(message)
  const other = line === 4 ? 5 : 4
  return {
    severity: 'breaks',
    what: `the application does not load on the Fastify ${line} line: ${message.split('\n')[0]}`,
    where: place !== undefined ? show(place) : 'while loading',
    instead: wantsOther
      ? `run it on the Fastify ${other} line: "trellis": { "fastifyLine": ${other} } in package.json (or TRELLIS_FASTIFY_LINE=${other}, --line ${other})`
      : 'fix what the error names; the findings below come from the source files it loaded'
  }
}

/** The application in `file`, checked on its line (`lineFlag`: the --line value when given). */
export async function check (file: string, lineFlag?: string): Promise<CheckResult> {
  const { line, from } = appLine(file, lineFlag)
  followLine(line) // the application's own require('fastify') under the alias gives this line too
  const root = join(__dirname, '..', '..', '..')
  const packageRoot = root.endsWith(`${sep}dist`) ? dirname(root) : root
  const found: Finding[] = []
  const scripts = new LoadedScripts()
  const bridgedSpans: FunctionSpan[] = []
  const insideBridged = (place: Place | undefined): boolean =>
    place !== undefined && bridgedSpans.some((s) => s.file === place.file && place.line >= s.first && place.line <= s.last)
  // a Fastify 4 usage inside a plugin the bridge runs is the bridge's when the bridge answers it
  const classify = (rule: Rule, place: Place | undefined): Severity => rule.bridge === true && insideBridged(place) ? 'bridged' : rule.severity
  const pending: Array<{ rule: Rule, place: Place | undefined, route: string | undefined }> = []
  let loadError: string | undefined
  let options: Record<string, unknown> | undefined
  const emit = process.emitWarning
  let app: any
  try {
    const loaded = await loadApp(file)
    options = loaded.options
    process.emitWarning = function collect (message: string | Error, type?: unknown, code?: unknown, ...rest: unknown[]): void {
      const text = String(message)
      let key = String(code)
      if (key === 'FSTDEP021' && text.includes('json shorthand')) key = 'FSTDEP022'
      for (const warning of Object.values(warnings)) warning.emitted = false // every occurrence, not once per process
      if (key === 'TRLBRG001' || key === 'TRLBRG002') return // reported below, plugin by plugin
      // Fastify 5's own FSTDEP022 (router options at the top level) is not the Fastify 4 one
      const rule = line === 5 && String(code) === 'FSTDEP022' ? undefined : WARNING_RULES[key]
      if (rule === undefined) { (emit as (...a: unknown[]) => void).call(process, message, type, code, ...rest); return }
      pending.push({ rule, place: callerOf(new Error().stack, packageRoot), route: /on route (\S+?)\.? /.exec(text)?.[1] })
    } as typeof process.emitWarning
    app = createOnLine(loaded.options, line)
    app.register(loaded.plugin)
    await app.ready()
  } catch (err) {
    if (err instanceof UsageError) { scripts.stop(); throw err }
    loadError = err instanceof Error ? err.message : String(err)
    found.push(loadFailure(err, line, packageRoot))
  } finally {
    process.emitWarning = emit
  }
  const state = app === undefined ? undefined : contextOf(app).app
  for (const { plugin, range, fn } of state?.declaredRanges ?? []) {
    if (OWN_PLUGINS.has(plugin) || satisfies(FASTIFY5_COMPAT_VERSION, range) || !acceptsFastify4(range)) continue
    const span = scripts.spanOf(fn)
    if (span !== undefined && isTrellisFile(span.file, packageRoot)) continue // one of trellis' own, whatever its name
    if (span !== undefined) bridgedSpans.push(span)
    found.push({ severity: 'bridged', what: `plugin '${plugin}' declares fastify '${range}': the Fastify 4 bridge runs it on Fastify 5`, where: span !== undefined ? show({ file: span.file, line: span.first }) : 'plugins', instead: 'its Fastify 5 major, when there is one' })
  }
  for (const { rule, place, route } of pending) {
    found.push({ severity: classify(rule, place), what: rule.what, where: place !== undefined ? show(place) : route !== undefined ? `route ${route}` : 'while loading', instead: rule.instead })
  }
  if (line === 4 && state !== undefined && loadError === undefined) {
    const v5Methods = new HttpMethods(5)
    for (const route of routeTable(app).routes) {
      for (const method of route.methods) {
        if (!v5Methods.has(method)) found.push({ severity: 'breaks', what: `the ${method} method (not built in)`, where: `route ${method} ${route.url}`, instead: `app.addHttpMethod('${method}', { hasBody: true }) (or without hasBody) before the route` })
      }
    }
  }
  // on the Fastify 5 line its own defaults are in effect, and a logger instance fails to load
  if (line === 4 && options !== undefined) found.push(...optionFindings(options))
  const loadedFiles = scripts.files()
  scripts.stop()
  const appPath = resolve(file)
  const sources = ownSources(loadedFiles.includes(appPath) ? loadedFiles : [appPath, ...loadedFiles], packageRoot)
  found.push(...scanSources(sources, classify))
  const aliased = aliasedRoot(file)
  for (const copy of aliased === undefined ? [] : nestedFastify(aliased)) {
    found.push({
      severity: 'breaks',
      what: `${copy.holder} loads its own fastify@${copy.version}, not trellis: it runs on real Fastify`,
      where: relative(process.cwd(), join(aliased as string, copy.path)),
      instead: `${OVERRIDES} in package.json, then npm install (a "file:" tarball dependency needs an absolute path there: npm fails with ENOENT on a relative one)`
    })
  }
  if (app !== undefined && loadError === undefined) await app.close()
  // one line per finding and place
  const seen = new Set<string>()
  const findings = found.filter((f) => { const key = `${f.what}|${f.where}`; if (seen.has(key)) return false; seen.add(key); return true })
  return { line, from, loadError, files: sources.length, findings }
}

const HEADINGS: Record<Severity, string> = { breaks: 'breaks', changes: 'changes', bridged: 'bridged' }

export function formatFindings (file: string, result: CheckResult): string {
  const { line, from, findings } = result
  const loaded = result.loadError === undefined ? 'loaded' : 'could not load it'
  const out = [
    `trellis check ${file}: ${loaded} on the Fastify ${line} line (${from}); read ${result.files} source file(s) it loaded`,
    line === 4 ? 'What changes for Fastify 5 (trellis/v5):' : 'What is left of the move from Fastify 4:',
    ''
  ]
  for (const severity of ['breaks', 'changes', 'bridged'] as const) {
    for (const f of findings.filter((x) => x.severity === severity)) {
      out.push(`${HEADINGS[severity].padEnd(8)}${f.what}`, `        at ${f.where}`, `        instead: ${f.instead}`)
    }
  }
  const count = (severity: Severity): number => findings.filter((f) => f.severity === severity).length
  const breaks = count('breaks')
  out.push('', findings.length === 0
    ? 'Nothing found: the application should run unchanged on trellis/v5.'
    : `${findings.length} finding(s): ${breaks} that break on Fastify 5, ${count('changes')} that change behaviour, ${count('bridged')} handled by the Fastify 4 bridge.` +
      (breaks === 0 ? ' Nothing breaks: the application runs on trellis/v5.' : '') + ' See docs/migrating-to-v5.md.')
  return out.join('\n') + '\n'
}
