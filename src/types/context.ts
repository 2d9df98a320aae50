import type { ContextConfigDefault } from './utils'

/** The route's `config`, as extended by module augmentation. */
export interface RouteContextConfig {}

/** `request.context` / `reply.context`: the route's config. */
export interface RouteContextInfo<ContextConfig = ContextConfigDefault> {
  config: RouteContextConfig & ContextConfig
}

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { RouteContextInfo as FastifyContext, RouteContextConfig as FastifyContextConfig }
