/**
 * Helpers the generated serializers call (bound once per compiled serializer, never per call).
 * Coercion follows fast-json-stringify@5, except that nothing is ever written unescaped.
 */
import { asString, asStringContent } from './escape'
import { formatNumber } from './number-format'
import { done, grow, pending, take, writeDate, writeInteger, writeNumber, writeString, writeText } from './byte-writer'

export type Rounding = 'trunc' | 'floor' | 'ceil' | 'round'

export interface Runtime {
  str: (s: string) => string
  coerceStr: (v: unknown) => string
  num: (v: unknown) => string
  /** str / coerceStr without the outer quotes (the straight-line object form writes them in its literals) */
  strU: (s: string) => string
  coerceStrU: (v: unknown) => string
  /** a finite number, written as '' + n writes it (number-format.ts) */
  fnum: (n: number) => string
  int: (v: unknown) => string
  dateTime: (v: unknown) => string
  date: (v: unknown) => string
  time: (v: unknown) => string
  any: (v: unknown) => string
  /** Projection (generate-projection.ts): the value whose JSON.stringify equals what int/num/coerceStr write. */
  intV: (v: unknown) => number
  numV: (v: unknown) => number | null
  strV: (v: unknown) => string
  /** Thrown by intV/numV for a value a projection cannot express (BigInt): the caller serializes by concatenation. */
  fallback: object
  /** The byte-writing array form (byte-writer.ts, generate-bytes.ts). */
  take: () => Buffer
  grow: (b: Buffer, o: number, need: number) => Buffer
  done: (b: Buffer, o: number) => string
  wtext: (b: Buffer, o: number, t: string) => number
  wstr: (b: Buffer, o: number, s: string) => number
  wint: (b: Buffer, o: number, n: number) => number
  wnum: (b: Buffer, o: number, n: number) => number
  wdate: (b: Buffer, o: number, v: object) => number
  pending: () => string
}

const FALLBACK = Object.freeze({ projection: 'fallback' })

function numV (v: unknown): number | null {
  if (typeof v === 'bigint') throw FALLBACK
  const out = num(v)
  // num() writes '' + n for a finite n, and Number('' + n) === n (or -0 -> 0, written the same)
  return out === 'null' ? null : Number(out)
}

function strV (v: unknown): string {
  return JSON.parse(coerceStr(v)) as string
}

/** A string schema fed a non-string: null -> "", Date -> ISO string, RegExp -> source, else String(v). */
function coerceStr (v: unknown): string {
  if (v === null) return '""'
  if (v instanceof Date) return '"' + v.toISOString() + '"'
  if (v instanceof RegExp) return asString(v.source)
  if (v === undefined || typeof v === 'symbol') throw new Error(`The value "${String(v)}" cannot be converted to a string.`)
  return asString(String(v))
}

function coerceStrU (v: unknown): string {
  return coerceStr(v).slice(1, -1)
}

/** A number schema: Number(v); NaN throws, +-Infinity writes null (as JSON.stringify does). */
function num (v: unknown): string {
  if (typeof v === 'bigint') return v.toString()
  const n = typeof v === 'symbol' ? NaN : Number(v)
  // eslint-disable-next-line no-self-compare
  if (n !== n) throw new Error(`The value "${safeText(v)}" cannot be converted to a number.`)
  if (n === Infinity || n === -Infinity) return 'null'
  return '' + n
}

function safeText (v: unknown): string {
  try { return String(v) } catch { return typeof v }
}

function makeInt (round: (n: number) => number): (v: unknown) => string {
  return function int (v: unknown): string {
    if (typeof v === 'bigint') return v.toString()
    const n = round(typeof v === 'symbol' ? NaN : (v as number))
    // eslint-disable-next-line no-self-compare
    if (n !== n || n === Infinity || n === -Infinity) throw new Error(`The value "${safeText(v)}" cannot be converted to an integer.`)
    return '' + n
  }
}

function pad (n: number, width = 2): string {
  return String(n).padStart(width, '0')
}

/** date-time: Date -> toISOString(); strings are written escaped; null -> "". */
function dateTime (v: unknown): string {
  if (v === null) return '""'
  if (v instanceof Date) return '"' + v.toISOString() + '"'
  if (typeof v === 'string') return asString(v)
  throw new Error(`The value "${safeText(v)}" cannot be converted to a date-time.`)
}

/**
 * dateTime for an object value, in the byte form (byte-writer.ts): a Date is written by writeDate
 * (-1: its text is pending()), anything else throws as dateTime does.
 */
function writeDateTime (b: Buffer, o: number, v: object): number {
  if (v instanceof Date) return writeDate(b, o, v)
  throw new Error(`The value "${safeText(v)}" cannot be converted to a date-time.`)
}

/** date: a Date's local calendar date as YYYY-MM-DD (fast-json-stringify@5 behaviour). */
function date (v: unknown): string {
  if (v === null) return '""'
  if (v instanceof Date) {
    const y = v.getFullYear()
    return '"' + (y < 0 ? '-' + pad(-y, 6) : y > 9999 ? '+' + pad(y, 6) : pad(y, 4)) + '-' + pad(v.getMonth() + 1) + '-' + pad(v.getDate()) + '"'
  }
  if (typeof v === 'string') return asString(v)
  throw new Error(`The value "${safeText(v)}" cannot be converted to a date.`)
}

/** time: a Date's local time as HH:mm:ss. */
function time (v: unknown): string {
  if (v === null) return '""'
  if (v instanceof Date) return '"' + pad(v.getHours()) + ':' + pad(v.getMinutes()) + ':' + pad(v.getSeconds()) + '"'
  if (typeof v === 'string') return asString(v)
  throw new Error(`The value "${safeText(v)}" cannot be converted to a time.`)
}

/** A schema without type: JSON.stringify, with `null` where JSON.stringify returns undefined. */
function any (v: unknown): string {
  const out = JSON.stringify(v)
  return out === undefined ? 'null' : out
}

const ROUNDERS: Record<Rounding, (n: number) => number> = { trunc: Math.trunc, floor: Math.floor, ceil: Math.ceil, round: Math.round }

const runtimes = new Map<Rounding, Runtime>()

export function getRuntime (rounding: Rounding = 'trunc'): Runtime {
  let rt = runtimes.get(rounding)
  if (rt === undefined) {
    const round = ROUNDERS[rounding]
    if (round === undefined) throw new Error(`Unsupported integer rounding method ${String(rounding)}`)
    const int = makeInt(round)
    const intV = (v: unknown): number => {
      if (typeof v === 'bigint') throw FALLBACK
      return Number(int(v))
    }
    rt = {
      str: asString,
      coerceStr,
      strU: asStringContent,
      coerceStrU,
      num,
      fnum: formatNumber,
      int,
      dateTime,
      date,
      time,
      any,
      intV,
      numV,
      strV,
      fallback: FALLBACK,
      take,
      grow,
      done,
      wtext: writeText,
      wstr: writeString,
      wint: writeInteger,
      wnum: writeNumber,
      wdate: writeDateTime,
      pending
    }
    runtimes.set(rounding, rt)
  }
  return rt
}
