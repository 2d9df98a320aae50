/**
 * Writing a finite number exactly as `'' + n` (= JSON.stringify(n)) writes it, faster for the
 * numbers responses are full of: integers and decimals with up to three fraction digits (prices,
 * ratings, percentages). V8 converts a non-integer double with its shortest-round-trip algorithm on
 * every call; that conversion was most of the time of serializing an array of objects with two
 * decimal fields (docs/benchmarks.md, Serializer).
 *
 * Why the shortcut is exact: with m = round(|n| * 1000), `m / 1000 === |n|` says |n| is the double
 * nearest to the decimal m/1000 (IEEE division rounds correctly). Two different decimals of at most
 * 15 significant digits never map to the same double (DBL_DIG), and m < 10^15, so no shorter or
 * closer decimal maps to |n|: m/1000's digits, trailing zeros dropped, are the shortest round-trip
 * digits ECMAScript's Number::toString writes, in positional form for |n| < 10^12.
 * Anything else (more fraction digits, 15+ digits) goes to `'' + n`. A property test checks the
 * equality on random and edge-case numbers.
 */

/** FRACTION[r] = '.ddd' for r in 0..999 with trailing zeros dropped ('' for 0). */
const FRACTION: string[] = []
for (let r = 0; r < 1000; r++) FRACTION.push(r === 0 ? '' : ('.' + String(r).padStart(3, '0')).replace(/0+$/, ''))

/** `'' + n` for a finite number `n`. */
export function formatNumber (n: number): string {
  if (Number.isInteger(n)) return '' + n
  const a = n < 0 ? -n : n
  const m = Math.round(a * 1000)
  if (m / 1000 === a && m < 1e15) {
    const r = m % 1000
    return (n < 0 ? '-' : '') + ((m - r) / 1000) + FRACTION[r]
  }
  return '' + n
}
