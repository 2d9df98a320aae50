/**
 * Factory options: Fastify 4.3's names and defaults, checked once with explicit errors
 * (FST_ERR_INIT_OPTS_INVALID). Numbers and booleans given as strings are coerced as 4.3 does;
 * unknown options are tolerated.
 */
import type { IncomingMessage } from 'node:http'
import { errorCodes } from '../base/errors'
import { assertSchemaErrorFormatter } from '../schema/validation/error-formatter'
import { withVersioning, type VersioningOption } from '../routing/versioning'
import { DEFAULT_JSON_DEPTH_LIMIT } from '../lifecycle/json-depth'
import { resolveSchemaCacheOption } from '../schema/validation/compile-cache/option'
import { resolveAotOption } from '../schema/aot/option'
import type { ResolvedOptions, TrellisOptions, V5RouterHooks } from '../base/option-types'
import { emitV5Warning } from '../base/warnings-v5'
import type { FastifyLine } from '../base/version'
import { errorCodesAddedInV5 } from '../base/errors-v5'
import { missingLoggerMethods } from '../server/logger'
import { LogController } from '../server/log-controller'

function invalid (message: string): never {
  throw new errorCodes.FST_ERR_INIT_OPTS_INVALID(message)
}

function integer (opts: TrellisOptions, name: string, fallback: number, min = 0): number {
  const raw = opts[name]
  if (raw === undefined || raw === null) return fallback
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) invalid(`"${name}" must be an integer >= ${min}, got ${JSON.stringify(raw)}`)
  return value
}

function boolean (opts: TrellisOptions, name: string, fallback: boolean): boolean {
  const raw = opts[name]
  if (raw === undefined || raw === null) return fallback
  if (raw === 'true') return true
  if (raw === 'false') return false
  if (typeof raw !== 'boolean') invalid(`"${name}" must be boolean, got ${JSON.stringify(raw)}`)
  return raw
}

function oneOf<T extends string> (opts: TrellisOptions, name: string, allowed: readonly T[], fallback: T): T {
  const raw = opts[name]
  if (raw === undefined || raw === null) return fallback
  if (typeof raw !== 'string' || !(allowed as readonly string[]).includes(raw)) invalid(`"${name}" must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`)
  return raw as T
}

function fnOrUndefined<T> (opts: TrellisOptions, name: string): T | undefined {
  const raw = opts[name]
  if (raw === undefined || raw === null) return undefined
  if (typeof raw !== 'function') invalid(`"${name}" must be a function`)
  return raw as T
}

/** Fastify 4.3 checks a truthy formatter only, with its own messages. */
function schemaErrorFormatter (raw: unknown): TrellisOptions['schemaErrorFormatter'] {
  if (raw === undefined || raw === null || raw === false || raw === 0 || raw === '') return undefined
  assertSchemaErrorFormatter(raw)
  return raw
}

/** Fastify 4.3 checks a truthy parser only, with its own message. */
function querystringParser (raw: unknown): TrellisOptions['querystringParser'] {
  if (raw === undefined || raw === null || raw === false || raw === 0 || raw === '') return undefined
  if (typeof raw !== 'function') throw new errorCodes.FST_ERR_QSP_NOT_FN(typeof raw)
  return raw as TrellisOptions['querystringParser']
}

/** The deprecated `versioning` option: an object with `storage` and `deriveVersion` (Fastify 4.3's schema). */
function versioning (raw: unknown): VersioningOption | undefined {
  if (raw === undefined || raw === null || raw === false) return undefined
  if (typeof raw !== 'object') invalid('"versioning" must be object')
  for (const key of ['storage', 'deriveVersion']) {
    if (!(key in (raw as object))) invalid(`"versioning" must have required property '${key}'`)
  }
  return raw as VersioningOption
}

function reqIdGenerator (): (req: IncomingMessage) => string {
  let next = 0
  return () => {
    next = (next + 1) & 0x7fffffff
    return 'req-' + next.toString(36)
  }
}

const POISONING = ['error', 'remove', 'ignore'] as const
const RUNTIME_SERVERS = ['auto', 'native', 'node'] as const

/**
 * Safe defaults where Fastify 4.3 has none (see docs/security.md): a request must arrive whole
 * within 5 minutes (node's own default) and its headers within 60 s, else 408; JSON bodies nest at
 * most 128 levels, else 400.
 */
