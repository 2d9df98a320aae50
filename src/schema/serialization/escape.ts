/**
 * String escaping: the output is always exactly `JSON.stringify(str)` (Node 20, well-formed
 * JSON.stringify: lone surrogates become `\udXXX` escapes, U+2028/U+2029 are written raw).
 * Fast path: a string with no control character, quote, backslash or surrogate half is written
 * between quotes as it is; anything else goes through JSON.stringify.
 */

// eslint-disable-next-line no-control-regex
export const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/

export function asString (str: string): string {
  const len = str.length
  if (len < 42) {
    // short strings: a char-code scan beats the regexp
    for (let i = 0; i < len; i++) {
      const c = str.charCodeAt(i)
      if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(str)
    }
    return '"' + str + '"'
  }
  if (len < 5000 && !NEEDS_ESCAPE.test(str)) return '"' + str + '"'
  return JSON.stringify(str)
}

/** asString(str) without the outer quotes: the string itself when nothing needs escaping. */
export function asStringContent (str: string): string {
  const len = str.length
  if (len < 42) {
    for (let i = 0; i < len; i++) {
      const c = str.charCodeAt(i)
      if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(str).slice(1, -1)
    }
    return str
  }
  if (len < 5000 && !NEEDS_ESCAPE.test(str)) return str
  return JSON.stringify(str).slice(1, -1)
}
