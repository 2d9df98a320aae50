/**
 * light-my-request 6.8's `cookies` option for inject on the Fastify 5 line: an object of name → value
 * (or name → `{ name?, value, path? }`), or a list of `{ name, value, path? }`; a cookie with a `path`
 * is sent only when it path-matches the request's path (RFC 6265 §5.1.4; no path matches every
 * request). Values are encoded as light-my-request encodes them (`encodeURIComponent`); a name that
 * is not a cookie token is refused with a TypeError, as the `cookie` package refuses it.
 */

interface CookieRecord { name: string, value: string, path?: string }

// RFC 6265 cookie-name: an RFC 7230 token
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

function recordsOf (cookies: unknown): CookieRecord[] {
  if (Array.isArray(cookies)) return cookies as CookieRecord[]
  if (cookies === null || typeof cookies !== 'object') return []
  return Object.entries(cookies).map(([name, item]) => item !== null && typeof item === 'object'
    ? { name: (item as CookieRecord).name || name, value: (item as CookieRecord).value, path: (item as CookieRecord).path }
    : { name, value: item as string })
}

/** RFC 6265 §5.1.4: does a cookie's path cover the request's path. */
export function cookiePathMatches (cookiePath: string | undefined, requestPath: string): boolean {
  const path = cookiePath === undefined || cookiePath === '' ? '/' : cookiePath
  if (requestPath === path) return true
  if (!requestPath.startsWith(path)) return false
  return path.endsWith('/') || requestPath.charAt(path.length) === '/'
}

/** The path of an inject request's `url` / `path` option (a string, or an object with `pathname`). */
export function injectPath (opts: { url?: unknown, path?: unknown }): string {
  const target = opts.url ?? opts.path
  if (target !== null && typeof target === 'object') return String((target as { pathname?: unknown }).pathname ?? '/')
  if (typeof target !== 'string') return '/'
  try {
    return new URL(target, 'http://localhost').pathname
  } catch {
    return '/'
  }
}

/** The `cookie` header for `cookies` sent to `requestPath`, after an existing header's value (empty when none is sent, as 6.8 has it). */
export function cookieHeaderFor (cookies: unknown, requestPath: string, existing: unknown): string {
  const pairs: string[] = []
  if (typeof existing === 'string' && existing !== '') pairs.push(existing)
  for (const { name, value, path } of recordsOf(cookies)) {
    if (!cookiePathMatches(path, requestPath)) continue
    if (typeof name !== 'string' || !TOKEN.test(name)) throw new TypeError(`cookie name is invalid: ${String(name)}`)
    pairs.push(`${name}=${encodeURIComponent(String(value))}`)
  }
  return pairs.join('; ')
}