const DEFAULT_REQUEST_TIMEOUT = 300000
const DEFAULT_HEADERS_TIMEOUT = 60000

/** headersTimeout: never above a set requestTimeout (node refuses that). */
function headersTimeout (opts: TrellisOptions, requestTimeout: number): number {
  const given = integer(opts, 'headersTimeout', -1)
  if (given === -1) return requestTimeout > 0 ? Math.min(DEFAULT_HEADERS_TIMEOUT, requestTimeout) : DEFAULT_HEADERS_TIMEOUT
  if (requestTimeout > 0 && given > requestTimeout) invalid(`"headersTimeout" (${given}) must not exceed "requestTimeout" (${requestTimeout})`)
  return given
}

/**
 * Fastify 5 splits the logger: `logger` takes pino options (or a boolean), `loggerInstance` a logger
 * (an object with every logger method); giving both, or each the other's kind, is an error.
 */
function loggerOfV5 (opts: TrellisOptions): TrellisOptions['logger'] {
  const { logger, loggerInstance } = opts
  if (isTruthy(logger) && isTruthy(loggerInstance)) throw new errorCodesAddedInV5.FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED()
  if (isTruthy(loggerInstance)) {
    const missing = missingLoggerMethods(loggerInstance)
    if (missing.length === 0) return loggerInstance as TrellisOptions['logger']
    if (missing.length < missingLoggerMethods(null).length) throw new errorCodes.FST_ERR_LOG_INVALID_LOGGER(missing.join(','))
    throw new errorCodesAddedInV5.FST_ERR_LOG_INVALID_LOGGER_INSTANCE()
  }
  if (logger !== null && typeof logger === 'object') {
    const missing = missingLoggerMethods(logger)
    if (missing.length === 0) throw new errorCodesAddedInV5.FST_ERR_LOG_INVALID_LOGGER_CONFIG()
  }
  return logger
}

function isTruthy (value: unknown): boolean { return value !== undefined && value !== null && value !== false && value !== 0 && value !== '' }

/** The options the router reads; Fastify 5 takes them from `routerOptions` first. */
const ROUTER_KEYS = ['allowUnsafeRegex', 'buildPrettyMeta', 'caseSensitive', 'constraints', 'defaultRoute', 'ignoreDuplicateSlashes',
  'ignoreTrailingSlash', 'maxParamLength', 'onBadUrl', 'onMaxParamLength', 'querystringParser', 'useSemicolonDelimiter']

/**
 * Fastify 5: `routerOptions` wins over the top-level router options, which still work with a
 * FSTDEP022 warning naming them. Returns the options with the router's keys merged in.
 */
function withRouterOptionsOfV5 (opts: TrellisOptions): TrellisOptions {
  const given = opts.routerOptions
  if (given !== undefined && given !== null && (typeof given !== 'object' || Array.isArray(given))) invalid('"routerOptions" must be object')
  const topLevel = ROUTER_KEYS.filter((key) => Object.hasOwn(opts, key))
  if (topLevel.length > 0) emitV5Warning('FSTDEP022', topLevel.join(', '))
  if (given === undefined || given === null) return opts
  const merged: TrellisOptions = { ...opts }
  for (const key of ROUTER_KEYS) if (Object.hasOwn(given, key)) merged[key] = (given as Record<string, unknown>)[key]
  return merged
}

/**
 * `routerOptions.compile` (Fastify 5.x): a boolean, with Fastify's coercion ('true'/'false', 1/0,
 * null as false); only in routerOptions (a top-level `compile` is not an option).
 */
function compileOfV5 (given: unknown): boolean {
  if (given === undefined || given === null) return false
  const raw = (given as Record<string, unknown>).compile
  if (raw === undefined || raw === null || raw === false || raw === 'false' || raw === 0) return false
  if (raw === true || raw === 'true' || raw === 1) return true
  invalid(`"routerOptions.compile" must be boolean, got ${JSON.stringify(raw)}`)
}

