/**
 * Schemas per media type (Fastify 4.29): `{ content: { 'application/json': { schema } } }` for a
 * request body or a response. Every media type needs a `schema` (FST_ERR_SCH_CONTENT_MISSING_SCHEMA).
 */
import { errorCodes } from '../base/errors'
import { isPlainSchemaObject } from './validation/normalize'

/**
 * The [media type, schema] pairs of `schema.content`, or undefined for an ordinary schema. For a
 * response (`response: true`), as Fastify 4.29: an empty `content`, or one key with no `schema`
 * under it, is an ordinary schema (the shorthand `{ content: { type: 'string' } }` declares a
 * property named `content`).
 */
export function contentSchemas (schema: unknown, { response }: { response: boolean }): Array<[string, unknown]> | undefined {
  if (!isPlainSchemaObject(schema)) return undefined
  const content = schema.content
  if (content === null || typeof content !== 'object' || Array.isArray(content)) return undefined
  const types = Object.keys(content)
  const schemaOf = (type: string): unknown => {
    const entry = (content as Record<string, { schema?: unknown } | undefined>)[type]
    return entry !== null && typeof entry === 'object' ? entry.schema : undefined
  }
  if (response && (types.length === 0 || (types.length === 1 && !schemaOf(types[0])))) return undefined
  return types.map((type) => {
    const entrySchema = schemaOf(type)
    if (!entrySchema) throw new errorCodes.FST_ERR_SCH_CONTENT_MISSING_SCHEMA(type)
    return [type, entrySchema]
  })
}
