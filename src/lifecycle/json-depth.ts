/**
 * The nesting limit of JSON bodies (the `jsonDepthLimit` option). V8 parses any depth, but code that
 * walks the result recursively (JSON.stringify, validators, serializers, the application) overflows
 * the stack near 10,000 levels: a 100,000-level body is a one-request 500. The default JSON parser
 * refuses bodies deeper than the limit (400) before it parses them.
 */
export const DEFAULT_JSON_DEPTH_LIMIT = 128

const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * Whether `text` opens more than `limit` arrays/objects at once (brackets inside strings do not
 * count). Linear; string contents are skipped with indexOf. Malformed text is left to the parser.
 */
export function jsonDepthExceeds (text: string, limit: number): boolean {
  // `limit` brackets need at least `limit` characters
  if (limit <= 0 || text.length <= limit) return false
  let depth = 0
  const length = text.length
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      let end = i
      for (;;) {
        end = text.indexOf('"', end + 1)
        if (end === -1) return false
        let backslashes = 0
        while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++
        if ((backslashes & 1) === 0) break
      }
      i = end
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) {
      depth--
    }
  }
  return false
}
