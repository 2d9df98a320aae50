/**
 * `trellis/bearer-auth`: bearer-token authentication (RFC 6750) for the context it is registered in.
 *
 *   import bearerAuth from 'trellis/bearer-auth'
 *   app.register(async (api) => {
 *     api.register(bearerAuth, { keys: [process.env.API_KEY] })
 *     api.get('/private', handler)       // needs `authorization: Bearer <API_KEY>`
 *   })
 *
 * The plugin is wrapped with `trellis/plugin` (like @fastify/bearer-auth with fastify-plugin), so its
 * `onRequest` hook lands in the context where it is registered: that context's routes and its
 * descendants are protected, siblings and the parent are not.
 *
 * Same options and messages as @fastify/bearer-auth@9, with these deliberate differences:
 * - the scheme is compared case-insensitively (RFC 7235 §2.1: `bearer k` is accepted);
 * - keys are compared as HMAC-SHA256 digests with `crypto.timingSafeEqual`, against every key,
 *   without early exit, so neither a key nor its length leaks through timing;
 * - a 401 carries `WWW-Authenticate: <bearerType>` (plus `error="invalid_token"` when a token was sent);
 * - an `auth` function that throws, rejects or returns anything but `true` gives 401 (fail closed), not 500;
 * - registering with neither `keys` nor `auth` is an error instead of a plugin that rejects everything.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import plugin from './plugin'
import { createError } from './base/errors'
import type { TrellisInstance } from './types/instance'
import type { TrellisRequest as TypedRequest } from './types/request'
import type { TrellisReply as TypedReply } from './types/reply'
import type { BothLinesPluginCallback } from './types/both-lines'
import type { FastifyRequest as RequestV5 } from './types/v5/request'
import type { FastifyReply as ReplyV5 } from './types/v5/reply'

/** Options of the bearer-auth plugin. Either `keys` or `auth` is required. */
export interface BearerAuthOptions {
  /** Accepted keys (tokens). Non-empty strings. Ignored when `auth` is given. */
  keys?: ReadonlySet<string> | readonly string[]
  /**
   * Custom verification: return (or resolve to) `true` to accept the token. Anything else, a throw or a
   * rejection is a 401. `request` is the trellis request.
   */
  auth?: (key: string, request: TypedRequest) => boolean | Promise<boolean>
  /** Builds the body of a 401 from the error (its `message` is the reason). Default: `{ error: err.message }`. */
  errorResponse?: (err: Error) => unknown
  /** Content type of the 401 response, when the body is not JSON. */
  contentType?: string
  /** Authentication scheme name, compared case-insensitively. Default 'Bearer'. */
  bearerType?: string
  /**
   * true (default): protect every route of the context with an `onRequest` hook.
   * false: only decorate the instance with `verifyBearerAuth` (and `verifyBearerAuthFactory`) for your own hooks.
   */
  addHook?: boolean
  /** Log level of the "unauthorized" log line, a method of `instance.log`. Default 'error'; null: no log line. */
  verifyErrorLogLevel?: string | null
}

/** Hook-style verifier: on success `done()`; on failure the reply is 401 (sent, or `done(err)` with addHook false). */
export type VerifyBearerAuth = (request: TypedRequest, reply: TypedReply, done: (err?: Error) => void) => void
export type VerifyBearerAuthFactory = (options: BearerAuthOptions) => VerifyBearerAuth
/** `verifyBearerAuth` as a hook of the Fastify 5 line (`trellis/v5`) sees it. */
export type VerifyBearerAuthV5 = (request: RequestV5, reply: ReplyV5, done: (err?: Error) => void) => void
export type VerifyBearerAuthFactoryV5 = (options: BearerAuthOptions) => VerifyBearerAuthV5

declare module './types/instance' {
  interface TrellisInstance {
    /** Present after registering trellis/bearer-auth with `addHook: false`. */
    verifyBearerAuth?: VerifyBearerAuth
    /** Present after registering trellis/bearer-auth with `addHook: false`. */
    verifyBearerAuthFactory?: VerifyBearerAuthFactory
  }
}

declare module './types/v5/instance' {
  interface FastifyInstance {
    /** Present after registering trellis/bearer-auth with `addHook: false`. */
    verifyBearerAuth?: VerifyBearerAuthV5
    /** Present after registering trellis/bearer-auth with `addHook: false`. */
    verifyBearerAuthFactory?: VerifyBearerAuthFactoryV5
  }
}

