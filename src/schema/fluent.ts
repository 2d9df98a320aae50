/**
 * fluent-json-schema builders: plain-prototype objects carrying builder methods (`allOf`, `prop`,
 * ...) under JSON Schema keyword names. Fastify 4.3 accepts them wherever a schema goes
 * (`addSchema`, route request parts, `schema.response`) and reads the JSON Schema via `valueOf()`.
 */
const kFluentSchema = Symbol.for('fluent-schema-object')

export function isFluentSchema (schema: unknown): schema is { valueOf(): unknown } {
  if (schema === null || typeof schema !== 'object') return false
  const s = schema as Record<string | symbol, unknown>
  return s.isFluentSchema === true || s.isFluentJSONSchema === true || s[kFluentSchema] === true
}

/** The JSON Schema of a fluent builder; any other value as given. */
export function unwrapFluentSchema (schema: unknown): unknown {
  return isFluentSchema(schema) ? schema.valueOf() : schema
}
