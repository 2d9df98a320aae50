/**
 * The ONE media-type parser of trellis (RFC 9110 §8.3.1). Content-type parser lookup uses it, and
 * so does anything else that needs to know "what kind of body is this" (e.g. schema lookup by
 * content type). Having exactly one parser is the point: CVE-2022-41919 came from two pieces of
 * code disagreeing about what a `Content-Type` header meant (a loose substring match for parser
 * selection vs. something else for validation).
 *
 * Grammar (RFC 9110):
 * ```
 * media-type      = type "/" subtype parameters
 * type, subtype   = token
 * parameters      = *( OWS ";" OWS [ parameter ] )
 * parameter       = parameter-name "=" parameter-value
 * parameter-value = token / quoted-string
 * quoted-string   = DQUOTE *( qdtext / quoted-pair ) DQUOTE
 * ```
 * plus the field-value rule that leading and trailing whitespace (SP / HTAB) is not part of the value.
 *
 * The parser is a single left-to-right scan with no regular expressions, so its cost is linear in
 * the header length whatever the input.
 */

/** A parsed media type. */
export interface MediaType {
  /** The top-level type, lowercased (`application`). */
  type: string
  /** The subtype, lowercased (`json`, `vnd.api+json`). */
  subtype: string
  /** `type/subtype`, lowercased: what parsers are matched on. */
  essence: string
  /**
   * Parameters: names lowercased, values unquoted (quoted-pairs resolved) with their case kept.
   * When a name repeats, the first occurrence wins. The object has a null prototype, so a
   * parameter called `__proto__` or `constructor` is an ordinary own key.
   */
  parameters: Record<string, string>
}

// token characters: "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
const TCHAR = new Uint8Array(128)
for (const c of "!#$%&'*+-.^_`|~") TCHAR[c.charCodeAt(0)] = 1
for (let c = 0x30; c <= 0x39; c++) TCHAR[c] = 1
for (let c = 0x41; c <= 0x5a; c++) TCHAR[c] = 1
for (let c = 0x61; c <= 0x7a; c++) TCHAR[c] = 1

function isTchar (code: number): boolean {
  return code < 128 && TCHAR[code] === 1
}

function isOws (code: number): boolean {
  return code === 0x20 || code === 0x09
}

/** qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text (%x80-FF) */
function isQdtext (code: number): boolean {
  return code === 0x09 || code === 0x20 || code === 0x21 ||
    (code >= 0x23 && code <= 0x5b) || (code >= 0x5d && code <= 0x7e) ||
    (code >= 0x80 && code <= 0xff)
}

/** what may follow a backslash in a quoted-pair: HTAB / SP / VCHAR / obs-text */
function isQuotedPairChar (code: number): boolean {
  return code === 0x09 || (code >= 0x20 && code <= 0x7e) || (code >= 0x80 && code <= 0xff)
}

/**
 * Parses a `Content-Type` (or any media-type) header value.
 *
 * @param value the raw header value; `undefined` (header absent) gives `null`
 * @returns the media type, or `null` when `value` is not a valid RFC 9110 media type
 *   (no slash, empty type or subtype, characters outside `token`, junk after the subtype that is
 *   not a `;`-introduced parameter list, a parameter without `=`, an unterminated quoted string…).
 *   It never throws, whatever the input.
 *
 * @example
 * parseMediaType('Application/JSON; charset="utf-8"')
 * // { type: 'application', subtype: 'json', essence: 'application/json', parameters: { charset: 'utf-8' } }
 * parseMediaType('application/json garbage') // null
 */
export function parseMediaType (value: string | undefined): MediaType | null {
  if (typeof value !== 'string') return null
  let end = value.length
  let i = 0
  while (i < end && isOws(value.charCodeAt(i))) i++
  while (end > i && isOws(value.charCodeAt(end - 1))) end--
  if (i === end) return null

  // type
  const typeStart = i
  while (i < end && isTchar(value.charCodeAt(i))) i++
  if (i === typeStart || i >= end || value.charCodeAt(i) !== 0x2f /* / */) return null
  const type = value.slice(typeStart, i).toLowerCase()
  i++

  // subtype
  const subtypeStart = i
  while (i < end && isTchar(value.charCodeAt(i))) i++
  if (i === subtypeStart) return null
  const subtype = value.slice(subtypeStart, i).toLowerCase()

  const parameters: Record<string, string> = Object.create(null)

  // parameters = *( OWS ";" OWS [ parameter ] )
  while (i < end) {
    while (i < end && isOws(value.charCodeAt(i))) i++
    if (i >= end) break // unreachable after trimming, kept for safety
    if (value.charCodeAt(i) !== 0x3b /* ; */) return null
    i++
    while (i < end && isOws(value.charCodeAt(i))) i++
    if (i >= end) break
    const code = value.charCodeAt(i)
    if (code === 0x3b) continue // empty parameter: `;;` is allowed

    const nameStart = i
    while (i < end && isTchar(value.charCodeAt(i))) i++
    if (i === nameStart || i >= end || value.charCodeAt(i) !== 0x3d /* = */) return null
    const name = value.slice(nameStart, i).toLowerCase()
    i++
    if (i >= end) return null // `name=` with no value

    let paramValue: string
    if (value.charCodeAt(i) === 0x22 /* " */) {
      i++
      let out = ''
      let closed = false
      let runStart = i
      while (i < end) {
        const c = value.charCodeAt(i)
        if (c === 0x22) {
          out += value.slice(runStart, i)
          i++
          closed = true
          break
        }
        if (c === 0x5c /* \ */) {
          out += value.slice(runStart, i)
          if (i + 1 >= end || !isQuotedPairChar(value.charCodeAt(i + 1))) return null
          out += value[i + 1]
          i += 2
          runStart = i
          continue
        }
        if (!isQdtext(c)) return null
        i++
      }
      if (!closed) return null
      paramValue = out
    } else {
      const valueStart = i
      while (i < end && isTchar(value.charCodeAt(i))) i++
      if (i === valueStart) return null
      paramValue = value.slice(valueStart, i)
    }
    if (!(name in parameters)) parameters[name] = paramValue
  }

  return { type, subtype, essence: type + '/' + subtype, parameters }
}