export const bearerAuthErrors = {
  FST_BEARER_AUTH_INVALID_OPTIONS: createError('FST_BEARER_AUTH_INVALID_OPTIONS', 'bearer-auth: %s', 500, TypeError),
  FST_BEARER_AUTH_INVALID_KEYS_OPTION_TYPE: createError('FST_BEARER_AUTH_INVALID_KEYS_OPTION_TYPE', 'options.keys has to be an Array or a Set', 500, TypeError),
  FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_TYPE: createError('FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_TYPE', 'options.keys has to contain only non-empty string entries', 500, TypeError),
  FST_BEARER_AUTH_MISSING_KEYS_OR_AUTH: createError('FST_BEARER_AUTH_MISSING_KEYS_OR_AUTH', 'bearer-auth needs options.keys (a non-empty Array or Set of strings) or options.auth (a function)', 500, TypeError),
  FST_BEARER_AUTH_INVALID_LOG_LEVEL: createError('FST_BEARER_AUTH_INVALID_LOG_LEVEL', "fastify.log does not have level '%s'"),
  FST_BEARER_AUTH_MISSING_AUTHORIZATION_HEADER: createError('FST_BEARER_AUTH_MISSING_AUTHORIZATION_HEADER', 'missing authorization header', 401),
  FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER: createError('FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER', 'invalid authorization header', 401)
}
const E = bearerAuthErrors

interface Settings {
  check: (token: string, request: TypedRequest) => boolean | Promise<unknown>
  errorResponse: (err: Error) => unknown
  contentType: string | undefined
  scheme: string
  schemeLower: string
  sendReply: boolean
  logLevel: string | null
}

function isRecord (value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object'
}

/** Constant-time membership: HMAC every key once with a per-verifier secret, compare digests of equal size. */
function keyMatcher (keys: readonly string[]): (token: string) => boolean {
  const secret = randomBytes(32)
  const digest = (value: string): Buffer => createHmac('sha256', secret).update(value, 'utf8').digest()
  const stored = keys.map(digest)
  return (token) => {
    const presented = digest(token)
    let matched = 0
    for (let i = 0; i < stored.length; i++) matched |= timingSafeEqual(presented, stored[i]) ? 1 : 0
    return matched === 1
  }
}

function readKeys (keys: unknown): string[] {
  let list: unknown[]
  if (keys instanceof Set) list = Array.from(keys)
  else if (Array.isArray(keys)) list = keys.slice()
  else throw new E.FST_BEARER_AUTH_INVALID_KEYS_OPTION_TYPE()
  for (const key of list) {
    if (typeof key !== 'string' || key.length === 0) throw new E.FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_TYPE()
  }
  return Array.from(new Set(list as string[]))
}

function settingsFrom (options: unknown, sendReply: boolean): Settings {
  if (options === undefined || options === null) options = {}
  if (!isRecord(options)) throw new E.FST_BEARER_AUTH_INVALID_OPTIONS('options must be an object')
  const { auth, errorResponse, contentType, bearerType = 'Bearer', verifyErrorLogLevel = 'error' } = options as BearerAuthOptions

  const keys = options.keys === undefined ? [] : readKeys(options.keys)
  if (auth !== undefined && typeof auth !== 'function') throw new E.FST_BEARER_AUTH_INVALID_OPTIONS('options.auth must be a function')
  if (auth === undefined && keys.length === 0) throw new E.FST_BEARER_AUTH_MISSING_KEYS_OR_AUTH()
  if (errorResponse !== undefined && typeof errorResponse !== 'function') throw new E.FST_BEARER_AUTH_INVALID_OPTIONS('options.errorResponse must be a function')
  if (contentType !== undefined && (typeof contentType !== 'string' || contentType === '')) throw new E.FST_BEARER_AUTH_INVALID_OPTIONS('options.contentType must be a non-empty string')
  if (typeof bearerType !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(bearerType)) {
    throw new E.FST_BEARER_AUTH_INVALID_OPTIONS('options.bearerType must be an authentication scheme name (a token, e.g. "Bearer")')
  }
  if (options.addHook !== undefined && typeof options.addHook !== 'boolean') throw new E.FST_BEARER_AUTH_INVALID_OPTIONS('options.addHook must be a boolean')
  if (verifyErrorLogLevel !== null && typeof verifyErrorLogLevel !== 'string') throw new E.FST_BEARER_AUTH_INVALID_LOG_LEVEL(String(verifyErrorLogLevel))

  return {
    check: auth !== undefined ? auth : keyMatcher(keys),
    errorResponse: errorResponse ?? ((err: Error) => ({ error: err.message })),
    contentType,
    scheme: bearerType,
    schemeLower: bearerType.toLowerCase(),
    sendReply,
    logLevel: verifyErrorLogLevel
  }
}

