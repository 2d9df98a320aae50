/**
 * trellis's schema inference as a Fastify 5 type provider: the default provider of the v5 line, under
 * a name of its own for `withTypeProvider<TrellisTypeProvider>()` (an instance made with another
 * provider goes back to it this way). Types request parts and replies from plain JSON Schema literals
 * (and TypeBox schemas), with the rules of docs/typescript.md ("Types inferred from route schemas"):
 * coerced and defaulted request parts, open reply objects, a handler returning a success reply.
 */
import type { FastifyTypeProviderDefault } from './type-provider'

export type { FastifyTypeProviderDefault as TrellisTypeProvider }
