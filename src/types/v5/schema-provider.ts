/**
 * trellis's schema inference as a Fastify 5 type provider: `app.withTypeProvider<TrellisTypeProvider>()`
 * types request parts and replies from plain JSON Schema literals (and TypeBox schemas), with the
 * rules of docs/typescript.md ("Types inferred from route schemas"): coerced and defaulted request
 * parts, open reply objects. No provider package needed.
 */
import type { SchemaDepth, SchemaToType } from '../schema-to-type'
import type { FastifyTypeProvider } from './type-provider'

export interface TrellisTypeProvider extends FastifyTypeProvider {
  readonly validator: SchemaToType<this['schema'], this['schema'], SchemaDepth, 'request'>
  readonly serializer: SchemaToType<this['schema'], this['schema'], SchemaDepth, 'reply'>
}