/**
 * The credentials after the scheme, or null when the header is not `<scheme> 1*SP <token>`.
 * The scheme is matched case-insensitively and must be followed by at least one space.
 */
function tokenOf (header: string, s: Settings): string | null {
  const n = s.scheme.length
  if (header.length <= n || header.charCodeAt(n) !== 32 /* SP */) return null
  if (header.slice(0, n).toLowerCase() !== s.schemeLower) return null
  const token = header.slice(n + 1).trim()
  return token === '' ? null : token
}

function buildVerifier (s: Settings): VerifyBearerAuth {
  function fail (request: TypedRequest, reply: TypedReply, done: (err?: Error) => void, error: Error, tokenGiven: boolean): void {
    if (s.logLevel !== null) {
      const log = request.log as unknown as Record<string, unknown>
      const write = log[s.logLevel]
      if (typeof write === 'function') write.call(log, 'unauthorized: %s', error.message)
    }
    let body: unknown
    if (s.sendReply) {
      try {
        body = s.errorResponse(error)
      } catch (err) {
        done(err as Error) // a broken errorResponse is a server error (500), left to the error handler
        return
      }
    }
    reply.code(401)
    reply.header('www-authenticate', tokenGiven ? `${s.scheme} error="invalid_token"` : s.scheme)
    if (s.contentType !== undefined) reply.header('content-type', s.contentType)
    if (!s.sendReply) { done(error); return }
    reply.send(body)
  }

  return function verifyBearerAuth (request, reply, done) {
    const header = request.raw.headers.authorization
    if (header === undefined || header === '') {
      fail(request, reply, done, new E.FST_BEARER_AUTH_MISSING_AUTHORIZATION_HEADER(), false)
      return
    }
    const token = tokenOf(header, s)
    if (token === null) {
      fail(request, reply, done, new E.FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER(), false)
      return
    }
    const settle = (accepted: unknown): void => {
      if (accepted === true) { done(); return }
      fail(request, reply, done, new E.FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER(), true)
    }
    const reject = (err: unknown): void => {
      request.log.error({ err }, 'bearer-auth: the auth function failed; answering 401')
      settle(false)
    }
    let result: unknown
    try {
      result = s.check(token, request)
    } catch (err) {
      reject(err)
      return
    }
    if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
      Promise.resolve(result as PromiseLike<unknown>).then(settle, reject)
    } else {
      settle(result)
    }
  }
}

/**
 * Builds a verifier from options (as the plugin does). With `addHook: false` in `options` it calls
 * `done(err)` on failure (after setting 401 and WWW-Authenticate); otherwise it sends the 401 itself.
 */
export const verifyBearerAuthFactory: VerifyBearerAuthFactory = (options) => {
  const sendReply = !(isRecord(options) && options.addHook === false)
  return buildVerifier(settingsFrom(options, sendReply))
}

function bearerAuthPlugin (instance: TrellisInstance, options: BearerAuthOptions, done: (err?: Error) => void): void {
  try {
    const addHook = !(isRecord(options) && options.addHook === false)
    const s = settingsFrom(options, addHook)
    if (s.logLevel !== null && typeof (instance.log as unknown as Record<string, unknown>)[s.logLevel] !== 'function') {
      throw new E.FST_BEARER_AUTH_INVALID_LOG_LEVEL(s.logLevel)
    }
    const verify = buildVerifier(s)
    if (addHook) {
      instance.addHook('onRequest', verify)
    } else {
      instance.decorate('verifyBearerAuthFactory', verifyBearerAuthFactory)
      instance.decorate('verifyBearerAuth', verify)
    }
  } catch (err) {
    done(err as Error)
    return
  }
  done()
}

/** The plugin, wrapped: it runs in the context it is registered in (not a new child context). */
const bearerAuth = plugin(bearerAuthPlugin, { fastify: '4.x || 5.x', name: 'trellis-bearer-auth' })
/** Typed as a plugin of each Fastify line: it runs on both. */
const typed = bearerAuth as BothLinesPluginCallback<BearerAuthOptions>

export { typed as bearerAuth }
export default typed
