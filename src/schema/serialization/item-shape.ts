/**
 * The first check both array fast forms (generate-bytes.ts, generate-projection.ts) make of an item
 * schema: a plain `type: 'object'` with properties, only keywords the form knows, no additional
 * properties written, and `required` naming declared properties only.
 */
import type { Schema } from './codegen-state'

export function isSchemaObject (v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

interface ObjectShape { props: Record<string, unknown>, keys: string[], required: string[] }

/** The item schema's properties, their keys in order and its required keys; undefined when it does not fit. */
export function plainObjectShape (schema: unknown, allowedKeywords: ReadonlySet<string>): ObjectShape | undefined {
  if (!isSchemaObject(schema) || schema.type !== 'object' || !isSchemaObject(schema.properties)) return undefined
  for (const k of Object.keys(schema)) if (!allowedKeywords.has(k)) return undefined
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return undefined
  const props = schema.properties
  const keys = Object.keys(props)
  if (keys.length === 0) return undefined
  const required: unknown = schema.required === undefined ? [] : schema.required
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string' && keys.includes(r))) return undefined
  return { props, keys, required: required as string[] }
}
