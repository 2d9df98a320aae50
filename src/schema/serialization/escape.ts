/**
 * String escaping: the output is always exactly `JSON.stringify(str)` (Node 20, well-formed
 * JSON.stringify: lone surrogates become `\udXXX` escapes, U+2028/U+2029 are written raw).
 * Fast path: a string with no control character, quote, backslash or surrogate half is written
 * between quotes as it is; anything else goes through JSON.stringify.
 */

// eslint-disable-next-line no-control-regex
export const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/

export function asString (str: string): string {
  if (str.length < 5000 && !NEEDS_ESCAPE.test(str)) return '"' + str + '"'
  return JSON.stringify(str)
}
