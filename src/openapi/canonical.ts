/**
 * Canonical JSON (object keys sorted) and small helpers for deterministic output: the same value
 * gives the same text whatever order its keys were written in.
 */
import { createHash } from 'node:crypto'

export function canonicalJson (value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']'
  const record = value as Record<string, unknown>
  const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort()
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(record[k])).join(',') + '}'
}

export function digest (text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

/** A deep copy of JSON data (functions and undefined dropped, as JSON does). */
export function cloneJson<T> (value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value)) as T
}

/** Escapes one JSON pointer segment and makes it safe in a URI fragment. */
export function pointerSegment (segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1')).replace(/%7E/gi, '~')
}

/** A component name (OpenAPI: `^[a-zA-Z0-9.\-_]+$`) derived from a schema `$id` or a route key. */
export function componentName (raw: string): string {
  let id = raw.endsWith('#') ? raw.slice(0, -1) : raw
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:(\/\/[^/]*)?/.exec(id)
  if (scheme !== null) {
    const rest = id.slice(scheme[0].length).replace(/^\/+/, '')
    id = rest === '' ? (scheme[1] ?? scheme[0]).replace(/^\/\//, '') : rest
  }
  id = id.replace(/\.json$/i, '').replace(/#/g, '.').replace(/\//g, '.')
  const name = id.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+|[._]+$/g, '')
  return name === '' ? 'schema' : name
}
