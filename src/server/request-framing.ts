/**
 * The Host and framing rules of RFC 9112 (§3.2, §3.2.4, §6.1) and RFC 9110 (§7.2) that node's
 * request parser does not enforce, checked once per request before routing (the
 * `strictHostAndFraming` option, on by default):
 * - more than one `Host` field line, even with equal values (RFC 9112 §3.2: MUST 400);
 * - a `Host` value that is not `uri-host [ ":" port ]` (RFC 9110 §7.2, RFC 3986 §3.2.2): userinfo,
 *   a path, a list, a port that is not at most five digits up to 65535, a non-ASCII byte
 *   (an international name travels as punycode or percent-encoded). A comma is refused although
 *   RFC 3986's reg-name admits it: no DNS name has one, and it is how two values joined into one line
 *   look (RFC 9110 §5.3);
 * - an HTTP/1.1 request without `Host` (node refuses one already, unless `requireHostHeader` is off),
 *   or whose `Host` names no host while the target is origin-form or asterisk-form: such a target
 *   takes its authority from `Host` (RFC 9112 §3.3), and an `http`/`https` URI with an empty host is
 *   invalid (RFC 9110 §4.2.1-§4.2.2). An empty `Host` is what a client sends for a target URI that
 *   has no authority, which only an absolute-form target can name (RFC 9110 §7.2), and an
 *   absolute-form target's own authority replaces `Host` (RFC 9112 §3.2.2); HTTP/1.0 does not
 *   require `Host` and lets the server apply its default (RFC 9112 §3.3). A server whose node
 *   options say `requireHostHeader: false` (the `http` or `https` option) has chosen to serve
 *   requests that name no host: this rule is off there, as node's own check is;
 * - the asterisk-form target `*` with any method but OPTIONS (RFC 9112 §3.2.4);
 * - a `Transfer-Encoding` field line with an empty value, with or without `Content-Length`: the body's
 *   framing is unknown, so the connection closes after the 400 (RFC 9112 §6.1, §6.3).
 * The Host and Transfer-Encoding rules are HTTP/1's: HTTP/2 carries `:authority` and has no
 * Transfer-Encoding (node's http2 checks both).
 */
import type { IncomingMessage } from 'node:http'
import { isIPv6 } from 'node:net'

/** A broken rule: the message of the 400, and whether the connection must close after it. */
export interface FramingFault {
  readonly kind: 'host' | 'asterisk-form' | 'transfer-encoding'
  readonly message: string
  readonly close: boolean
}

const HOST_REPEATED: FramingFault = { kind: 'host', message: 'more than one Host header field line', close: false }
const HOST_INVALID: FramingFault = { kind: 'host', message: 'not a uri-host [ ":" port ]', close: false }
const HOST_MISSING: FramingFault = { kind: 'host', message: 'an HTTP/1.1 request must name a host', close: false }
const ASTERISK_FORM: FramingFault = { kind: 'asterisk-form', message: "'*' is for OPTIONS only", close: false }
const TE_EMPTY: FramingFault = { kind: 'transfer-encoding', message: 'present with an empty value', close: true }

/** Bytes of a reg-name (RFC 3986): unreserved and sub-delims but the comma; '%' is checked apart. */
const REG_NAME = new Uint8Array(128)
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+;=") REG_NAME[c.charCodeAt(0)] = 1

function isHex (code: number): boolean {
  return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 102)
}

/** `port = *DIGIT` (RFC 3986), at most 65535: `value.slice(start)`. */
function validPort (value: string, start: number): boolean {
  const length = value.length - start
  if (length > 5) return false
  let port = 0
  for (let i = start; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code < 48 || code > 57) return false
    port = port * 10 + code - 48
  }
  return port <= 65535
}

/** IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ) (RFC 3986). */
function validIPvFuture (literal: string): boolean {
  const dot = literal.indexOf('.')
  if ((literal.charCodeAt(0) | 32) !== 118 || dot < 2 || dot === literal.length - 1) return false
  for (let i = 1; i < dot; i++) if (!isHex(literal.charCodeAt(i))) return false
  for (let i = dot + 1; i < literal.length; i++) {
    const code = literal.charCodeAt(i)
    if (code !== 58 && (code > 127 || REG_NAME[code] !== 1) && code !== 44) return false
  }
  return true
}

/**
 * The length of the uri-host at the start of `value` when `value` is `uri-host [ ":" port ]`,
 * else -1.
 */
function hostLength (value: string): number {
  let end: number
  if (value.charCodeAt(0) === 91) { // '[' IP-literal ']'
    end = value.indexOf(']')
    if (end === -1) return -1
    const literal = value.slice(1, end)
    if (!isIPv6(literal) && !validIPvFuture(literal)) return -1
    end++
  } else {
    end = 0
    for (; end < value.length; end++) {
      const code = value.charCodeAt(end)
      if (code === 58) break // ':' port
      if (code === 37) { // pct-encoded
        if (!isHex(value.charCodeAt(end + 1)) || !isHex(value.charCodeAt(end + 2))) return -1
        end += 2
        continue
      }
      if (code > 127 || REG_NAME[code] !== 1) return -1
    }
  }
  if (end === value.length) return end
  if (value.charCodeAt(end) !== 58 || !validPort(value, end + 1)) return -1
  return end
}

/** The last Host value found valid: most requests repeat their predecessor's. */
let lastValidHost = '\0'

/**
 * The rule `req` breaks, or null. `hostRequired`: false when the server's node options turn off
 * `requireHostHeader` (a missing or empty Host is then served).
 */
export function framingFault (req: IncomingMessage, hostRequired: boolean = true): FramingFault | null {
  const url = req.url ?? ''
  const asterisk = url === '*'
  if (asterisk && req.method !== 'OPTIONS') return ASTERISK_FORM
  if (req.httpVersionMajor !== 1) return null
  const raw = req.rawHeaders
  let host: string | undefined
  let hosts = 0
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]
    if (name.length === 4) {
      if (name === 'Host' || name === 'host' || name.toLowerCase() === 'host') { hosts++; host = raw[i + 1] }
    } else if (name.length === 17 && raw[i + 1].trim() === '' && name.toLowerCase() === 'transfer-encoding') {
      return TE_EMPTY
    }
  }
  if (host === undefined) return req.httpVersionMinor === 0 || !hostRequired ? null : HOST_MISSING
  if (hosts > 1) return HOST_REPEATED
  if (host === lastValidHost) return null
  const length = hostLength(host)
  if (length === -1) return HOST_INVALID
  // no host named: refused for HTTP/1.1 where the target's authority is Host's
  if (length === 0) return hostRequired && req.httpVersionMinor !== 0 && (asterisk || url.charCodeAt(0) === 47) ? HOST_MISSING : null
  lastValidHost = host
  return null
}
