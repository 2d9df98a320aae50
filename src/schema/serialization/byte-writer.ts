/**
 * Runtime of the byte-writing array form (generate-bytes.ts): arrays of flat objects are written as
 * UTF-8 bytes into a reused buffer and decoded once, which gives a flat string. A concatenated
 * result is a rope of ~15 nodes per item that V8 flattens before the server can measure or write
 * it; on Node 24 that flattening cost more than building the rope (docs/benchmarks.md, Serializer).
 *
 * Every writer returns the offset after what it wrote. Callers reserve room first (`grow`): a
 * number takes at most NUMBER_ROOM bytes, a string of length n at most 6n (`\u00XX` escapes; a
 * UTF-16 unit is at most 3 UTF-8 bytes).
 */
import { asStringContent } from './escape'

/** Bytes a finite number's text takes at most ('-1.7976931348623157e+308' is 24). */
export const NUMBER_ROOM = 32

const INITIAL = 64 * 1024
/** Buffers larger than this are not kept for reuse (a huge reply does not pin its buffer). */
const MAX_KEPT = 1024 * 1024
/** Free buffers kept; more than one only when a serializer runs inside another (toJSON, toString). */
const POOL_SIZE = 4
const pool: Buffer[] = []

/** A buffer to write into: a free one, or a new one (a serializer that throws just drops its buffer). */
export function take (): Buffer {
  return pool.pop() ?? Buffer.allocUnsafeSlow(INITIAL)
}

/** A larger buffer holding the `o` bytes written so far, with room for `need` more; `b` is free again. */
export function grow (b: Buffer, o: number, need: number): Buffer {
  const next = Buffer.allocUnsafeSlow(Math.max(b.length * 2, o + need))
  b.copy(next, 0, 0, o)
  release(b)
  return next
}

function release (b: Buffer): void {
  if (pool.length < POOL_SIZE && b.length <= MAX_KEPT) pool.push(b)
}

/** The text of the first `o` bytes; the buffer goes back to the pool. */
export function done (b: Buffer, o: number): string {
  const out = b.toString(undefined, 0, o) // UTF-8
  release(b)
  return out
}

/** Any text, as UTF-8 (room: 3 bytes per UTF-16 unit). */
export function writeText (b: Buffer, o: number, t: string): number {
  const len = t.length
  if (len > 64) return o + b.write(t, o)
  for (let i = 0; i < len; i++) {
    const c = t.charCodeAt(i)
    if (c >= 128) return o + b.write(t, o)
    b[o + i] = c
  }
  return o + len
}

/** A string's JSON content (no quotes): as it is when nothing needs escaping and it is ASCII, else escaped / UTF-8 encoded. */
export function writeString (b: Buffer, o: number, s: string): number {
  const len = s.length
  if (len > 64) return writeText(b, o, asStringContent(s))
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i)
    if (c < 32 || c === 34 || c === 92 || c >= 128) return writeText(b, o, asStringContent(s))
    b[o + i] = c
  }
  return o + len
}

/** A non-negative integer below 2^53. */
function writeDigits (b: Buffer, o: number, n: number): number {
  if (n < 10) { b[o] = 48 + n; return o + 1 }
  let d = 2
  for (let p = 100; n >= p && d < 16; p *= 10) d++
  let e = o + d
  if (n <= 0x7fffffff) {
    while (n >= 10) { const q = (n / 10) | 0; b[--e] = 48 + (n - q * 10); n = q }
  } else {
    // n / 10 is within 1/16 of the exact quotient below 2^53, so its floor is exact
    while (n >= 10) { const q = Math.floor(n / 10); b[--e] = 48 + (n - q * 10); n = q }
  }
  b[--e] = 48 + n
  return o + d
}

/** An integer-valued number, as '' + n writes it (room: NUMBER_ROOM). */
export function writeInteger (b: Buffer, o: number, n: number): number {
  if (n < 0) {
    if (n < -9007199254740991) return writeText(b, o, '' + n)
    b[o] = 45
    return writeDigits(b, o + 1, -n)
  }
  return n <= 9007199254740991 ? writeDigits(b, o, n) : writeText(b, o, '' + n)
}

/**
 * A finite number, as '' + n writes it (room: NUMBER_ROOM). Integers and values with up to three
 * fraction digits are written from integer parts; why that is exact: number-format.ts.
 */
export function writeNumber (b: Buffer, o: number, n: number): number {
  if (Number.isInteger(n)) return writeInteger(b, o, n)
  const a = n < 0 ? -n : n
  const m = Math.round(a * 1000)
  if (m / 1000 !== a || m >= 1e15) return writeText(b, o, '' + n)
  if (n < 0) b[o++] = 45
  const r = m % 1000 // not 0: n is not an integer
  o = writeDigits(b, o, (m - r) / 1000)
  b[o++] = 46
  const h = (r / 100) | 0
  const t = ((r / 10) | 0) - h * 10
  const u = r - ((r / 10) | 0) * 10
  b[o++] = 48 + h
  if (u !== 0) { b[o++] = 48 + t; b[o++] = 48 + u } else if (t !== 0) b[o++] = 48 + t
  return o
}