/** The router options Fastify 5 shows in `initialConfig.routerOptions`, with their defaults. */
const ROUTER_DEFAULTS_SHOWN = ['ignoreTrailingSlash', 'ignoreDuplicateSlashes', 'maxParamLength', 'allowUnsafeRegex', 'useSemicolonDelimiter'] as const
const ROUTER_DEFAULT_VALUES: Record<typeof ROUTER_DEFAULTS_SHOWN[number], unknown> = {
  ignoreTrailingSlash: false, ignoreDuplicateSlashes: false, maxParamLength: 100, allowUnsafeRegex: false, useSemicolonDelimiter: false
}

function routerHooksOfV5 (opts: TrellisOptions): V5RouterHooks {
  return {
    compile: compileOfV5(opts.routerOptions),
    defaultRoute: fnOrUndefined(opts, 'defaultRoute'),
    onBadUrl: fnOrUndefined(opts, 'onBadUrl'),
    onMaxParamLength: fnOrUndefined(opts, 'onMaxParamLength'),
    buildPrettyMeta: fnOrUndefined(opts, 'buildPrettyMeta')
  }
}

function requestIdHeaderOfV5 (given: unknown): unknown {
  if (given === true) return 'request-id'
  if (given === '') return false
  return given
}

/** Fastify 5's `logController`: an instance of LogController, when given. */
function logControllerOfV5 (given: unknown): LogController | undefined {
  if (given === undefined || given === null || given === false) return undefined
  if (given instanceof LogController) return given
  throw new errorCodesAddedInV5.FST_ERR_LOG_INVALID_LOG_CONTROLLER(typeof given)
}

