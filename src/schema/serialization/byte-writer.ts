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

/** Date.UTC(0, 0, 1) with year 0 and Date.UTC(9999, 11, 31, 23, 59, 59, 999): toISOString writes 4-digit years between. */
const MIN_ISO_MS = -62167219200000
const MAX_ISO_MS = 253402300799999

function two (b: Buffer, o: number, n: number): void {
  const t = (n / 10) | 0
  b[o] = 48 + t
  b[o + 1] = 48 + n - t * 10
}

/**
 * `'"' + new Date(ms).toISOString() + '"'` for ms in [MIN_ISO_MS, MAX_ISO_MS] (26 bytes), from
 * integer arithmetic: V8's toISOString was most of the time of an array of items with a date
 * (fast-json-stringify 7 also avoids it). Days to civil date: H. Hinnant's days-to-civil algorithm.
 */
function writeIsoDate (b: Buffer, o: number, ms: number): number {
  const days = Math.floor(ms / 86400000)
  let rest = ms - days * 86400000
  const z = days + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0)
  b[o] = 34
  two(b, o + 1, (year / 100) | 0)
  two(b, o + 3, year % 100)
  b[o + 5] = 45
  two(b, o + 6, month)
  b[o + 8] = 45
  two(b, o + 9, day)
  b[o + 11] = 84
  const h = (rest / 3600000) | 0
  rest -= h * 3600000
  const m = (rest / 60000) | 0
  rest -= m * 60000
  const sec = (rest / 1000) | 0
  const milli = rest - sec * 1000
  two(b, o + 12, h)
  b[o + 14] = 58
  two(b, o + 15, m)
  b[o + 17] = 58
  two(b, o + 18, sec)
  b[o + 20] = 46
  b[o + 21] = 48 + ((milli / 100) | 0)
  two(b, o + 22, milli % 100)
  b[o + 24] = 90
  b[o + 25] = 34
  return o + 26
}

const TO_ISO_STRING = Date.prototype.toISOString
const GET_TIME = Date.prototype.getTime
let pendingText = ''

/**
 * A Date (`v instanceof Date` held) as a date-time serialization writes it, `'"' + v.toISOString() + '"'`
 * (room: 26 bytes): written from its time value when `toISOString` is Date's own and the year has 4
 * digits. Otherwise returns -1 and the text is left for `pending()` (its length is not known in
 * advance). `toISOString` is read once, as the concatenating form reads it.
 */
export function writeDate (b: Buffer, o: number, v: Date): number {
  const iso = v.toISOString
  if (iso === TO_ISO_STRING) {
    let ms = NaN
    try { ms = GET_TIME.call(v) } catch {} // not a real Date (a Proxy): toISOString below throws its own error
    if (ms >= MIN_ISO_MS && ms <= MAX_ISO_MS) return writeIsoDate(b, o, ms)
  }
  pendingText = '"' + (typeof iso === 'function' ? iso.call(v) as string : v.toISOString()) + '"'
  return -1
}

/** The text writeDate left for its caller. */
export function pending (): string {
  const t = pendingText
  pendingText = ''
  return t
}
