/**
 * `trellis start` options: command-line flags, each with an environment variable of the same name
 * (TRELLIS_<NAME>; the port also reads PORT). A flag wins over its variable. Bad values are reported
 * as a UsageError naming the flag and the value, never silently replaced by a default.
 */
import { availableParallelism } from 'node:os'

export class UsageError extends Error {}

export interface StartOptions {
  file: string | undefined
  /** the --line flag as given (./line.ts reads the environment and package.json after it) */
  line: string | undefined
  port: number
  address: string
  prefix: string | undefined
  logLevel: string
  prettyLogs: boolean
  workers: number
  trustProxy: boolean | number | string | undefined
  bodyLimit: number | undefined
  pluginTimeout: number | undefined
  requestIdHeader: string | undefined
  closeTimeout: number
  drainDelay: number
  options: boolean
  compileCache: boolean
  help: boolean
}

type Kind = 'string' | 'boolean'
interface Flag { name: keyof StartOptions; kind: Kind; short?: string; env: string[] }

/** Every flag of `trellis start`, in help order; `env` lists the variables read when the flag is absent. */
export const FLAGS: Array<Flag & { flag: string; help: string }> = [
  { flag: 'line', name: 'line', kind: 'string', env: [], help: 'Fastify line: 4 or 5 [env: TRELLIS_FASTIFY_LINE; else package.json "trellis": { "fastifyLine" }; else 4]' },
  { flag: 'port', name: 'port', kind: 'string', short: 'p', env: ['TRELLIS_PORT', 'PORT'], help: 'port to listen on (default 3000)' },
  { flag: 'address', name: 'address', kind: 'string', short: 'a', env: ['TRELLIS_ADDRESS'], help: 'address to listen on (default localhost; 0.0.0.0 when KUBERNETES_SERVICE_HOST is set)' },
  { flag: 'prefix', name: 'prefix', kind: 'string', short: 'x', env: ['TRELLIS_PREFIX'], help: 'prefix for every route of the application' },
  { flag: 'log-level', name: 'logLevel', kind: 'string', short: 'l', env: ['TRELLIS_LOG_LEVEL'], help: 'fatal, error, warn, info (default), debug, trace or silent' },
  { flag: 'pretty-logs', name: 'prettyLogs', kind: 'boolean', short: 'P', env: ['TRELLIS_PRETTY_LOGS'], help: 'human-readable logs through pino-pretty (install it yourself)' },
  { flag: 'workers', name: 'workers', kind: 'string', short: 'w', env: ['TRELLIS_WORKERS'], help: 'number of processes (node:cluster), or "auto" for one per available core (default 1)' },
  { flag: 'trust-proxy', name: 'trustProxy', kind: 'string', env: ['TRELLIS_TRUST_PROXY'], help: 'trust X-Forwarded-*: true, a hop count, or addresses/subnets (e.g. loopback,10.0.0.0/8)' },
  { flag: 'body-limit', name: 'bodyLimit', kind: 'string', env: ['TRELLIS_BODY_LIMIT'], help: 'largest request body in bytes (default 1048576)' },
  { flag: 'plugin-timeout', name: 'pluginTimeout', kind: 'string', short: 'T', env: ['TRELLIS_PLUGIN_TIMEOUT'], help: 'ms a plugin may take to load (default 10000)' },
  { flag: 'request-id-header', name: 'requestIdHeader', kind: 'string', env: ['TRELLIS_REQUEST_ID_HEADER'], help: 'take request.id from this header, e.g. x-request-id set by the proxy' },
  { flag: 'close-timeout', name: 'closeTimeout', kind: 'string', short: 'g', env: ['TRELLIS_CLOSE_TIMEOUT'], help: 'ms a process may take to close on SIGTERM/SIGINT before it exits anyway (default 10000)' },
  { flag: 'drain-delay', name: 'drainDelay', kind: 'string', env: ['TRELLIS_DRAIN_DELAY'], help: 'ms to keep serving after SIGTERM/SIGINT before closing, while readiness fails (default 0; see docs/deployment.md)' },
  { flag: 'options', name: 'options', kind: 'boolean', short: 'o', env: ['TRELLIS_OPTIONS'], help: 'use the server options the module exports (module.exports.options / export const options)' },
  { flag: 'compile-cache', name: 'compileCache', kind: 'boolean', env: ['TRELLIS_COMPILE_CACHE'], help: "Node's compile cache of the modules loaded (Node 22.1+; default on; --compile-cache=false turns it off)" },
  { flag: 'help', name: 'help', kind: 'boolean', short: 'h', env: [], help: 'show this help' }
]

function integer (flag: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`--${flag} must be a whole number, got ${JSON.stringify(value)}`)
  const n = Number(value)
  if (n < min || n > max) throw new UsageError(`--${flag} must be between ${min} and ${max}, got ${n}`)
  return n
}

