/**
 * `schema.response` -> one serializer per declared key; lookup by status: exact code -> class
 * (`2xx`, case-insensitive) -> `default`. Shorthand values (properties at top level) are normalized
 * to `{ type: 'object', properties: value }` first. Build failures (and a key that is no status,
 * class or `default`) are wrapped as FST_ERR_SCH_SERIALIZATION_BUILD naming the route.
 */
import { errorCodes } from '../../base/errors'
import type { SerializerCompiler, SerializerFn } from './index'
import { unwrapFluentSchema } from '../fluent'
import { contentSchemas } from '../content-schemas'
import { parseMediaType } from '../../base/media-type'
import type { FastifyLine } from '../../base/version'

export interface ResponseSerializers {
  /**
   * The serializer for a response status: exact code -> class (`2xx`) -> `default`. When that key
   * declares schemas per media type (`content`, Fastify 4.29), the one for `contentType`'s media
   * type (none when it has no schema for it).
   */
  forStatus: (statusCode: number, contentType?: string) => SerializerFn | undefined
  /**
   * The serializer declared under exactly this key of `schema.response` (`201`, `'4xx'`,
   * `'default'`); with `contentType`, the one of that key's `content` for that media type.
   */
  forKey: (key: string | number, contentType?: string) => SerializerFn | undefined
}

/** Keywords that mark a value as a full JSON Schema rather than the properties shorthand. */
const SCHEMA_MARKERS: Record<string, (v: unknown) => boolean> = {
  type: (v) => typeof v === 'string' || Array.isArray(v),
  properties: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  $ref: (v) => typeof v === 'string',
  anyOf: Array.isArray,
  oneOf: Array.isArray,
  allOf: Array.isArray,
  not: (v) => typeof v === 'object' && v !== null,
  if: (v) => typeof v === 'object' && v !== null,
  items: (v) => typeof v === 'object' && v !== null,
  const: () => true,
  enum: Array.isArray,
  required: Array.isArray,
  nullable: (v) => typeof v === 'boolean',
  additionalProperties: (v) => typeof v === 'boolean',
  patternProperties: (v) => typeof v === 'object' && v !== null,
  format: (v) => typeof v === 'string',
  $merge: () => true,
  $patch: () => true
}

/** Fastify 4.3's response shorthand: `{ a: { type: 'string' } }` means `{ type: 'object', properties: { ... } }`. */
export function normalizeResponseSchema (input: unknown): unknown {
  const schema = unwrapFluentSchema(input)
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema
  const s = schema as Record<string, unknown>
  for (const key of Object.keys(SCHEMA_MARKERS)) {
    if (key in s && SCHEMA_MARKERS[key](s[key])) return schema
  }
  return { type: 'object', properties: schema }
}

/** Serializers of one status key by media type (`{ content: { type: { schema } } }`). */
type ByMediaType = Map<string, SerializerFn>
type Entry = SerializerFn | ByMediaType

/** The keys `schema.response` may have: a status code (100-599), a class (`2xx`, any case) or `default`. */
const STATUS_KEY = /^[1-5](?:\d{2}|xx)$|^default$/i

export function compileResponseSerializers (input: {
  responseSchemas: Record<string, unknown>
  method: string
  url: string
  compiler: SerializerCompiler
  /**
   * The application's Fastify line (default 4). Fastify 4 picks a `content` schema by the reply's
   * `Content-Type` up to its first `;`, as written; Fastify 5 by its parsed media type (so
   * `application/json ; charset=utf-8` and `Application/JSON` find `application/json`), else the
   * schema of that key's catch-all media range (any type, any subtype).
   */
  line?: FastifyLine
}): ResponseSerializers {
  const exact = new Map<number, Entry>()
  const byClass = new Map<number, Entry>()
  const byKey = new Map<string, SerializerFn>()
  const byKeyContent = new Map<string, ByMediaType>()
  let fallback: Entry | undefined
  const compile = (schema: unknown, httpStatus: string, contentType?: string): SerializerFn => {
    try {
      return input.compiler(contentType === undefined
        ? { schema, method: input.method, url: input.url, httpStatus }
        : { schema, method: input.method, url: input.url, httpStatus, contentType })
    } catch (err) {
      throw new errorCodes.FST_ERR_SCH_SERIALIZATION_BUILD(input.method, input.url, (err as Error).message ?? String(err), { cause: err })
    }
  }
  for (const httpStatus of Object.keys(input.responseSchemas ?? {})) {
    // Fastify 4.29: a key that is no status code, class or `default` (a schema given without
    // status keys, say) is FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX at build time
    if (!STATUS_KEY.test(httpStatus)) {
      const err = new errorCodes.FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX()
      throw new errorCodes.FST_ERR_SCH_SERIALIZATION_BUILD(input.method, input.url, err.message, { cause: err })
    }
    const raw = unwrapFluentSchema(input.responseSchemas[httpStatus])
    const content = contentSchemas(raw, { response: true })
    let fn: Entry
    if (content !== undefined) {
      fn = new Map()
      for (const [type, schema] of content) fn.set(type, compile(normalizeResponseSchema(schema), httpStatus, type))
      byKeyContent.set(httpStatus, fn)
    } else {
      const compiled = compile(normalizeResponseSchema(raw), httpStatus)
      byKey.set(httpStatus, compiled)
      fn = compiled
    }
    if (httpStatus === 'default') fallback = fn
    else if (/^[1-5]xx$/i.test(httpStatus)) byClass.set(Number(httpStatus[0]), fn)
    else exact.set(Number(httpStatus), fn)
  }
  const byMediaType = input.line === 5
    ? (entry: ByMediaType, contentType: string): SerializerFn | undefined => {
        const media = parseMediaType(contentType)
        return media === null ? undefined : entry.get(media.essence) ?? entry.get('*/*')
      }
    : (entry: ByMediaType, contentType: string): SerializerFn | undefined => entry.get(contentType.split(';', 1)[0])
  return {
    forStatus (statusCode: number, contentType?: string): SerializerFn | undefined {
      const entry = exact.get(statusCode) ?? byClass.get(Math.floor(statusCode / 100)) ?? fallback
      if (entry === undefined || typeof entry === 'function') return entry
      return typeof contentType === 'string' ? byMediaType(entry, contentType) : undefined
    },
    forKey (key: string | number, contentType?: string): SerializerFn | undefined {
      if (typeof contentType === 'string') return byKeyContent.get(String(key))?.get(contentType)
      return byKey.get(String(key))
    }
  }
}