export function resolveOptions (input: unknown, line: FastifyLine = 4): ResolvedOptions {
  if (input !== undefined && input !== null && typeof input !== 'object') {
    throw new errorCodes.FST_ERR_OPTIONS_NOT_OBJ()
  }
  const opts = line === 5 ? withRouterOptionsOfV5((input ?? {}) as TrellisOptions) : (input ?? {}) as TrellisOptions
  const ajv = opts.ajv ?? {}
  if (typeof ajv !== 'object') invalid('"ajv" must be an object')
  if (ajv.customOptions !== undefined && Object.prototype.toString.call(ajv.customOptions) !== '[object Object]') throw new errorCodes.FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ(typeof ajv.customOptions)
  if (ajv.plugins !== undefined && !Array.isArray(ajv.plugins)) throw new errorCodes.FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR(typeof ajv.plugins)
  const bucket = (opts.schemaController as { bucket?: unknown } | undefined)?.bucket
  if (bucket !== undefined && bucket !== null && bucket !== false && typeof bucket !== 'function') throw new errorCodes.FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN(typeof bucket)
  // Fastify 5 also takes true ('request-id') and '' (none)
  const requestIdHeader = line === 5 ? requestIdHeaderOfV5(opts.requestIdHeader as unknown) : opts.requestIdHeader
  if (requestIdHeader !== undefined && requestIdHeader !== false && typeof requestIdHeader !== 'string') invalid('"requestIdHeader" must be a string or false')
  const logger = line === 5 ? loggerOfV5(opts) : opts.logger
  if (logger !== undefined && logger !== null && typeof logger !== 'boolean' && typeof logger !== 'object') invalid('"logger" must be a boolean or an object')
  const trustProxy = opts.trustProxy
  if (trustProxy !== undefined && !['boolean', 'string', 'number', 'function', 'object'].includes(typeof trustProxy)) invalid('"trustProxy" has an invalid type')
  const forceClose = opts.forceCloseConnections
  if (forceClose !== undefined && typeof forceClose !== 'boolean' && forceClose !== 'idle') invalid('"forceCloseConnections" must be a boolean or "idle"')
  if (opts.http !== undefined && opts.http !== null && Object.prototype.toString.call(opts.http) !== '[object Object]') invalid('"http" must be an object')
  const requestTimeout = integer(opts, 'requestTimeout', DEFAULT_REQUEST_TIMEOUT)
  if (line === 5) {
    // Fastify 5.12: both move to the logController option
    if (opts.requestIdLogLabel !== undefined) emitV5Warning('FSTDEP024')
    if (opts.disableRequestLogging !== undefined) emitV5Warning('FSTDEP023')
  }
  return {
    line,
    logger: logger as TrellisOptions['logger'],
    bodyLimit: integer(opts, 'bodyLimit', 1048576, 1),
    pluginTimeout: integer(opts, 'pluginTimeout', 10000),
    ajv: { customOptions: {}, plugins: [], ...ajv },
    schemaCache: resolveSchemaCacheOption(opts.schemaCache, invalid),
    aot: resolveAotOption(opts.aot, invalid, line),
    schemaErrorFormatter: schemaErrorFormatter(opts.schemaErrorFormatter),
    exposeHeadRoutes: boolean(opts, 'exposeHeadRoutes', true),
    ignoreTrailingSlash: boolean(opts, 'ignoreTrailingSlash', false),
    ignoreDuplicateSlashes: boolean(opts, 'ignoreDuplicateSlashes', false),
    useSemicolonDelimiter: boolean(opts, 'useSemicolonDelimiter', line === 4),
    caseSensitive: boolean(opts, 'caseSensitive', true),
    maxParamLength: integer(opts, 'maxParamLength', 100, 1),
    allowUnsafeRegex: boolean(opts, 'allowUnsafeRegex', false),
    trustProxy: trustProxy ?? false,
    requestIdHeader: (requestIdHeader === undefined ? (line === 4 ? 'request-id' : false) : requestIdHeader === false ? false : requestIdHeader.toLowerCase()),
    requestIdLogLabel: typeof opts.requestIdLogLabel === 'string' ? opts.requestIdLogLabel : 'reqId',
    genReqId: fnOrUndefined<(req: IncomingMessage) => string>(opts, 'genReqId') ?? reqIdGenerator(),
    return503OnClosing: boolean(opts, 'return503OnClosing', true),
    connectionTimeout: integer(opts, 'connectionTimeout', 0),
    keepAliveTimeout: integer(opts, 'keepAliveTimeout', 72000, 1),
    requestTimeout,
    headersTimeout: headersTimeout(opts, requestTimeout),
    connectionsCheckingInterval: integer(opts, 'connectionsCheckingInterval', 30000, 1),
    jsonDepthLimit: integer(opts, 'jsonDepthLimit', DEFAULT_JSON_DEPTH_LIMIT),
    strictHostAndFraming: boolean(opts, 'strictHostAndFraming', true),
    maxRequestsPerSocket: integer(opts, 'maxRequestsPerSocket', 0),
    forceCloseConnections: forceClose ?? 'idle',
    runtimeServer: oneOf(opts, 'runtimeServer', RUNTIME_SERVERS, 'auto'),
    onProtoPoisoning: oneOf(opts, 'onProtoPoisoning', POISONING, 'error'),
    onConstructorPoisoning: oneOf(opts, 'onConstructorPoisoning', POISONING, 'error'),
    disableRequestLogging: line === 5 && typeof opts.disableRequestLogging === 'function' ? opts.disableRequestLogging : boolean(opts, 'disableRequestLogging', false),
    logController: line === 5 ? logControllerOfV5(opts.logController) : undefined,
    // Fastify 5 removed the `versioning` option: it is ignored, unchecked (a constraint strategy instead)
    constraints: line === 5 ? opts.constraints : withVersioning(opts.constraints, versioning(opts.versioning)),
    querystringParser: querystringParser(opts.querystringParser),
    serializerOpts: (opts.serializerOpts ?? {}),
    schemaController: opts.schemaController,
    jsonShorthand: line === 4 && boolean(opts, 'jsonShorthand', true),
    serverFactory: fnOrUndefined(opts, 'serverFactory'),
    https: (opts.https ?? null),
    http2: boolean(opts, 'http2', false),
    http2SessionTimeout: integer(opts, 'http2SessionTimeout', 72000),
    rewriteUrl: fnOrUndefined(opts, 'rewriteUrl'),
    handlerTimeout: line === 5 ? integer(opts, 'handlerTimeout', 0) : 0,
    allowErrorHandlerOverride: line === 5 ? boolean(opts, 'allowErrorHandlerOverride', true) : true,
    router: line === 5 ? routerHooksOfV5(opts) : {},
    input: (input ?? {}) as TrellisOptions,
    frameworkErrors: fnOrUndefined(opts, 'frameworkErrors'),
    clientErrorHandler: fnOrUndefined(opts, 'clientErrorHandler')
  }
}

/**
 * The serializable view of the options (`instance.initialConfig`), deeply frozen, shaped like
 * 4.3's: the validated options with their defaults, `http2`/`https`/`forceCloseConnections`/
 * `constraints` only when given, and never a secret: `https` shows `allowHTTP1` only (or `true`),
 * functions given as options (serverFactory, genReqId, logger, ...) are left out.
 */
