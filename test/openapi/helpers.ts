/** Validation of generated documents by two independent tools, and helpers to inspect them. */
import SwaggerParser from '@apidevtools/swagger-parser'

/** Validates with @seriousme/openapi-schema-validator (the official JSON schemas of 3.0 and 3.1). */
export async function schemaErrors (doc: unknown): Promise<unknown[] | null> {
  const { Validator } = await import('@seriousme/openapi-schema-validator')
  const validator = new Validator()
  const result = await validator.validate(JSON.parse(JSON.stringify(doc)))
  return result.valid ? null : (result.errors as unknown[])
}

/** Validates and dereferences with @apidevtools/swagger-parser (fails on any dangling `$ref`). */
export async function parserDereference (doc: unknown): Promise<unknown> {
  const copy = JSON.parse(JSON.stringify(doc))
  await SwaggerParser.validate(JSON.parse(JSON.stringify(doc)))
  return await SwaggerParser.dereference(copy)
}

/** Every value of `key` anywhere in `node`. */
export function collect (node: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) for (const item of node) collect(item, key, out)
  else if (node !== null && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push(v)
      collect(v, key, out)
    }
  }
  return out
}

/** Follows a local `#/...` reference inside `doc`. */
export function follow (doc: unknown, ref: string): unknown {
  let node = doc
  for (const raw of ref.replace(/^#\//, '').split('/')) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    node = (node as Record<string, unknown> | undefined)?.[segment]
  }
  return node
}