function lineValue (value: string): string {
  if (value.trim() !== '4' && value.trim() !== '5') throw new UsageError(`--line must be 4 or 5, got ${JSON.stringify(value)}`)
  return value.trim()
}

function bool (flag: string, value: string): boolean {
  const v = value.trim().toLowerCase()
  if (['', '1', 'true', 'yes', 'on'].includes(v)) return true
  if (['0', 'false', 'no', 'off'].includes(v)) return false
  throw new UsageError(`--${flag} must be true or false, got ${JSON.stringify(value)}`)
}

/** `--trust-proxy`: true/false, a hop count, or a comma-separated list for proxy-addr. */
function parseTrustProxy (value: string): boolean | number | string {
  const v = value.trim()
  if (v === '' || v === 'true') return true
  if (v === 'false') return false
  if (/^\d+$/.test(v)) return Number(v)
  return v
}

export function parseWorkers (value: string, cores = availableParallelism()): number {
  if (value.trim().toLowerCase() === 'auto') return Math.max(1, cores)
  return integer('workers', value, 1, 1024)
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

/** Reads argv (after `start`) and the environment into StartOptions. */
export function parseStartArgs (argv: string[], env: NodeJS.ProcessEnv = process.env): StartOptions {
  const raw = new Map<string, string>()
  const positional: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') { positional.push(...argv.slice(i + 1)); break }
    if (!arg.startsWith('-') || arg === '-') { positional.push(arg); continue }
    const long = arg.startsWith('--')
    const [key, inline] = long ? splitInline(arg.slice(2)) : [arg.slice(1), undefined]
    const def = FLAGS.find((f) => long ? f.flag === key : f.short === key)
    if (def === undefined) throw new UsageError(`unknown option ${arg}`)
    if (def.kind === 'boolean') { raw.set(def.flag, inline ?? 'true'); continue }
    const value = inline ?? argv[++i]
    if (value === undefined) throw new UsageError(`--${def.flag} needs a value`)
    raw.set(def.flag, value)
  }
  for (const f of FLAGS) {
    if (raw.has(f.flag)) continue
    const name = f.env.find((e) => env[e] !== undefined && env[e] !== '')
    if (name !== undefined) raw.set(f.flag, env[name] as string)
  }
  if (positional.length > 1) throw new UsageError(`one application file expected, got ${positional.length}: ${positional.join(' ')}`)
  const get = (flag: string): string | undefined => raw.get(flag)
  const level = get('log-level') ?? 'info'
  if (!LEVELS.includes(level)) throw new UsageError(`--log-level must be one of ${LEVELS.join(', ')}, got ${JSON.stringify(level)}`)
  const prefix = get('prefix')
  return {
    file: positional[0],
    line: get('line') === undefined ? undefined : lineValue(get('line') as string),
    port: get('port') === undefined ? 3000 : integer('port', get('port') as string, 0, 65535),
    address: get('address') ?? (env.KUBERNETES_SERVICE_HOST !== undefined ? '0.0.0.0' : 'localhost'),
    prefix: prefix === undefined || prefix === '' ? undefined : (prefix.startsWith('/') ? prefix : `/${prefix}`),
    logLevel: level,
    prettyLogs: get('pretty-logs') === undefined ? false : bool('pretty-logs', get('pretty-logs') as string),
    workers: get('workers') === undefined ? 1 : parseWorkers(get('workers') as string),
    trustProxy: get('trust-proxy') === undefined ? undefined : parseTrustProxy(get('trust-proxy') as string),
    bodyLimit: get('body-limit') === undefined ? undefined : integer('body-limit', get('body-limit') as string, 1),
    pluginTimeout: get('plugin-timeout') === undefined ? undefined : integer('plugin-timeout', get('plugin-timeout') as string, 0),
    requestIdHeader: get('request-id-header'),
    closeTimeout: get('close-timeout') === undefined ? 10000 : integer('close-timeout', get('close-timeout') as string, 1),
    drainDelay: get('drain-delay') === undefined ? 0 : integer('drain-delay', get('drain-delay') as string, 0),
    options: get('options') === undefined ? false : bool('options', get('options') as string),
    // turned on (or not) by the executable before anything loads (../module-pack/compile-cache.ts); checked here
    compileCache: get('compile-cache') === undefined ? true : bool('compile-cache', get('compile-cache') as string),
    help: get('help') === undefined ? false : bool('help', get('help') as string)
  }
}

function splitInline (s: string): [string, string | undefined] {
  const eq = s.indexOf('=')
  return eq === -1 ? [s, undefined] : [s.slice(0, eq), s.slice(eq + 1)]
}