export function initialConfig (o: ResolvedOptions): Readonly<Record<string, unknown>> {
  const given = o.input
  const config: Record<string, unknown> = {
    connectionTimeout: o.connectionTimeout,
    keepAliveTimeout: o.keepAliveTimeout,
    maxRequestsPerSocket: o.maxRequestsPerSocket,
    requestTimeout: o.requestTimeout,
    headersTimeout: o.headersTimeout,
    jsonDepthLimit: o.jsonDepthLimit,
    bodyLimit: o.bodyLimit,
    caseSensitive: o.caseSensitive,
    allowUnsafeRegex: o.allowUnsafeRegex,
    ignoreTrailingSlash: o.ignoreTrailingSlash,
    ignoreDuplicateSlashes: o.ignoreDuplicateSlashes,
    disableRequestLogging: o.disableRequestLogging,
    jsonShorthand: o.jsonShorthand,
    maxParamLength: o.maxParamLength,
    onProtoPoisoning: o.onProtoPoisoning,
    onConstructorPoisoning: o.onConstructorPoisoning,
    pluginTimeout: o.pluginTimeout,
    requestIdHeader: o.requestIdHeader,
    requestIdLogLabel: o.requestIdLogLabel,
    http2SessionTimeout: o.http2SessionTimeout,
    exposeHeadRoutes: o.exposeHeadRoutes,
    useSemicolonDelimiter: o.useSemicolonDelimiter
  }
  // Fastify 5 dropped the jsonShorthand option and added handlerTimeout
  if (o.line === 5) {
    delete config.jsonShorthand
    config.handlerTimeout = o.handlerTimeout
    // routerOptions only when given: what was given (functions left out), with compile and the defaults
    const router = given.routerOptions
    if (router !== undefined && router !== null) {
      const view: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(router)) if (typeof value !== 'function') view[key] = clonePlain(value)
      view.compile = o.router.compile === true
      for (const key of ROUTER_DEFAULTS_SHOWN) view[key] = Object.hasOwn(router, key) ? o[key] : ROUTER_DEFAULT_VALUES[key]
      config.routerOptions = view
    }
  }
  if (given.http2 !== undefined && given.http2 !== null) config.http2 = o.http2
  if (given.https !== undefined) config.https = httpsView(given.https)
  if (given.forceCloseConnections !== undefined) config.forceCloseConnections = o.forceCloseConnections
  if (given.constraints !== undefined && given.constraints !== null) config.constraints = clonePlain(given.constraints)
  if (o.line === 4 && given.versioning !== undefined && given.versioning !== null) config.versioning = clonePlain(given.versioning)
  return deepFreeze(config)
}

/** `https` as initialConfig shows it: keys and certificates never appear. */
function httpsView (https: unknown): unknown {
  if (https === null || typeof https === 'boolean') return https
  const allowHTTP1 = (https as Record<string, unknown>).allowHTTP1
  return typeof allowHTTP1 === 'boolean' ? { allowHTTP1 } : true
}

/** Copies plain objects and arrays (cycles kept); anything else is shared as is. */
function clonePlain (value: unknown, seen = new Map<object, unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value
  const proto = Object.getPrototypeOf(value)
  const isArray = Array.isArray(value)
  if (!isArray && proto !== Object.prototype && proto !== null) return value
  if (seen.has(value)) return seen.get(value)
  const copy: Record<string, unknown> | unknown[] = isArray ? [] : {}
  seen.set(value, copy)
  for (const key of Object.keys(value)) (copy as Record<string, unknown>)[key] = clonePlain((value as Record<string, unknown>)[key], seen)
  return copy
}

/** Freezes an object and everything it holds, except typed arrays/Buffers (which cannot be frozen). */
export function deepFreeze<T> (object: T, seen = new Set<object>()): T {
  if (object === null || typeof object !== 'object' || seen.has(object)) return object
  seen.add(object)
  for (const name of Object.getOwnPropertyNames(object)) {
    const value = (object as Record<string, unknown>)[name]
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) continue
    if (value !== null && typeof value === 'object') deepFreeze(value, seen)
  }
  return Object.freeze(object)
}
