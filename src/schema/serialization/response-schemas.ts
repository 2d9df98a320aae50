/**
 * `schema.response` -> one serializer per declared key; lookup by status: exact code -> class
 * (`2xx`, case-insensitive) -> `default`. Shorthand values (properties at top level) are normalized
 * to `{ type: 'object', properties: value }` first. Build failures are wrapped as
 * FST_ERR_SCH_SERIALIZATION_BUILD naming the route and the status key.
 */
import { errorCodes } from '../../errors'
import type { SerializerCompiler, SerializerFn } from './index'
import { unwrapFluentSchema } from '../fluent'

export interface ResponseSerializers {
  /** The serializer for a response status: exact code -> class (`2xx`) -> `default`. */
  forStatus: (statusCode: number) => SerializerFn | undefined
  /** The serializer declared under exactly this key of `schema.response` (`201`, `'4xx'`, `'default'`). */
  forKey: (key: string | number) => SerializerFn | undefined
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

export function compileResponseSerializers (input: {
  responseSchemas: Record<string, unknown>
  method: string
  url: string
  compiler: SerializerCompiler
}): ResponseSerializers {
  const exact = new Map<number, SerializerFn>()
  const byClass = new Map<number, SerializerFn>()
  const byKey = new Map<string, SerializerFn>()
  let fallback: SerializerFn | undefined
  for (const httpStatus of Object.keys(input.responseSchemas ?? {})) {
    const schema = normalizeResponseSchema(input.responseSchemas[httpStatus])
    let fn: SerializerFn
    try {
      fn = input.compiler({ schema, method: input.method, url: input.url, httpStatus })
    } catch (err) {
      throw new errorCodes.FST_ERR_SCH_SERIALIZATION_BUILD(input.method, input.url, (err as Error).message ?? String(err), { cause: err })
    }
    byKey.set(httpStatus, fn)
    if (httpStatus === 'default') fallback = fn
    else if (/^[1-5]xx$/i.test(httpStatus)) byClass.set(Number(httpStatus[0]), fn)
    else if (/^\d{3}$/.test(httpStatus)) exact.set(Number(httpStatus), fn)
    // any other key can never be selected (as in Fastify 4.3): compiled, then ignored
  }
  return {
    forStatus (statusCode: number): SerializerFn | undefined {
      return exact.get(statusCode) ?? byClass.get(Math.floor(statusCode / 100)) ?? fallback
    },
    forKey (key: string | number): SerializerFn | undefined {
      return byKey.get(String(key))
    }
  }
}
